// A worker thread that answers requests in order, for stages that move their heavy loops off the
// main thread (detect's beat engine so far): the stage sends a request and goes on
// pulling its input while the worker works, then awaits the answers oldest first. The bundle
// (dist/cli.mjs) has dist/<name>.mjs beside it; from the TypeScript sources the worker starts
// through worker-boot.mjs, which registers tsx in the worker thread first. The worker side is
// serveRequests (worker-serve.ts). A worker starts faster from the bundle than from the sources,
// which have to be compiled in the thread first.
import { Worker } from 'node:worker_threads'
import { PipelineError } from '../core/errors.ts'

export interface WorkerClient<Res> {
  /** Sends a request (transferring `transfer`); resolves with its answer, in the order asked. */
  ask(message: object, transfer?: ArrayBuffer[]): Promise<Res>
  /** Ends the worker (idempotent). */
  close(): Promise<void>
}

const FROM_SOURCES = import.meta.url.endsWith('.ts')

/** Starts worker `name` (src/stages/<name>.ts) with `data`; `what` names it in errors. */
export function startWorker<Res>(name: string, data: unknown, what: string, toError: (err: unknown) => Error): WorkerClient<Res> {
  const url = FROM_SOURCES ? new URL('./worker-boot.mjs', import.meta.url) : new URL(`./${name}.mjs`, import.meta.url)
  const worker = new Worker(url, { workerData: { entry: `./${name}.ts`, data } })
  const waiting: { resolve: (r: Res) => void; reject: (e: unknown) => void }[] = []
  let failure: unknown = null
  let closed = false
  const fail = (err: unknown) => {
    failure ??= err
    for (const w of waiting.splice(0)) w.reject(failure)
  }
  worker.on('message', (m: { result?: Res; error?: { message: string; stack?: string } }) => {
    if (m.error) fail(toError(Object.assign(new Error(m.error.message), { stack: m.error.stack })))
    else waiting.shift()?.resolve(m.result as Res)
  })
  worker.on('error', fail)
  worker.on('exit', (code) => {
    if (!closed) fail(new PipelineError('E_INTERNAL', `the ${what} worker thread exited (code ${code}) with ${waiting.length} requests unanswered`))
  })
  return {
    ask: (message, transfer = []) =>
      new Promise<Res>((resolve, reject) => {
        if (failure) return reject(failure)
        waiting.push({ resolve, reject })
        worker.postMessage(message, transfer)
      }),
    async close() {
      if (closed) return
      closed = true
      await worker.terminate()
    },
  }
}

/** A copy of x that a worker may take (a transfer detaches the whole buffer), unless `owned` and x is its whole buffer. */
export function transferable<T extends Float32Array | Float64Array>(x: T, owned = false): T {
  return owned && x.byteOffset === 0 && x.byteLength === x.buffer.byteLength ? x : (x.slice() as T)
}
