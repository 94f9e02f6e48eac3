// Excerpt clips for render-video: for one excerpt, a short MP4 whose frames are strips of
// `windowSec` (or the excerpt's length, if shorter) stepping by `stepSec` from the excerpt's
// start to its end, so the signal scrolls through the strip from right to left. Frames are drawn
// in the render pool with a bounded number in flight (core/map-ordered.ts), into buffers that go
// round, and piped to their own encoder; the file is complete under its name when this resolves.
import type { MediaStore } from '../core/services.ts'
import { mapOrdered } from '../core/map-ordered.ts'
import type { StripMarker, StripOptions } from '../render/draw-strip.ts'
import type { RenderPool } from '../threads/render-pool.ts'
import { createVideoEncoder, type VideoEncoder } from './video-encoder.ts'

export interface ClipCut {
  /** First sample of the clip, its time, and its samples per lead (the leads to draw). */
  startSample: number
  startMs: number
  samples: Float32Array[]
  labels: string[]
  fs: number
  markers: StripMarker[]
}

export interface ClipOptions {
  ffmpeg: string
  media: MediaStore
  /** The clip's file under the media folder. */
  rel: string
  fps: number
  crf: number
  preset: string
  windowSec: number
  stepSec: number
  depth: number
  size: { width: number; height: number }
  strip: Partial<StripOptions>
  title: string
  startTime: string | null
  signal: AbortSignal
  /** Frame buffers back from ffmpeg, to draw the next frames into (kept by the caller across clips). */
  spare: Uint8Array[]
}

/** The window (samples) and count of a clip's frames over `span` samples. */
export function clipFrames(span: number, fs: number, windowSec: number, stepSec: number): { width: number; step: number; count: number } {
  const width = Math.min(span, Math.round(windowSec * fs))
  const step = stepSec * fs
  return { width, step, count: Math.floor((span - width) / step + 1e-9) + 1 }
}

/** Encodes the clip of `cut`; resolves with its run-relative path, size and frames. */
export async function renderClip(cut: ClipCut, pool: RenderPool, o: ClipOptions): Promise<{ path: string; bytes: number; frames: number }> {
  const reserved = await o.media.reserve(o.rel)
  const { width, step, count } = clipFrames(cut.samples[0]?.length ?? 0, cut.fs, o.windowSec, o.stepSec)
  const enc: VideoEncoder = createVideoEncoder({ ffmpeg: o.ffmpeg, file: reserved.file, width: o.size.width, height: o.size.height, fps: o.fps, crf: o.crf, preset: o.preset, signal: o.signal })
  const frame = (k: number) => {
    const at = Math.round(k * step)
    const from = cut.startSample + at
    const input = {
      // A copy of the frame's window: a view would take the whole excerpt's buffer to the worker
      // with every frame (a message clones a typed array's whole ArrayBuffer).
      samples: cut.samples.map((x) => x.slice(at, at + width)), labels: cut.labels, fs: cut.fs,
      startSample: from, startMs: cut.startMs + Math.round((at / cut.fs) * 1000), windowSec: o.windowSec,
      markers: cut.markers.filter((m) => m.sample >= from && m.sample < from + width), title: o.title, startTime: o.startTime,
    }
    return pool.draw({ t: 'rgba', input, options: o.strip, target: o.spare.pop() })
  }
  try {
    // Once ffmpeg has taken a frame's bytes the buffer goes back for another frame.
    for await (const pixels of mapOrdered(Array.from({ length: count }, (_, k) => k), frame, { concurrency: o.depth + 1, signal: o.signal })) {
      await enc.writeFrame(pixels)
      o.spare.push(pixels)
    }
    const { frames } = await enc.finish()
    return { path: reserved.path, bytes: await reserved.adopt(), frames }
  } catch (err) {
    await enc.abort()
    throw err
  }
}
