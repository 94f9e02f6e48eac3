// The worker-thread side of the render stages (render-pool.ts): draws a strip and answers with
// its PNG bytes (render-strip) or its raw RGBA pixels (render-video's frames), transferred.
import { drawStrip, type StripInput, type StripOptions } from '../render/draw-strip.ts'
import { encodePng } from '../render/png.ts'
import { serveRequests } from './worker-serve.ts'

export interface RenderRequest {
  t: 'png' | 'rgba'
  input: StripInput
  options: Partial<StripOptions>
}

serveRequests((m: RenderRequest) => {
  const canvas = drawStrip(m.input, m.options)
  const bytes = m.t === 'png' ? encodePng(canvas) : canvas.data
  // A transfer takes the whole ArrayBuffer: copy what shares one (small Buffers come from a pool).
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)
  return { result: own, transfer: [own.buffer as ArrayBuffer] }
})
