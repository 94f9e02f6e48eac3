// The worker side of worker-engine.ts: answers each request in order with handle's result
// (transferring the buffers it lists), or with the error it threw.
import { parentPort, workerData } from 'node:worker_threads'

/** The data the stage passed to startWorker. */
export const workerInput: unknown = (workerData as { data: unknown }).data

export function serveRequests<Req>(handle: (request: Req) => { result: unknown; transfer?: ArrayBuffer[] }): void {
  const port = parentPort!
  port.on('message', (m: Req) => {
    try {
      const { result, transfer } = handle(m)
      port.postMessage({ result }, transfer ?? [])
    } catch (err) {
      port.postMessage({ error: { message: (err as Error).message ?? String(err), stack: (err as Error).stack } })
    }
  })
}
