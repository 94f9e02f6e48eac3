// The detector and classifier of the `detect` stage behind one asynchronous interface, run in
// this thread or in a worker thread (detect-worker.ts). In a worker, beat finding for one block
// overlaps with reading and cleaning the next one on the main thread: the detect stage hands a
// chunk over, then goes on pulling the next while the worker works. Samples are transferred,
// copied first unless the stage hands over an array of its own (the blocks it yields keep
// theirs); the beats come back packed in one Float64Array (packBeats), in order: a transfer
// instead of a structured clone of an object per beat, read once into the stage's beat items.
// Results are the same in both modes: the worker runs the same code on the same samples in the
// same order.
import { PipelineError } from '../core/errors.ts'
import { createQrsDetector } from '../dsp/qrs-detector.ts'
import { createBeatClassifier, type ClassifiedBeat } from '../dsp/beat-classifier.ts'
import type { BeatLabel } from '../dsp/beat-rules.ts'
import { startWorker, transferable } from './worker-engine.ts'

export interface BeatEngineOptions {
  fs: number
  refractoryMs: number
}

/** Numbers per beat in packed beats: sample, label (index in LABELS), rrMs, qrsSpanMs, templateCorr (NaN for null). */
export const BEAT_FIELDS = 5
const LABELS: readonly BeatLabel[] = ['N', 'S', 'V', 'F', 'Q']

/**
 * Beats packed BEAT_FIELDS numbers each (see BEAT_FIELDS), then one number: the sample from which
 * on every beat still to come lies (the engine's settled point, for the stage's watermark).
 */
export function packBeats(beats: readonly ClassifiedBeat[], settled = -Infinity): Float64Array {
  const p = new Float64Array(beats.length * BEAT_FIELDS + 1)
  p[p.length - 1] = settled
  beats.forEach((b, i) => {
    const o = i * BEAT_FIELDS
    p[o] = b.sample
    const label = LABELS.indexOf(b.label)
    if (label < 0) throw new Error(`beat at sample ${b.sample} has label ${JSON.stringify(b.label)}, not one of ${LABELS.join(', ')}; add it to LABELS in beat-engine.ts`)
    p[o + 1] = label
    p[o + 2] = b.rrMs ?? NaN
    p[o + 3] = b.qrsSpanMs ?? NaN
    p[o + 4] = b.templateCorr ?? NaN
  })
  return p
}

/** How many beats packed beats hold. */
export function packedCount(p: Float64Array): number {
  return (p.length - 1) / BEAT_FIELDS
}

/** The settled point packed with the beats. */
export function packedSettled(p: Float64Array): number {
  return p[p.length - 1]
}

/** Beat i of packed beats, as the classifier gave it. */
export function unpackBeat(p: Float64Array, i: number): ClassifiedBeat {
  const o = i * BEAT_FIELDS
  const orNull = (v: number) => (Number.isNaN(v) ? null : v)
  return { sample: p[o], label: LABELS[p[o + 1]], rrMs: orNull(p[o + 2]), qrsSpanMs: orNull(p[o + 3]), templateCorr: orNull(p[o + 4]) }
}

export interface BeatEngine {
  /**
   * Feeds one lead's samples from absolute sample `at`; resolves with the beats labelled by then,
   * packed (packBeats). `owned`: the caller will not use `x` again, so a worker may take it
   * without a copy.
   */
  push(x: Float32Array, at: number, owned?: boolean): Promise<Float64Array>
  /** Ends the stream; resolves with the remaining beats, packed. */
  finish(): Promise<Float64Array>
  /** Releases the worker, if any (idempotent). */
  close(): Promise<void>
}

/** The synchronous core, shared by both modes. */
export function createBeatCore(o: BeatEngineOptions) {
  const det = createQrsDetector({ fs: o.fs, refractoryMs: o.refractoryMs })
  const cls = createBeatClassifier({ fs: o.fs })
  const found = (beats: number[]): ClassifiedBeat[] => {
    const out: ClassifiedBeat[] = []
    for (const s of beats) for (const b of cls.beat(s)) out.push(b)
    return out
  }
  const settled = () => Math.min(det.settled(), cls.settled())
  return {
    push(x: Float32Array, at: number): Float64Array {
      // Beats the classifier closes for want of a successor come before those found now.
      const out = cls.push(x, at)
      for (const b of found(det.push(x, at))) out.push(b)
      return packBeats(out, settled())
    },
    finish(): Float64Array {
      const out = found(det.finish())
      for (const b of cls.finish()) out.push(b)
      return packBeats(out, Infinity)
    },
  }
}

/** An error of the detector or classifier, the same in both modes. */
function engineError(err: unknown): PipelineError {
  const e = err as Error
  return new PipelineError('E_INTERNAL', `detect: ${e?.message ?? String(err)}`, {}, { cause: err })
}

/** Runs in this thread. */
export function createLocalBeatEngine(o: BeatEngineOptions): BeatEngine {
  const core = createBeatCore(o)
  const guard = <T>(f: () => T): Promise<T> => {
    try {
      return Promise.resolve(f())
    } catch (err) {
      return Promise.reject(engineError(err))
    }
  }
  return {
    push: (x, at) => guard(() => core.push(x, at)),
    finish: () => guard(() => core.finish()),
    close: async () => undefined,
  }
}

/** Runs in a worker thread (worker-engine.ts); requests are answered in order. */
export function createWorkerBeatEngine(o: BeatEngineOptions): BeatEngine {
  const worker = startWorker<Float64Array>('detect-worker', o, 'detect', engineError)
  return {
    push(x, at, owned) {
      const send = transferable(x, owned)
      return worker.ask({ t: 'push', x: send, at }, [send.buffer as ArrayBuffer])
    },
    finish: () => worker.ask({ t: 'finish' }),
    close: () => worker.close(),
  }
}
