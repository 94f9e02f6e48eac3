// Reading an encoded video back, for the encoder's and the render stages' tests and benchmarks:
// ffprobe for the stream facts (frames counted by decoding, not taken from the header), the MP4's
// top-level box order for faststart, and ffmpeg to decode one frame to RGBA.
import { execFile } from 'node:child_process'
import { open } from 'node:fs/promises'
import { promisify } from 'node:util'
import { findFfmpeg } from '../../src/sinks/ffmpeg.ts'

const run = promisify(execFile)

export interface VideoProbe {
  codec: string
  pixFmt: string
  width: number
  height: number
  /** Frames counted by decoding the whole stream. */
  frames: number
  durationSec: number
  /** The `moov` box comes before `mdat`, so a player can start before the download ends. */
  faststart: boolean
}

/** The installed ffmpeg and ffprobe; null when ffmpeg is missing (tests skip or fail on that). */
export function ffmpegTools(): { ffmpeg: string; ffprobe: string } | null {
  const found = findFfmpeg()
  return found && found.ffprobe ? { ffmpeg: found.ffmpeg, ffprobe: found.ffprobe } : null
}

/**
 * Whether tests that need ffmpeg should be skipped: only when it is missing outside CI (with a
 * message saying so). Under CI (process.env.CI) they run, and fail on the missing ffmpeg.
 */
export function skipWithoutFfmpeg(): boolean {
  if (ffmpegTools() || process.env.CI) return false
  console.warn('ffmpeg/ffprobe not found: skipping the tests that encode video (install ffmpeg or set FFMPEG_PATH; under CI they fail instead)')
  return true
}

function tools(): { ffmpeg: string; ffprobe: string } {
  const t = ffmpegTools()
  if (!t) throw new Error('ffmpeg and ffprobe are needed (sudo apt-get install -y ffmpeg, or FFMPEG_PATH)')
  return t
}

/** Codec, pixel format, size, decoded frame count, duration and faststart of the first video stream of `file`. */
export async function probeVideo(file: string): Promise<VideoProbe> {
  const { stdout } = await run(tools().ffprobe, ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file], { maxBuffer: 16 << 20 })
  const info = JSON.parse(stdout) as { streams: Record<string, string | number>[]; format: Record<string, string> }
  const video = info.streams.find((s) => s.codec_type === 'video')
  if (!video) throw new Error(`${file} has no video stream`)
  return {
    codec: String(video.codec_name),
    pixFmt: String(video.pix_fmt),
    width: Number(video.width),
    height: Number(video.height),
    frames: Number(video.nb_read_frames),
    durationSec: Number(video.duration ?? info.format.duration),
    faststart: await moovBeforeMdat(file),
  }
}

/** RGBA pixels (width*height*4 bytes) of frame `index` (0-based, in display order) of `file`. */
export async function decodeFrame(file: string, index: number, width: number, height: number): Promise<Uint8Array> {
  const args = ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${index})`, '-vsync', '0', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1']
  const { stdout } = await run(tools().ffmpeg, args, { encoding: 'buffer', maxBuffer: width * height * 4 + (1 << 20) })
  if (stdout.length !== width * height * 4) throw new Error(`frame ${index} of ${file}: expected ${width * height * 4} bytes of ${width}x${height} RGBA, got ${stdout.length}`)
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length)
}

// Walks the top-level MP4 boxes (32-bit size + type, size 1: 64-bit size follows, size 0: to the end).
async function moovBeforeMdat(file: string): Promise<boolean> {
  const fh = await open(file, 'r')
  try {
    const { size } = await fh.stat()
    const head = Buffer.alloc(16)
    for (let at = 0; at + 8 <= size; ) {
      await fh.read(head, 0, 16, at)
      const type = head.toString('latin1', 4, 8)
      if (type === 'moov') return true
      if (type === 'mdat') return false
      const small = head.readUInt32BE(0)
      const boxSize = small === 1 ? Number(head.readBigUInt64BE(8)) : small === 0 ? size - at : small
      if (boxSize < 8) throw new Error(`${file}: bad MP4 box size ${boxSize} at byte ${at}`)
      at += boxSize
    }
    throw new Error(`${file}: neither moov nor mdat among the top-level boxes`)
  } finally {
    await fh.close()
  }
}
