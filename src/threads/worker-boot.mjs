// Starts a stage's worker thread from the TypeScript sources (the bundle has dist/<name>.mjs
// instead): a worker thread has its own module loader, so tsx is registered here first; the
// module to run comes in workerData.entry (worker-engine.ts).
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(new URL(workerData.entry, import.meta.url).href)
