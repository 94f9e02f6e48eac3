// The detector and classifier of the `detect` stage behind one asynchronous interface, run in
// this thread or in a worker thread (detect-worker.ts). In a worker, beat finding for one block
// overlaps with reading and cleaning the next one on the main thread: the detect stage hands a
// chunk over, then goes on pulling the next while the worker works. Samples are transferred,
// copied first unless the stage hands over an array of its own (the blocks it yields keep
// theirs); the beats come back as small objects, in order. Results are the same in both modes: the worker runs the same code
// on the same samples in the same order.
import { PipelineError } from '../core/errors.ts'
import { createQrsDetector } from '../dsp/qrs-detector.ts'
import { createBeatClassifier, type ClassifiedBeat } from '../dsp/beat-classifier.ts'
import { startWorker, transferable } from './worker-engine.ts'

export interface BeatEngineOptions {
  fs: number
  refractoryMs: number
}

export interface BeatEngine {
  /**
   * Feeds one lead's samples from absolute sample `at`; resolves with the beats labelled by then.
   * `owned`: the caller will not use `x` again, so a worker may take it without a copy.
   */
  push(x: Float32Array, at: number, owned?: boolean): Promise<ClassifiedBeat[]>
  /** Ends the stream; resolves with the remaining beats. */
  finish(): Promise<ClassifiedBeat[]>
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
  return {
    push(x: Float32Array, at: number): ClassifiedBeat[] {
      cls.push(x, at)
      return found(det.push(x, at))
    },
    finish(): ClassifiedBeat[] {
      const out = found(det.finish())
      for (const b of cls.finish()) out.push(b)
      return out
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
  const worker = startWorker<ClassifiedBeat[]>('detect-worker', o, 'detect', engineError)
  return {
    push(x, at, owned) {
      const send = transferable(x, owned)
      return worker.ask({ t: 'push', x: send, at }, [send.buffer as ArrayBuffer])
    },
    finish: () => worker.ask({ t: 'finish' }),
    close: () => worker.close(),
  }
}
