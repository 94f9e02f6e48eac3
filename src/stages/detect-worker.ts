// The worker-thread side of the detect stage's beat engine (beat-engine.ts): the same detector
// and classifier, fed the blocks the main thread transfers, answering each with its beats.
import { parentPort, workerData } from 'node:worker_threads'
import { createBeatCore, type BeatEngineOptions } from './beat-engine.ts'

const port = parentPort!
const core = createBeatCore(workerData as BeatEngineOptions)
port.on('message', (m: { t: 'push'; x: Float32Array; at: number } | { t: 'finish' }) => {
  try {
    port.postMessage({ beats: m.t === 'push' ? core.push(m.x, m.at) : core.finish() })
  } catch (err) {
    port.postMessage({ error: { message: (err as Error).message ?? String(err), stack: (err as Error).stack } })
  }
})
