// The inputs of a QA item of an exported folder (src/run/input-qa-folder.ts) as the qa stage had
// them (QaInputs), paths relative to the folder. The gold line's `inputs` name the files and its
// `inputSizes` the sizes a model's budget is checked against (src/holtercare/layout.ts); what the
// export does not write is read from the files: the text's bytes (stat; the exported text file is
// the excerpt's text only, so its offset is 0) and how many values it holds, the strips' and the
// clip's pixel size (their headers), the clip's bytes. A missing file, or a link whose target is
// gone (an export made with --inputs link whose run moved), is an error that says what to do.
import { createReadStream } from 'node:fs'
import { lstat, readlink, stat } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { PipelineError } from '../core/errors.ts'
import type { QaInputs } from '../core/items.ts'
import { readMp4Dimensions, readPngDimensions } from '../formats/media-dimensions.ts'

/** Where a gold line is: its file (absolute) and 1-based line, for messages. */
export interface GoldPlace {
  file: string
  line: number
}

const AGAIN = 'export the run again with pipeline qa export'

/** The inputs of one gold line (`inputs`, `inputSizes`) of the folder `dir`. */
export async function readQaInputs(dir: string, files: unknown, sizes: unknown, at: GoldPlace, signal?: AbortSignal): Promise<QaInputs> {
  const where = `${at.file}:${at.line}`
  const bad = (message: string) => new PipelineError('E_INPUT_RUN', `${where}: ${message}`, { file: at.file, line: at.line })
  if (!isObject(files)) throw bad(`the gold line has no "inputs" (the exported input files), found ${JSON.stringify(files)}; an evaluation reads them: ${AGAIN} and --inputs copy (or link)`)
  const s = isObject(sizes) ? sizes : {}
  const need = (key: string): number => {
    const v = s[key]
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`inputSizes.${key} must be a number, found ${JSON.stringify(v)}; the line was not written by pipeline qa export: ${AGAIN}`)
    return v
  }
  const file = async (rel: unknown, field: string) => {
    if (typeof rel !== 'string' || rel === '' || path.posix.isAbsolute(rel) || path.win32.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
      throw bad(`inputs.${field} must be a path inside the folder (relative, without ".."), found ${JSON.stringify(rel)}; ${AGAIN}`)
    }
    return { rel, abs: path.join(dir, rel), size: await sizeOf(dir, path.join(dir, rel), where) }
  }
  const out: QaInputs = {}
  if (files.text !== undefined) {
    const t = await file(files.text, 'text')
    const bytes = s.textBytes === undefined ? t.size : need('textBytes')
    if (bytes !== t.size) throw bad(`${t.rel} has ${t.size} bytes, the gold line says ${bytes}: the folder changed after it was exported; ${AGAIN}`)
    const leads = s.textLeads
    if (!Array.isArray(leads) || !leads.every((l) => typeof l === 'string')) throw bad(`inputSizes.textLeads must be the text's lead labels, found ${JSON.stringify(leads)}; ${AGAIN}`)
    out.text = { path: t.rel, offset: 0, bytes, tokens: need('textTokens'), fs: need('textRateHz'), leads, values: await countValues(t.abs, signal) }
  }
  if (files.images !== undefined) {
    if (!Array.isArray(files.images) || files.images.length === 0) throw bad(`inputs.images must be a list of PNG files, found ${JSON.stringify(files.images)}; ${AGAIN}`)
    const paths: string[] = []
    let pixels = 0
    let width = 0
    let height = 0
    for (const [k, p] of files.images.entries()) {
      const f = await file(p, `images[${k}]`)
      const d = await readPngDimensions(f.abs)
      paths.push(f.rel)
      pixels += d.width * d.height
      width = Math.max(width, d.width)
      height = Math.max(height, d.height)
    }
    out.images = { paths, count: s.images === undefined ? paths.length : need('images'), pixels: s.imagePixels === undefined ? pixels : need('imagePixels'), width, height }
  }
  if (files.video !== undefined) {
    const v = await file(files.video, 'video')
    const d = await readMp4Dimensions(v.abs)
    out.video = { path: v.rel, bytes: v.size, frames: need('videoFrames'), fps: need('videoFps'), seconds: need('videoSeconds'), width: d.width, height: d.height }
  }
  return out
}

// A file's size; a missing one (or a link to one) is an error naming it and what to do.
async function sizeOf(dir: string, abs: string, where: string): Promise<number> {
  try {
    return (await stat(abs)).size
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw new PipelineError('E_IO', `cannot read ${abs} (named by ${where}): ${(cause as Error).message}`, { file: abs }, { cause })
    const link = await lstat(abs).then((l) => l.isSymbolicLink(), () => false)
    if (link) {
      const target = path.resolve(path.dirname(abs), await readlink(abs))
      throw new PipelineError('E_INPUT_RUN', `${abs} (named by ${where}) is a link to ${target}, which does not exist: the run the folder was exported from with --inputs link moved or was removed; put it back, or export it again with --inputs copy`, { file: abs }, { cause })
    }
    throw new PipelineError('E_INPUT_RUN', `${abs} (named by ${where}) does not exist: the exported folder ${dir} is incomplete; ${AGAIN}`, { file: abs }, { cause })
  }
}

// The values of render-text's lines ("<lead> <hh:mm:ss.mmm> <rate>Hz: <v><sep><v>..."), read as a
// stream: numbers, NaN or Infinity, whatever the separator.
async function countValues(file: string, signal?: AbortSignal): Promise<number> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8', signal }), crlfDelay: Infinity })
  let n = 0
  let line = 0
  try {
    for await (const text of lines) {
      line++
      if (text === '') continue
      const at = text.indexOf('Hz: ')
      if (at < 0) throw new PipelineError('E_INPUT_RUN', `${file}:${line} is not a line of render-text's layout ("<lead> <time> <rate>Hz: <values>"); replace the file with the excerpt's text, or export the run again`, { file, line })
      n += text.slice(at + 4).match(/NaN|-?Infinity|-?[0-9][0-9.]*/g)?.length ?? 0
    }
  } finally {
    lines.close()
  }
  return n
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}
