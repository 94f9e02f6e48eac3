// QA items for infer tests, with real input files: the excerpt's text as render-text writes it,
// strips as PNG (the repo's encoder) and, when ffmpeg is there, a real MP4 clip.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { QaItem } from '../../src/core/items.ts'
import { estimateTokens } from '../../src/render/estimate-tokens.ts'
import { encodePng } from '../../src/render/png.ts'
import { findFfmpeg } from '../../src/sinks/ffmpeg.ts'

export interface InputFiles {
  text: NonNullable<QaItem['inputs']['text']>
  images: NonNullable<QaItem['inputs']['images']>
  video?: NonNullable<QaItem['inputs']['video']>
}

/** Writes input files under `<runDir>/media/<recordId>/` and returns their QaInputs (paths relative to runDir). */
export function writeInputs(runDir: string, recordId: string, o: { seconds?: number; rate?: number; video?: boolean } = {}): InputFiles {
  const dir = path.join(runDir, 'media', recordId)
  mkdirSync(dir, { recursive: true })
  const rate = o.rate ?? 100
  const n = Math.round((o.seconds ?? 10) * rate)
  const values = Array.from({ length: n }, (_, i) => (Math.sin((2 * Math.PI * 1.2 * i) / rate) * 0.8).toFixed(3).replace(/^-(0\.000)$/, '$1'))
  const text = Buffer.from(`MLII 00:00:10.000 ${rate}Hz: ${values.join(',')}\n`)
  writeFileSync(path.join(dir, 'text.txt'), text)
  const png = (shade: number) => {
    const w = 32, h = 16
    const rgba = new Uint8Array(w * h * 4).fill(shade)
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255
    return encodePng({ width: w, height: h, data: rgba })
  }
  const paths = [0, 1, 2].map((k) => {
    writeFileSync(path.join(dir, `strip${k}.png`), png(60 + 60 * k))
    return `media/${recordId}/strip${k}.png`
  })
  const files: InputFiles = {
    text: { path: `media/${recordId}/text.txt`, offset: 0, bytes: text.length, tokens: estimateTokens(text), fs: rate, leads: ['MLII'], values: n },
    images: { paths, count: 3, pixels: 3 * 32 * 16, width: 32, height: 16 },
  }
  const ff = findFfmpeg()
  if (o.video && ff) {
    execFileSync(ff.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5', '-t', '4', '-pix_fmt', 'yuv420p', path.join(dir, 'clip.mp4')])
    files.video = { path: `media/${recordId}/clip.mp4`, bytes: 0, frames: 20, fps: 5, seconds: 4, width: 64, height: 48 }
  }
  return files
}

/** A closed QA item of `recordId` numbered `k`, with `inputs`. */
export function qaItem(recordId: string, k: number, inputs: QaItem['inputs'], over: Partial<QaItem> = {}): QaItem {
  const start = 3600 + k * 3600
  return {
    kind: 'qa', id: `${recordId}:ex:s:${start}:closed_event_counting:${k}`, recordId, caseId: recordId, split: 'test',
    taskType: 'closed_event_counting', tier: 'Closed-QA',
    excerpt: { id: `${recordId}:ex:s:${start}`, set: 's', startSample: start, endSample: start + 3600, startMs: start * 10 / 3.6, endMs: (start + 3600) * 10 / 3.6 },
    question: `How many premature ventricular contractions are in this excerpt (item ${k})? A. 0; B. 1; C. 2; D. 3`,
    answer: 'B. 1', gold: { value: 1, choices: ['0', '1', '2', '3'], correct: 1, evidenceBeats: [] },
    inputs, from: [], startSample: start, endSample: start + 3600, ...over,
  }
}
