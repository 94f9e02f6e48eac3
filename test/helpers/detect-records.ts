// Streams one or more recordings through the read stage into one QRS detector, as one record
// (the files' sample numbers are offset one after the other, as for the 20 Icentia11k segments),
// and collects the detections and the reference annotations. Shared by the accuracy test and
// bench/qrs-accuracy.ts, which also times the detector.
import { performance } from 'node:perf_hooks'
import type { AnnotationItem, Item, SampleBlock } from '../../src/core/items.ts'
import { createQrsDetector, type QrsDetector } from '../../src/dsp/qrs-detector.ts'
import read from '../../src/stages/read.ts'
import { readContext, recordSpec } from './read-record.ts'

const isBlock = (i: Item): i is SampleBlock => i.kind === 'block'
const isAnnotation = (i: Item): i is AnnotationItem => i.kind === 'annotation'

export interface DetectedRecords {
  fs: number
  /** Samples of all files together. */
  totalSamples: number
  beats: number[]
  refSamples: number[]
  refSymbols: string[]
  /** Time spent inside the detector's push/finish, ms. */
  detectMs: number
}

/** Detects beats over `files` read as one record; `blockSamples` re-cuts the blocks (block-size tests). */
export async function detectOverFiles(files: string[], blockSamples?: number): Promise<DetectedRecords> {
  let det: QrsDetector | undefined
  const out: DetectedRecords = { fs: 0, totalSamples: 0, beats: [], refSamples: [], refSymbols: [], detectMs: 0 }
  for (const file of files) {
    let length = 0
    for await (const item of read.transform((async function* () {})(), readContext(recordSpec(file)))) {
      if (isBlock(item)) {
        out.fs = item.fs
        det ??= createQrsDetector({ fs: item.fs })
        const x = item.leads[0]
        const step = blockSamples ?? x.length
        const t = performance.now()
        for (let at = 0; at < x.length; at += step) out.beats.push(...det.push(x.subarray(at, at + step), out.totalSamples + item.startSample + at))
        out.detectMs += performance.now() - t
        length = Math.max(length, item.startSample + x.length)
      } else if (isAnnotation(item)) {
        out.refSamples.push(out.totalSamples + item.sample)
        out.refSymbols.push(item.symbol)
      }
    }
    out.totalSamples += length
  }
  const t = performance.now()
  if (det) out.beats.push(...det.finish())
  out.detectMs += performance.now() - t
  return out
}
