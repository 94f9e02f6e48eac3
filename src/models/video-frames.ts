// A few frames of a rendered MP4 as PNGs, for a model shown video as images (the infer stage's
// `downsample` policy when a video has more frames than the model takes). ffmpeg is spawned
// directly, as by the video encoder (src/sinks/video-encoder.ts): no ffprobe, since the caller
// knows the video's frame count from its render item (`frames`), and the frames wanted are
// picked by number with ffmpeg's `select` filter. They come back on stdout as one PNG after the
// other (`-f image2pipe -vcodec png`) and are cut apart at each PNG's IEND chunk. Memory is
// bounded: at most the frames asked for are kept, each at most MAX_PNG_BYTES, and ffmpeg stops
// after the last one (`-frames:v`).
import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { installHint, requireFfmpeg } from '../sinks/ffmpeg.ts'

export interface SampleFramesOptions {
  /** How many frames to return; all of them when the video has no more. */
  count: number
  /** Frames in the video (its render item's `frames`). */
  frames: number
  signal?: AbortSignal
  /** Scale each frame to this width in pixels, keeping the aspect ratio; default: as encoded. */
  width?: number
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** Largest PNG accepted for one frame (an 8K RGBA frame uncompressed is 133 MB). */
const MAX_PNG_BYTES = 256 << 20
/** Bytes of ffmpeg's stderr kept for the error message. */
const STDERR_TAIL = 8192

/** Frame numbers of `count` frames spread evenly over `frames`, first and last included; every frame when count >= frames. */
export function spreadFrames(count: number, frames: number): number[] {
  if (count >= frames) return Array.from({ length: frames }, (_, i) => i)
  if (count === 1) return [0]
  return Array.from({ length: count }, (_, i) => Math.round((i * (frames - 1)) / (count - 1)))
}

/** `count` frames of the MP4 `file`, spread evenly from its first frame to its last (spreadFrames), as PNG buffers in order. */
export async function sampleVideoFrames(file: string, opts: SampleFramesOptions): Promise<Buffer[]> {
  const { count, frames, signal, width } = opts
  const bad = (field: string, found: unknown) => new PipelineError('E_CONFIG_VALUE', `video frames: ${field} must be a whole number above 0, found ${JSON.stringify(found)}`, { file, field })
  for (const [field, v] of [['count', count], ['frames', frames], ['width', width ?? 1]] as const) if (!Number.isInteger(v) || v < 1) throw bad(field, v)
  signal?.throwIfAborted()
  const found = await stat(file).catch((err: NodeJS.ErrnoException) => err)
  if (found instanceof Error || !found.isFile()) {
    throw new PipelineError('E_FILE_MISSING', `the video ${file} ${!(found instanceof Error) ? 'is not a file' : found.code === 'ENOENT' ? 'does not exist' : `cannot be read (${found.code})`}; render it first (render-video) or name the MP4 a render item points to`, { file }, found instanceof Error ? { cause: found } : undefined)
  }
  const ffmpeg = requireFfmpeg('video frames for a model')
  const picked = spreadFrames(count, frames)
  const select = `select=${picked.map((n) => `eq(n\\,${n})`).join('+')}${width ? `,scale=${width}:-1` : ''}`
  // -vsync 0 (passthrough; -fps_mode from ffmpeg 5.1 on, which 4.x lacks): image2pipe is
  // constant-rate by default and would repeat frame 0 to fill the gap to the next one picked.
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', `file:${path.resolve(file)}`, '-vf', select, '-vsync', '0', '-frames:v', String(picked.length), '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1']
  const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' })
  const pngs: Buffer[] = []
  const splitter = createPngSplitter(file)
  let stderrTail = ''
  let failure: unknown
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderrTail = (stderrTail + d).slice(-STDERR_TAIL)
  })
  let spawnError: Error | undefined
  child.on('error', (err) => {
    spawnError ??= err // a failure to start, or the abort (the child is killed by spawn's signal)
  })
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])))
  try {
    for await (const chunk of child.stdout) {
      for (const png of splitter.push(chunk as Buffer)) {
        if (pngs.length === picked.length) throw new PipelineError('E_FFMPEG', `ffmpeg gave more than the ${picked.length} frames asked for from ${file}`, { file })
        pngs.push(png)
      }
    }
  } catch (err) {
    failure = err
    child.kill('SIGKILL')
  }
  const [code, sig] = await closed
  if (signal?.aborted) throw signal.reason
  if (child.pid === undefined) throw new PipelineError('E_FFMPEG_MISSING', `cannot start ffmpeg (${ffmpeg}): ${(spawnError as NodeJS.ErrnoException | undefined)?.code ?? spawnError}. ${installHint()}`, { file }, { cause: spawnError })
  if (failure !== undefined) throw failure
  if (code !== 0) {
    const how = sig ? `signal ${sig}` : `code ${code}`
    throw new PipelineError('E_FFMPEG', `ffmpeg exited with ${how} while taking frames from ${file}: ${stderrTail.trim() || '(nothing on stderr)'}`, { file, exitCode: code, signal: sig }, { cause: spawnError })
  }
  if (splitter.pending() > 0) throw new PipelineError('E_FFMPEG', `ffmpeg's output for ${file} ends inside a PNG (${splitter.pending()} bytes after the last whole one)`, { file })
  if (pngs.length !== picked.length) {
    throw new PipelineError('E_FFMPEG', `ffmpeg gave ${pngs.length} of the ${picked.length} frames picked from ${file} (up to frame ${picked.at(-1)}, for ${frames} frames), so the video has fewer frames than that; pass its own frame count (its render item's "frames")`, { file, expected: picked.length, found: pngs.length })
  }
  return pngs
}

/** Cuts a stream of PNGs apart at their IEND chunks; holds at most one unfinished PNG. */
function createPngSplitter(file: string): { push(chunk: Buffer): Buffer[]; pending(): number } {
  let acc = Buffer.alloc(0)
  let length = 0
  let at = 8 // where the next chunk starts in the PNG being read
  return {
    pending: () => length,
    push(chunk) {
      if (length + chunk.length > acc.length) {
        if (length + chunk.length > MAX_PNG_BYTES) throw new PipelineError('E_FFMPEG', `a frame of ${file} is over ${MAX_PNG_BYTES >> 20} MB as PNG; ask for a smaller width`, { file })
        const grown = Buffer.allocUnsafe(Math.min(MAX_PNG_BYTES, Math.max(length + chunk.length, 2 * acc.length, 1 << 16)))
        acc.copy(grown, 0, 0, length)
        acc = grown
      }
      chunk.copy(acc, length)
      length += chunk.length
      const done: Buffer[] = []
      while (length >= 8 && at + 8 <= length) {
        if (!acc.subarray(0, 8).equals(SIGNATURE)) throw new PipelineError('E_FFMPEG', `ffmpeg's output for ${file} is not a stream of PNGs (no PNG signature at a frame's start)`, { file })
        const end = at + 12 + acc.readUInt32BE(at)
        if (end > length) break
        const iend = acc.toString('latin1', at + 4, at + 8) === 'IEND'
        at = end
        if (!iend) continue
        done.push(Buffer.from(acc.subarray(0, end)))
        acc.copy(acc, 0, end, length)
        length -= end
        at = 8
      }
      return done
    },
  }
}
