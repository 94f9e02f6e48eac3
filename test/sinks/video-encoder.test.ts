// The encoder against a real ffmpeg. Waits are on events (a write's promise, an fs.watch change,
// the rejection that comes only once ffmpeg has exited); a condition is polled only where this
// process gets no event (ffmpeg stopped by SIGSTOP), and timeouts are hang guards.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { isProcessAlive } from '../../src/run/process-alive.ts'
import { requireFfmpeg } from '../../src/sinks/ffmpeg.ts'
import { createVideoEncoder, type VideoEncoder, type VideoEncoderOptions } from '../../src/sinks/video-encoder.ts'
import { decodeFrame, probeVideo, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { waitUntil, watchUntil } from '../helpers/child.ts'
import { rejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const W = 320
const H = 240
const COLORS = [[230, 40, 40], [40, 200, 60], [50, 80, 220], [240, 220, 50], [30, 30, 30], [250, 250, 250], [200, 60, 200], [40, 200, 210]]

/** Vertical colour bars, 40 px wide, moved right by 4 px per frame. */
function bars(frame: number, width = W, height = H): Uint8Array {
  const rgba = new Uint8Array(width * height * 4)
  for (let x = 0; x < width; x++) {
    const [r, g, b] = COLORS[Math.floor((x + 4 * frame) / 40) % COLORS.length]
    for (let y = 0; y < height; y++) rgba.set([r, g, b, 255], (y * width + x) * 4)
  }
  return rgba
}

/** Mean absolute difference of the R, G and B channels. */
function meanAbsError(a: Uint8Array, b: Uint8Array): number[] {
  const sum = [0, 0, 0]
  for (let i = 0; i < a.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += Math.abs(a[i + c] - b[i + c])
  return sum.map((s) => s / (a.length / 4))
}


/** Writes frames until one is refused (ffmpeg may take a few before it fails), at most `max`. */
async function writeUntilRejected(enc: VideoEncoder, max = 200): Promise<Error> {
  for (let i = 0; i < max; i++) {
    const err = await enc.writeFrame(bars(i)).then(() => null, (e: Error) => e)
    if (err) return err
  }
  throw new Error(`all ${max} frames were accepted`)
}

/** Whether process `pid` is stopped (state T): /proc on Linux, else ps. */
function isStopped(pid: number): boolean {
  const proc = `/proc/${pid}/stat`
  const state = existsSync(proc) ? readFileSync(proc, 'utf8').replace(/^.*\) /s, '')[0] : execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim()[0]
  return state === 'T'
}

/** Stops ffmpeg and returns once it is stopped (SIGSTOP raises no event here: polled). */
async function stopProcess(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP')
  await waitUntil(() => isStopped(pid), `ffmpeg (pid ${pid}) to be stopped by SIGSTOP`, { timeoutMs: 10_000 })
}

/** `p`, or a failure saying what did not happen within `ms` (a hang guard, not a speed test). */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([p, guard])
  } finally {
    clearTimeout(timer)
  }
}

function setup(over: Partial<VideoEncoderOptions> = {}) {
  const dir = tmpDir('hp-video-')
  const file = path.join(dir, 'out.mp4')
  const ac = new AbortController()
  const enc = createVideoEncoder({ ffmpeg: requireFfmpeg('the video encoder tests'), file, width: W, height: H, fps: 10, signal: ac.signal, ...over })
  return { dir, file, ac, enc }
}

