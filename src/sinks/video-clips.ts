// Event clips for render-video (issue 4: "event-focused clips around annotated or detected
// events"): for one event cut (render-events.ts), a short MP4 whose frames are strips of
// `windowSec` stepping by `stepSec` across the event, so the event scrolls through the strip
// from its right edge (padSec before) to its left (padSec after). Frames are drawn in the render
// pool with a bounded number in flight, into buffers that go round, and piped to their own encoder.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { StripOptions } from '../render/draw-strip.ts'
import { createVideoEncoder, type VideoEncoder } from './video-encoder.ts'
import { eventFileName, type EventCut, type EventOptions } from '../render/render-events.ts'
import type { RenderPool } from '../threads/render-pool.ts'

export interface ClipOptions {
  ffmpeg: string
  dir: string
  fps: number
  crf: number
  preset: string
  windowSec: number
  stepSec: number
  padSec: number
  depth: number
  size: { width: number; height: number }
  strip: Partial<StripOptions>
  title: string
  startTime: string | null
  signal: AbortSignal
  source: EventOptions['source']
  /** Frame buffers back from ffmpeg, to draw the next frames into (kept by the caller across clips). */
  spare: Uint8Array[]
}

/** Encodes the clip of `cut` (cut with padSec + windowSec/2 either side); resolves with its file, size and frames. */
export async function renderClip(cut: EventCut, leads: number[], pool: RenderPool, o: ClipOptions): Promise<{ file: string; bytes: number; frames: number }> {
  const e = cut.event
  const file = path.join(o.dir, `${eventFileName(e, o.source)}.mp4`)
  await mkdir(o.dir, { recursive: true })
  const width = Math.round(o.windowSec * cut.fs)
  const step = o.stepSec * cut.fs
  const count = Math.floor((2 * o.padSec) / o.stepSec + 1e-9) + 1
  const enc: VideoEncoder = createVideoEncoder({ ffmpeg: o.ffmpeg, file, width: o.size.width, height: o.size.height, fps: o.fps, crf: o.crf, preset: o.preset, signal: o.signal })
  const flight: Promise<Uint8Array>[] = []
  // Writes the oldest frame; once ffmpeg has taken its bytes the buffer goes back for another
  // frame (as render-video's do: a fresh 2 MB canvas a frame is left to the garbage collector).
  const land = async () => {
    const pixels = await flight.shift()!
    await enc.writeFrame(pixels)
    o.spare.push(pixels)
  }
  try {
    for (let k = 0; k < count; k++) {
      const at = Math.round(k * step)
      const from = cut.startSample + at
      const input = {
        samples: leads.map((i) => cut.samples[i].subarray(at, at + width)), labels: leads.map((i) => cut.labels[i]), fs: cut.fs,
        startSample: from, startMs: cut.startMs + Math.round((at / cut.fs) * 1000), windowSec: o.windowSec,
        markers: cut.markers.filter((m) => m.sample >= from && m.sample < from + width), title: o.title, startTime: o.startTime,
      }
      const frame = pool.draw({ t: 'rgba', input, options: o.strip, target: o.spare.pop() })
      frame.catch(() => undefined) // awaited in order below
      flight.push(frame)
      while (flight.length > o.depth) await land()
    }
    while (flight.length) await land()
    return await enc.finish()
  } catch (err) {
    await Promise.allSettled(flight)
    await enc.abort()
    throw err
  }
}
