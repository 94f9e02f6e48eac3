// The worker-thread side of the detect stage's beat engine (beat-engine.ts): the same detector
// and classifier, fed the blocks the main thread transfers, answering each with its beats.
import { createBeatCore, type BeatEngineOptions } from './beat-engine.ts'
import { serveRequests, workerInput } from './worker-serve.ts'

const core = createBeatCore(workerInput as BeatEngineOptions)
serveRequests((m: { t: 'push'; x: Float32Array; at: number } | { t: 'finish' }) => {
  const beats = m.t === 'push' ? core.push(m.x, m.at) : core.finish()
  return { result: beats, transfer: [beats.buffer as ArrayBuffer] }
})