describe('video encoder options (no ffmpeg needed)', () => {
  const base = { ffmpeg: '/usr/bin/ffmpeg', file: '/tmp/x.mp4', width: W, height: H, fps: 10, signal: new AbortController().signal }

  it('rejects odd sizes and bad numbers before starting ffmpeg, saying what to use', () => {
    expect(() => createVideoEncoder({ ...base, width: 321 })).toThrow(/width must be even .*use 322 or 320/)
    expect(() => createVideoEncoder({ ...base, height: 0 })).toThrow(/height must be an integer/)
    expect(() => createVideoEncoder({ ...base, fps: 0 })).toThrow(/fps must be/)
    expect(() => createVideoEncoder({ ...base, crf: 60 })).toThrow(/crf must be a number from 0 to 51/)
  })

  it('a missing ffmpeg binary fails writes and finish with E_FFMPEG_MISSING and the install hint', async () => {
    const enc = createVideoEncoder({ ...base, file: path.join(tmpDir(), 'x.mp4'), ffmpeg: '/nonexistent/ffmpeg' })
    const err = await rejection(enc.writeFrame(bars(0)))
    expect(err).toBeInstanceOf(PipelineError)
    expect((err as PipelineError).code).toBe('E_FFMPEG_MISSING')
    expect(err.message).toMatch(/ENOENT.*apt-get install -y ffmpeg/)
    expect(await rejection(enc.finish())).toBe(err)
  })
})

