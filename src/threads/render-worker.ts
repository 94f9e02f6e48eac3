// The worker-thread side of the render stages (render-pool.ts): draws a strip and answers with
// its PNG bytes (render-strip) or its raw RGBA pixels (render-video's frames), transferred.
import { drawStrip, stripSize, type StripInput, type StripOptions } from '../render/draw-strip.ts'
import { resolveStripOptions } from '../render/strip-layout.ts'
import type { Canvas } from '../render/canvas.ts'
import { encodePng } from '../render/png.ts'
import { serveRequests } from './worker-serve.ts'

export interface RenderRequest {
  t: 'png' | 'rgba'
  input: StripInput
  options: Partial<StripOptions>
  /** rgba: a frame buffer to draw into (transferred), one the stage got back from an earlier frame. */
  target?: Uint8Array
}

serveRequests(createRenderHandler())

/** Answers render requests; a PNG strip is drawn into one canvas it keeps (it only goes out encoded). */
function createRenderHandler() {
  // A fresh 2 MB canvas per strip left the heap to the garbage collector's pace (peak RSS
  // 170 MB on 24 h, 112 MB on 1 h).
  let paper: Canvas | undefined
  return (m: RenderRequest) => {
    // A video's frames go round between the stage and this thread in a few buffers, so the
    // memory does not wait for the garbage collector to free a 2 MB frame each time.
    const size = m.target ? stripSize(m.input.windowSec, m.input.samples.length, resolveStripOptions(m.options)) : null
    const target = size && m.target!.length === size.width * size.height * 4 ? { ...size, data: m.target! } : undefined
    const canvas = drawStrip(m.input, m.options, m.t === 'png' ? paper : target)
    if (m.t === 'png') paper = canvas
    const bytes = m.t === 'png' ? encodePng(canvas) : canvas.data
    // A transfer takes the whole ArrayBuffer: copy what shares one (small Buffers come from a pool).
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)
    return { result: own, transfer: [own.buffer as ArrayBuffer] }
  }
}
