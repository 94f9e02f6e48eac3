// Starts the detect worker from the TypeScript sources (the bundle has dist/detect-worker.mjs):
// a worker thread has its own module loader, so tsx is registered here first.
import { register } from 'tsx/esm/api'

register()
await import('./detect-worker.ts')