describe.skipIf(skipWithoutFfmpeg())('video encoder (ffmpeg)', () => {
  it('encodes 30 frames into a faststart H.264 MP4 that decodes back to what was written', async () => {
    const { dir, file, enc } = setup()
    const written = Array.from({ length: 30 }, (_, i) => bars(i))
    for (const f of written) await enc.writeFrame(f)
    expect(enc.frames).toBe(30)
    // The partial file grows while encoding: ffmpeg writes when x264 hands out packets, which
    // the folder's change events tell (fs.watch).
    await watchUntil(dir, async () => (await enc.outputBytes()) > 0, `ffmpeg to write into ${file}.partial`)
    expect(await enc.outputBytes()).toBeGreaterThan(0)
    const done = await enc.finish()
    expect(done).toEqual({ file, bytes: statSync(file).size, frames: 30 })
    expect(await enc.finish()).toEqual(done)
    expect(await enc.outputBytes()).toBe(done.bytes)
    await enc.abort() // after finish: changes nothing
    expect(existsSync(file)).toBe(true)
    expect(existsSync(`${file}.partial`)).toBe(false)
    const probe = await probeVideo(file)
    expect(probe).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: W, height: H, frames: 30, faststart: true })
    expect(probe.durationSec).toBeCloseTo(3, 1)
    const back = await decodeFrame(file, 17, W, H)
    const mae = meanAbsError(written[17], back)
    for (const e of mae) expect(e).toBeLessThan(4)
    // A different frame is far off: the decoded frame is really frame 17.
    expect(Math.max(...meanAbsError(written[5], back))).toBeGreaterThan(20)
  })

  it('resolves writes in order, counting frames, with many in flight', async () => {
    const { enc } = setup({ width: 1300, height: 400 })
    const order: number[] = []
    const counts: number[] = []
    const writes = Array.from({ length: 20 }, (_, i) =>
      enc.writeFrame(bars(i, 1300, 400)).then(() => {
        order.push(i)
        counts.push(enc.frames)
      }),
    )
    await Promise.all(writes)
    expect(order).toEqual([...Array(20).keys()])
    // Buffered frames go out in one batch (writev), so several may resolve together; a resolved frame is always counted.
    counts.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(i + 1))
    expect(counts.at(-1)).toBe(20)
    expect((await enc.finish()).frames).toBe(20)
  })

  it('a write waits while ffmpeg does not read (backpressure), and goes on when it does', async () => {
    const { enc } = setup({ width: 1300, height: 400 })
    await enc.writeFrame(bars(0, 1300, 400))
    const pid = enc.pid!
    await stopProcess(pid)
    try {
      let resolved = false
      const next = enc.writeFrame(bars(1, 1300, 400)).then(() => (resolved = true))
      // No wait could let this write resolve: ffmpeg reads nothing while stopped and a 2 MB frame
      // does not fit in the pipe (64 KB). One turn of the event loop, its I/O phase included, is
      // what a write that resolved without ffmpeg taking the frame would need to show.
      await new Promise((r) => setImmediate(r))
      expect(resolved).toBe(false)
      expect(enc.frames).toBe(1)
      process.kill(pid, 'SIGCONT')
      await next
      expect(enc.frames).toBe(2)
    } finally {
      process.kill(pid, 'SIGCONT')
    }
    expect((await enc.finish()).frames).toBe(2)
  })

  it('killing ffmpeg mid-stream rejects the next write and finish with E_FFMPEG naming the signal, and cleans up', async () => {
    const { dir, file, enc } = setup()
    for (let i = 0; i < 5; i++) await enc.writeFrame(bars(i))
    const pid = enc.pid!
    process.kill(pid, 'SIGKILL')
    const err = await writeUntilRejected(enc)
    expect(err).toBeInstanceOf(PipelineError)
    expect((err as PipelineError).code).toBe('E_FFMPEG')
    expect(err.message).toContain(`ffmpeg exited with signal SIGKILL while encoding ${file}`)
    expect(await rejection(enc.finish())).toBe(err)
    expect(await rejection(enc.writeFrame(bars(0)))).toBe(err)
    expect(readdirSync(dir)).toEqual([])
    expect(() => process.kill(pid, 0)).toThrow()
    await enc.abort() // still safe afterwards
  })

  it('an option ffmpeg refuses (preset "nonsense") rejects with ffmpeg\'s own message', async () => {
    const { dir, enc } = setup({ preset: 'nonsense' })
    const err = await writeUntilRejected(enc)
    expect((err as PipelineError).code).toBe('E_FFMPEG')
    expect(err.message).toMatch(/exited with code 1 .*invalid preset 'nonsense'/s)
    expect(await rejection(enc.finish())).toBe(err)
    expect(readdirSync(dir)).toEqual([])
  })

  it('aborting the signal kills ffmpeg (SIGKILL: even a stopped ffmpeg goes) and rejects pending and later calls with the abort reason', async () => {
    const { dir, ac, enc } = setup()
    await enc.writeFrame(bars(0))
    const pid = enc.pid!
    // A stopped ffmpeg cannot end by itself when its stdin closes, nor on SIGTERM: only SIGKILL
    // ends it, so the abort is shown to kill instead of waiting for ffmpeg to finish.
    await stopProcess(pid)
    let reaped = false
    try {
      const pending = enc.writeFrame(bars(1)) // 300 KB: stuck in the pipe while ffmpeg is stopped
      ac.abort()
      const err = await within(rejection(pending.then(() => enc.writeFrame(bars(2)))), 10_000, 'the abort ending a stopped ffmpeg')
      expect(err.name).toBe('AbortError')
      expect(await rejection(enc.finish())).toBe(err)
      // The calls reject only once ffmpeg has exited and been reaped, and the partial file is gone.
      expect(isProcessAlive(pid)).toBe(false)
      reaped = true
      expect(readdirSync(dir)).toEqual([])
    } finally {
      if (!reaped && isProcessAlive(pid)) process.kill(pid, 'SIGKILL')
    }
  })

  it('abort() kills ffmpeg, removes the partial file, is idempotent and never throws', async () => {
    const { dir, enc } = setup()
    for (let i = 0; i < 3; i++) await enc.writeFrame(bars(i))
    const pid = enc.pid!
    await Promise.all([enc.abort(), enc.abort()])
    await enc.abort()
    expect(isProcessAlive(pid)).toBe(false)
    expect(readdirSync(dir)).toEqual([])
    expect((await rejection(enc.finish())).name).toBe('AbortError')
  })

  it('a frame of the wrong size is refused naming expected and found bytes, and the encoder goes on', async () => {
    const { enc } = setup()
    const err = await rejection(enc.writeFrame(new Uint8Array(100)))
    expect(err).toBeInstanceOf(PipelineError)
    expect(err.message).toContain(`must be ${W * H * 4} bytes, found 100`)
    await enc.writeFrame(bars(0))
    expect((await enc.finish()).frames).toBe(1)
  })

  it('finish() without any frame fails instead of leaving an empty MP4', async () => {
    const { dir, enc } = setup()
    expect((await rejection(enc.finish())).message).toMatch(/no frames were written/)
    expect(readdirSync(dir)).toEqual([])
  })
})
