// The worker threads a render stage draws in (heavy drawing off the main thread): one
// or more render-worker threads, requests handed out in turn. The stage keeps a bounded number
// in flight and awaits the answers oldest first, so output order is input order.
import { PipelineError } from '../core/errors.ts'
import { startWorker, type WorkerClient } from './worker-engine.ts'
import type { RenderRequest } from './render-worker.ts'

export interface RenderPool {
  /** Draws one strip in a worker: PNG bytes or RGBA pixels (into request.target, transferred, when given). */
  draw(request: RenderRequest): Promise<Uint8Array>
  close(): Promise<void>
}

/** Starts `threads` render workers; `stage` names them in errors. */
export function createRenderPool(threads: number, stage: string): RenderPool {
  const toError = (err: unknown) => new PipelineError('E_INTERNAL', `${stage}: drawing failed in its worker thread: ${(err as Error).message}`, {}, { cause: err })
  const workers: WorkerClient<Uint8Array>[] = Array.from({ length: threads }, () => startWorker<Uint8Array>('render-worker', null, stage, toError))
  let turn = 0
  return {
    draw(request) {
      const w = workers[turn]
      turn = (turn + 1) % workers.length
      return w.ask(request, request.target ? [request.target.buffer as ArrayBuffer] : [])
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()))
    },
  }
}
