// Streams one or more recordings through the read stage (and optionally the clean stage) into
// one QRS detector and, optionally, the beat classifier, as one record (the files' sample numbers
// are offset one after the other, as for the 20 Icentia11k segments), and collects the
// detections, their labels and the reference annotations. Shared by the accuracy tests and
// bench/qrs-accuracy.ts, which also times the detector and the classifier. The classifier is
// driven as the detect stage drives it: push a block, then register the beats the detector
// confirmed in it; at the end the detector's last beats, then finish.
import { performance } from 'node:perf_hooks'
import type { AnnotationItem, Item, SampleBlock } from '../../src/core/items.ts'
import { type BeatClassifier, type ClassifiedBeat, createBeatClassifier } from '../../src/dsp/beat-classifier.ts'
import { createQrsDetector, type QrsDetector } from '../../src/dsp/qrs-detector.ts'
import clean from '../../src/stages/clean.ts'
import read from '../../src/stages/read.ts'
import { readContext, recordSpec } from './read-record.ts'
import { testContext } from './stage-context.ts'

const isBlock = (i: Item): i is SampleBlock => i.kind === 'block'
const isAnnotation = (i: Item): i is AnnotationItem => i.kind === 'annotation'

export interface DetectedRecords {
  fs: number
  /** Samples of all files together. */
  totalSamples: number
  beats: number[]
  /** One per beat, in order, when `classify` was asked for (else empty). */
  classified: ClassifiedBeat[]
  refSamples: number[]
  refSymbols: string[]
  /** Time spent inside the detector's push/finish, ms. */
  detectMs: number
  /** Time spent inside the classifier's push/beat/finish, ms. */
  classifyMs: number
}

export interface DetectOptions {
  /** Re-cuts the blocks (block-size tests). */
  blockSamples?: number
  /** Runs the clean stage (default options) between read and detection. */
  clean?: boolean
  /** Also labels the beats with the beat classifier. */
  classify?: boolean
}

/** Detects (and optionally classifies) beats over `files` read as one record. */
export async function detectOverFiles(files: string[], options: number | DetectOptions = {}): Promise<DetectedRecords> {
  const opts: DetectOptions = typeof options === 'number' ? { blockSamples: options } : options
  let det: QrsDetector | undefined
  let cls: BeatClassifier | undefined
  const out: DetectedRecords = { fs: 0, totalSamples: 0, beats: [], classified: [], refSamples: [], refSymbols: [], detectMs: 0, classifyMs: 0 }
  const found = (beats: number[]) => {
    out.beats.push(...beats)
    if (!cls) return
    const t = performance.now()
    for (const b of beats) out.classified.push(...cls.beat(b))
    out.classifyMs += performance.now() - t
  }
  for (const file of files) {
    let length = 0
    const spec = recordSpec(file)
    let items = read.transform((async function* () {})(), readContext(spec)) as AsyncIterable<Item>
    if (opts.clean) items = clean.transform(items, testContext(clean, {}, spec, [])) as AsyncIterable<Item>
    for await (const item of items) {
      if (isBlock(item)) {
        out.fs = item.fs
        det ??= createQrsDetector({ fs: item.fs })
        if (opts.classify) cls ??= createBeatClassifier({ fs: item.fs })
        const x = item.leads[0]
        const step = opts.blockSamples ?? x.length
        for (let at = 0; at < x.length; at += step) {
          const block = x.subarray(at, at + step)
          const start = out.totalSamples + item.startSample + at
          if (cls) {
            const t = performance.now()
            out.classified.push(...cls.push(block, start))
            out.classifyMs += performance.now() - t
          }
          const t = performance.now()
          const beats = det.push(block, start)
          out.detectMs += performance.now() - t
          found(beats)
        }
        length = Math.max(length, item.startSample + x.length)
      } else if (isAnnotation(item)) {
        out.refSamples.push(out.totalSamples + item.sample)
        out.refSymbols.push(item.symbol)
      }
    }
    out.totalSamples += length
  }
  const t = performance.now()
  const last = det ? det.finish() : []
  out.detectMs += performance.now() - t
  found(last)
  if (cls) {
    const t2 = performance.now()
    out.classified.push(...cls.finish())
    out.classifyMs += performance.now() - t2
  }
  return out
}
