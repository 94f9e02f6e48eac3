// The MP4 parts of one record's video (render-video.ts): one encoder at a time; with
// `numbered`, the files are <name>-part001.mp4, -part002.mp4, ... and a part is closed before
// the frame that would take it past `maxFrames`, or once its growing file has reached
// `maxBytes` (looked at every BYTES_CHECK frames); otherwise the one file is <name>.mp4.
import type { WindowItem } from '../core/items.ts'
import type { MediaReservation, MediaStore } from '../core/services.ts'
import { createVideoEncoder, type VideoEncoder } from './video-encoder.ts'

const BYTES_CHECK = 10

export interface VideoPartsOptions {
  ffmpeg: string
  /** Where the parts go: the record's media store, and their name under its folder. */
  media: MediaStore
  name: string
  numbered: boolean
  fps: number
  crf: number
  preset: string
  signal: AbortSignal
  maxFrames: number
  maxBytes?: number
  size: { width: number; height: number }
}

/** A finished part: its file (run-relative path and its name under the media folder) and size, its frames and the first and last window they show. */
export interface PartDone {
  path: string
  rel: string
  bytes: number
  frames: number
  fps: number
  part: number
  width: number
  height: number
  first: WindowItem
  last: WindowItem
}

export interface VideoParts {
  /** Writes one frame (window `w`'s strip); resolves with the part it closed first, if any. */
  write(frame: Uint8Array, w: WindowItem): Promise<PartDone | null>
  /** Closes the open part. */
  finish(): Promise<PartDone | null>
  /** Kills an open encoder and removes its partial file (after a failure or abort). */
  abort(): Promise<void>
}

export function createVideoParts(o: VideoPartsOptions): VideoParts {
  let enc: VideoEncoder | null = null
  let reserved: MediaReservation | null = null
  let rel = ''
  let part = 0
  let first: WindowItem | null = null
  let last: WindowItem | null = null

  const close = async (): Promise<PartDone | null> => {
    if (!enc) return null
    const e = enc
    enc = null
    const { frames } = await e.finish()
    const bytes = await reserved!.adopt()
    return { path: reserved!.path, rel, bytes, frames, fps: o.fps, part, width: o.size.width, height: o.size.height, first: first!, last: last! }
  }
  const full = async (): Promise<boolean> => {
    if (!enc || !o.numbered) return false
    if (enc.frames >= o.maxFrames) return true
    return o.maxBytes !== undefined && enc.frames % BYTES_CHECK === 0 && (await enc.outputBytes()) >= o.maxBytes
  }
  return {
    async write(frame, w) {
      const closed = (await full()) ? await close() : null
      if (!enc) {
        part++
        rel = o.numbered ? `${o.name}-part${String(part).padStart(3, '0')}.mp4` : `${o.name}.mp4`
        reserved = await o.media.reserve(rel)
        enc = createVideoEncoder({ ffmpeg: o.ffmpeg, file: reserved.file, width: o.size.width, height: o.size.height, fps: o.fps, signal: o.signal, crf: o.crf, preset: o.preset })
        first = w
      }
      await enc.writeFrame(frame)
      last = w
      return closed
    },
    finish: close,
    async abort() {
      const e = enc
      enc = null
      await e?.abort()
    },
  }
}
