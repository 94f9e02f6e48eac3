// An MP4 encoder fed raw RGBA frames on ffmpeg's stdin. ffmpeg is spawned directly:
// fluent-ffmpeg leaves its input paused when ffmpeg dies, which hangs the pipeline.
//
// Failure model: whatever ends ffmpeg early (a non-zero exit, a signal, EPIPE on stdin, our
// AbortSignal, abort()) is turned into one error once the process has exited and the partial
// file is gone; every pending and later writeFrame/finish rejects with that error. stdin's
// 'error' event is always handled (EPIPE would otherwise crash the process). Output goes to
// `<file>.partial` and is renamed only after ffmpeg exits 0, so a torn MP4 never looks whole.
import { spawn } from 'node:child_process'
import { rm, stat } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'
import { installHint } from './ffmpeg.ts'
import { commitPartial, partialPath } from './partial-file.ts'

export interface VideoEncoderOptions {
  /** Path of the ffmpeg binary (see requireFfmpeg). */
  ffmpeg: string
  /** The MP4 to write; `<file>.partial` until ffmpeg has finished. */
  file: string
  /** Frame size in pixels; both even (yuv420p halves the chroma planes). */
  width: number
  height: number
  fps: number
  signal: AbortSignal
  /** x264 quality, 0 (lossless) to 51; default 23. */
  crf?: number
  /** x264 speed preset (ultrafast ... veryslow); default 'veryfast'. */
  preset?: string
}

export interface VideoEncoder {
  /** Writes one frame (exactly width*height*4 bytes); resolves once ffmpeg's stdin took it, so do not reuse the buffer before. */
  writeFrame(rgba: Uint8Array): Promise<void>
  /** Closes stdin, waits for ffmpeg to exit 0 and renames the partial output to `file`; calling it again returns the same result. */
  finish(): Promise<{ file: string; bytes: number; frames: number }>
  /** Kills ffmpeg, waits for it and removes the partial output; idempotent, never throws; call it in `finally` (after finish() it changes nothing). */
  abort(): Promise<void>
  /** Frames written so far. */
  readonly frames: number
  /** ffmpeg's process id (for tests and diagnostics); undefined when it could not start. */
  readonly pid: number | undefined
  /** Current size of the output so far, for size limits (0 before ffmpeg created it). */
  outputBytes(): Promise<number>
}

/** Bytes of ffmpeg's stderr kept for the error message (its tail says what went wrong). */
const STDERR_TAIL = 8192
/** How long ffmpeg may linger after breaking its stdin before it is killed. */
const EPIPE_GRACE_MS = 2000

