// Sample items in the report: the strip image the models saw, the question, the gold answer and
// every model's answer with its score, so a reader can see why a model failed. Images become
// data: URLs (the page then works when copied or opened from disk) or file: URLs when asked.
import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { PipelineError } from '../core/errors.ts'
import { escapeHtml } from './html-escape.ts'
import type { ReportSample, ReportView } from './html-types.ts'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The img src of every sample image in the view, keyed by its path (each file read once). */
export async function sampleImageSources(view: ReportView, embed: boolean): Promise<Map<string, string>> {
  const sources = new Map<string, string>()
  for (const section of view.sections) {
    for (const sample of section.samples) {
      if (sample.image === undefined || sources.has(sample.image)) continue
      sources.set(sample.image, embed ? await pngDataUrl(sample.image) : pathToFileURL(sample.image).href)
    }
  }
  return sources
}

async function pngDataUrl(file: string): Promise<string> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'E_FILE_MISSING' : 'E_IO'
    throw new PipelineError(code, `cannot read the sample strip image ${file} for the report: ${(cause as Error).message}; re-render the run's strips or leave the sample's image out`, { file }, { cause })
  }
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new PipelineError('E_IO', `the sample strip image ${file} is not a PNG (its first bytes are not the PNG signature); the report embeds PNG strips only`, { file })
  }
  return `data:image/png;base64,${bytes.toString('base64')}`
}

/** One sample item as <article class="sample">; `n` numbers it within its section. */
export function renderSample(sample: ReportSample, id: string, n: number, src: string | undefined): string {
  const image = src === undefined ? '' : `<figure class="strip"><img src="${escapeHtml(src)}" alt="${escapeHtml(`ECG strip shown to the models for ${sample.task} item ${n}`)}" loading="eager"></figure>`
  const answers = sample.answers.map((a) => `<tr><th scope="row">${escapeHtml(a.model)}</th><td class="text">${escapeHtml(a.answer)}</td><td>${escapeHtml(a.score)}</td></tr>`)
  return [
    `<article class="sample" id="${id}" aria-labelledby="${id}-h">`,
    `<h4 id="${id}-h">${escapeHtml(sample.task)}: item ${n}</h4>`,
    image,
    '<dl class="qa">',
    `<dt>Question</dt><dd class="text">${escapeHtml(sample.question)}</dd>`,
    `<dt>Gold</dt><dd class="text">${escapeHtml(sample.gold)}</dd>`,
    '</dl>',
    '<div class="table-wrap"><table class="answers">',
    `<caption>Answers to ${escapeHtml(sample.task)} item ${n}</caption>`,
    '<thead><tr><th scope="col">Model</th><th scope="col">Answer</th><th scope="col">Score</th></tr></thead>',
    `<tbody>\n${answers.join('\n')}\n</tbody></table></div>`,
    '</article>',
  ]
    .filter(Boolean)
    .join('\n')
}