/** Starts ffmpeg encoding H.264 MP4 into `o.file` from RGBA frames written to it. */
export function createVideoEncoder(o: VideoEncoderOptions): VideoEncoder {
  const opts = validateEncoderOptions(o)
  o.signal.throwIfAborted()
  const { file, signal } = opts
  const partial = partialPath(file)
  const frameBytes = opts.width * opts.height * 4
  const child = spawn(opts.ffmpeg, ffmpegArgs(opts, partial), { stdio: ['pipe', 'ignore', 'pipe'] })
  const stdin = child.stdin!

  let frames = 0
  let finishing = false
  let renamed = false
  let finished: Promise<{ file: string; bytes: number; frames: number }> | undefined
  let stderrTail = ''
  let stopReason: unknown // why we are ending ffmpeg ourselves (abort, broken stdin)
  let cause: unknown // the low-level error behind a failure (spawn error, EPIPE)
  let failure: unknown // set once ffmpeg has exited early and the partial file is gone
  let graceTimer: NodeJS.Timeout | undefined
  const waiters = new Set<(err: unknown) => void>()

  // stderr is drained as it comes (a full pipe would stall ffmpeg); only its tail is kept.
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderrTail = (stderrTail + d).slice(-STDERR_TAIL)
  })
  stdin.on('error', (err) => stop(undefined, err))
  child.on('error', (err) => {
    cause ??= err
    if (child.pid !== undefined) child.kill('SIGKILL')
  })
  const onAbort = () => stop(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })

  const exited = new Promise<{ ok: boolean }>((resolve) => {
    child.once('close', (code, sig) => {
      clearTimeout(graceTimer)
      signal.removeEventListener('abort', onAbort)
      if (code === 0 && finishing && stopReason === undefined && cause === undefined) return resolve({ ok: true })
      const err = stopReason ?? exitError(code, sig)
      // A cleanup failure is reported beside the error, never instead of it.
      rm(partial, { force: true }).then(
        () => settle(err),
        (rmErr) => settle(err, rmErr),
      )
      function settle(e: unknown, rmErr?: unknown) {
        if (rmErr && e instanceof PipelineError) e.context.cleanupError = String(rmErr)
        failure = e
        for (const reject of waiters) reject(e)
        waiters.clear()
        resolve({ ok: false })
      }
    })
  })

  // Ends ffmpeg on our side: SIGKILL now for an abort, after a grace period for a broken stdin
  // (ffmpeg usually exits by itself then, with a code and a message worth keeping).
  function stop(reason: unknown, err?: unknown) {
    if (reason !== undefined) stopReason ??= reason
    if (err !== undefined) cause ??= err
    stdin.destroy()
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
    if (reason !== undefined) child.kill('SIGKILL')
    else graceTimer ??= setTimeout(() => child.kill('SIGKILL'), EPIPE_GRACE_MS)
  }

  function exitError(code: number | null, sig: NodeJS.Signals | null): PipelineError {
    if (child.pid === undefined) {
      const why = (cause as NodeJS.ErrnoException | undefined)?.code ?? String(cause)
      return new PipelineError('E_FFMPEG_MISSING', `cannot start ffmpeg (${opts.ffmpeg}): ${why}. ${installHint()}`, { file }, { cause })
    }
    const how = sig ? `signal ${sig}` : code === 0 ? 'code 0 before the last frame was written' : `code ${code}`
    const tail = stderrTail.trim() || '(nothing on stderr)'
    return new PipelineError('E_FFMPEG', `ffmpeg exited with ${how} while encoding ${file}: ${tail}`, { file, exitCode: code, signal: sig }, { cause })
  }

  // Runs `work` unless the encoder has failed; rejects with the encoder's failure as soon as it is known.
  function guarded<T>(work: () => Promise<T>): Promise<T> {
    if (failure !== undefined) return Promise.reject(failure)
    return new Promise<T>((resolve, reject) => {
      waiters.add(reject)
      work().then(resolve, reject).finally(() => waiters.delete(reject))
    })
  }

  // Resolves when this frame's write callback fires: the frame is then in the pipe (not in the
  // stream's buffer), which is later than 'drain' for a lone write and, with several frames in
  // flight, lets each resolve in turn instead of all at the final 'drain'. A write error never
  // rejects here: the failure comes from the exit handler, with ffmpeg's own message.
  function write(rgba: Uint8Array): Promise<void> {
    return new Promise<void>((resolve) => {
      if (stopReason !== undefined || stdin.destroyed) return // the exit handler settles this call
      stdin.write(rgba, (err) => {
        if (!err) resolve()
      })
    })
  }

  return {
    get frames() {
      return frames
    },
    get pid() {
      return child.pid
    },
    writeFrame(rgba) {
      if (rgba.byteLength !== frameBytes) {
        return Promise.reject(
          new PipelineError('E_INTERNAL', `a ${opts.width}x${opts.height} RGBA frame for ${file} must be ${frameBytes} bytes, found ${rgba.byteLength}`, { file, expected: frameBytes, found: rgba.byteLength }),
        )
      }
      if (finishing && failure === undefined) return Promise.reject(new PipelineError('E_INTERNAL', `writeFrame after finish() for ${file}`, { file }))
      return guarded(async () => {
        await write(rgba)
        frames++
      })
    },
    finish() {
      finishing = true
      finished ??= guarded(async () => {
        if (frames === 0) stop(new PipelineError('E_FFMPEG', `no frames were written to ${file}; an MP4 needs at least one`, { file }))
        else stdin.end()
        const { ok } = await exited
        if (!ok) throw failure
        await commitPartial(file)
        renamed = true
        return { file, bytes: (await stat(file)).size, frames }
      })
      return finished
    },
    async abort() {
      // After ffmpeg has exited this changes nothing: stop() only kills a live process.
      stop(signal.aborted ? signal.reason : new DOMException(`encoding ${file} was aborted`, 'AbortError'))
      await exited
    },
    async outputBytes() {
      try {
        return (await stat(renamed ? file : partial)).size
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0
        throw err
      }
    },
  }
}

// Checks the options once, at the edge, so ffmpeg never sees a value it would misread.
function validateEncoderOptions(o: VideoEncoderOptions): Required<VideoEncoderOptions> {
  const bad = (field: string, expected: string, found: unknown) =>
    new PipelineError('E_CONFIG_VALUE', `video ${field} must be ${expected}, found ${JSON.stringify(found)}`, { file: o.file, field })
  for (const field of ['width', 'height'] as const) {
    const v = o[field]
    if (!Number.isInteger(v) || v < 2 || v > 16384) throw bad(field, 'an integer from 2 to 16384', v)
    if (v % 2 !== 0) throw bad(field, `even (H.264 with yuv420p needs even sizes; use ${v + 1} or ${v - 1})`, v)
  }
  if (!(Number.isFinite(o.fps) && o.fps > 0 && o.fps <= 1000)) throw bad('fps', 'a number above 0 and at most 1000', o.fps)
  const crf = o.crf ?? 23
  if (!(Number.isFinite(crf) && crf >= 0 && crf <= 51)) throw bad('crf', 'a number from 0 to 51', o.crf)
  const preset = o.preset ?? 'veryfast'
  if (!/^[a-z]+$/.test(preset)) throw bad('preset', 'an x264 preset name such as veryfast', o.preset)
  if (!o.file) throw bad('file', 'a path', o.file)
  return { ...o, crf, preset }
}

// Raw RGBA on stdin, H.264 yuv420p MP4 out; -f mp4 because the `.partial` name says nothing.
function ffmpegArgs(o: Required<VideoEncoderOptions>, output: string): string[] {
  return [
    '-hide_banner', '-loglevel', 'error',
    '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${o.width}x${o.height}`, '-r', String(o.fps), '-i', 'pipe:0',
    '-an', '-c:v', 'libx264', '-preset', o.preset, '-crf', String(o.crf), '-pix_fmt', 'yuv420p',
    '-movflags', '+faststart', '-f', 'mp4', '-y', output,
  ]
}
