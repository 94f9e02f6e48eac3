// Frames of an MP4 as PNGs, against a real ffmpeg (a 4 s testsrc video of 20 frames made here),
// and against a stand-in ffmpeg (a shell script) for abort and exit codes.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { sampleVideoFrames, spreadFrames } from '../../src/models/video-frames.ts'
import { isProcessAlive } from '../../src/run/process-alive.ts'
import { findFfmpeg } from '../../src/sinks/ffmpeg.ts'
import { watchUntil } from '../helpers/child.ts'
import { decodeFrame, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { pipelineRejection, rejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Width and height from a PNG's IHDR, after checking the signature, IHDR first and IEND last. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG)).toBe(true)
  expect(png.toString('latin1', 12, 16)).toBe('IHDR')
  expect(png.toString('latin1', png.length - 8, png.length - 4)).toBe('IEND')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/** RGBA pixels of a PNG, decoded by ffmpeg. */
const rgbaOf = (png: Buffer): Buffer => execFileSync(findFfmpeg()!.ffmpeg, ['-v', 'error', '-f', 'png_pipe', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1'], { input: png })

const meanAbsDiff = (a: Uint8Array, b: Uint8Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length

describe('spreadFrames', () => {
  it('spreads the frames evenly from the first to the last, and gives every frame when asked for more', () => {
    expect(spreadFrames(5, 20)).toEqual([0, 5, 10, 14, 19])
    expect(spreadFrames(1, 20)).toEqual([0])
    expect(spreadFrames(2, 3)).toEqual([0, 2])
    expect(spreadFrames(3, 3)).toEqual([0, 1, 2])
    expect(spreadFrames(50, 4)).toEqual([0, 1, 2, 3])
  })
})

describe.skipIf(skipWithoutFfmpeg())('sampleVideoFrames with ffmpeg', () => {
  const dir = tmpDir('hp-frames-')
  const video = path.join(dir, 'testsrc.mp4')
  beforeAll(() => {
    const args = ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=5', '-t', '4', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', video]
    execFileSync(findFfmpeg()!.ffmpeg, args)
  })

  it('returns `count` PNGs of the picked frames, first and last included, each different', async () => {
    const pngs = await sampleVideoFrames(video, { count: 5, frames: 20 })
    expect(pngs).toHaveLength(5)
    for (const png of pngs) expect(pngSize(png)).toEqual({ width: 160, height: 120 })
    expect(new Set(pngs.map((p) => p.toString('base64'))).size).toBe(5)
    // Each is the frame spreadFrames picks, as ffmpeg decodes it on its own.
    const picked = spreadFrames(5, 20)
    for (let i = 0; i < pngs.length; i++) {
      const want = await decodeFrame(video, picked[i], 160, 120)
      expect(meanAbsDiff(rgbaOf(pngs[i]), want), `frame ${picked[i]}`).toBeLessThan(1)
      if (i > 0) expect(meanAbsDiff(rgbaOf(pngs[i]), await decodeFrame(video, picked[i] - 1, 160, 120)), `frame ${picked[i]} - 1`).toBeGreaterThan(1)
    }
  })

  it('gives all frames when asked for more than there are, and scales to `width`', async () => {
    const all = await sampleVideoFrames(video, { count: 50, frames: 20 })
    expect(all).toHaveLength(20)
    expect(new Set(all.map((p) => p.toString('base64'))).size).toBe(20)
    const small = await sampleVideoFrames(video, { count: 2, frames: 20, width: 80 })
    expect(small.map(pngSize)).toEqual([{ width: 80, height: 60 }, { width: 80, height: 60 }])
  })

  it('says when the video has fewer frames than the caller said', async () => {
    const err = await pipelineRejection(sampleVideoFrames(video, { count: 3, frames: 40 }))
    expect(err.code).toBe('E_FFMPEG')
    // Frames 0, 20 and 39 are picked; the video has 0 to 19.
    expect(err.message).toMatch(/ffmpeg gave 1 of the 3 frames picked from .*testsrc\.mp4 \(up to frame 39, for 40 frames\)/)
  })

  it('keeps the tail of ffmpeg\'s stderr when it fails', async () => {
    const notVideo = path.join(dir, 'not-a-video.mp4')
    writeFileSync(notVideo, 'this is text, not an MP4\n')
    const err = await pipelineRejection(sampleVideoFrames(notVideo, { count: 2, frames: 10 }))
    expect(err.code).toBe('E_FFMPEG')
    expect(err.message).toContain(notVideo)
    expect(err.message).toMatch(/exited with code [1-9]\d*.*Invalid data found/s)
  })
})

describe('sampleVideoFrames without a working video', () => {
  const dir = tmpDir('hp-frames-fake-')
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  /** A stand-in ffmpeg: writes its pid to `pid` (atomically) and then runs `then`. */
  function fakeFfmpeg(name: string, then: string): { pidFile: string } {
    const script = path.join(dir, name)
    const pidFile = path.join(dir, `${name}.pid`)
    writeFileSync(script, `#!/bin/sh\necho $$ > "${pidFile}.tmp" && mv "${pidFile}.tmp" "${pidFile}"\n${then}\n`)
    chmodSync(script, 0o755)
    vi.stubEnv('FFMPEG_PATH', script)
    return { pidFile }
  }
  const anyFile = () => {
    const f = path.join(dir, 'any.mp4')
    writeFileSync(f, 'x')
    return f
  }

  it('names a missing file', async () => {
    const missing = path.join(dir, 'nope.mp4')
    const err = await pipelineRejection(sampleVideoFrames(missing, { count: 2, frames: 10 }))
    expect(err.code).toBe('E_FILE_MISSING')
    expect(err.message).toContain(`${missing} does not exist`)
    expect(err.context.file).toBe(missing)
  })

  it('kills ffmpeg on abort and rejects with the abort reason', async () => {
    const { pidFile } = fakeFfmpeg('sleepy', 'exec sleep 30')
    const ac = new AbortController()
    const done = rejection(sampleVideoFrames(anyFile(), { count: 2, frames: 10, signal: ac.signal }))
    await watchUntil(dir, () => existsSync(pidFile), 'the stand-in ffmpeg to start')
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(isProcessAlive(pid)).toBe(true)
    const reason = new DOMException('stop', 'AbortError')
    ac.abort(reason)
    expect(await done).toBe(reason)
    expect(isProcessAlive(pid)).toBe(false)
    // An already aborted signal starts nothing.
    expect(await rejection(sampleVideoFrames(anyFile(), { count: 2, frames: 10, signal: ac.signal }))).toBe(reason)
  })

  it('rejects with E_FFMPEG keeping the end of stderr on a non-zero exit, and on output that is not PNG', async () => {
    fakeFfmpeg('failing', `i=0; while [ $i -lt 1000 ]; do echo "noise line $i" >&2; i=$((i+1)); done; echo 'the real reason' >&2; exit 3`)
    const err = await pipelineRejection(sampleVideoFrames(anyFile(), { count: 2, frames: 10 }))
    expect(err.code).toBe('E_FFMPEG')
    expect(err.context.exitCode).toBe(3)
    expect(err.message).toMatch(/exited with code 3 while taking frames from .*any\.mp4: .*noise line 999\nthe real reason$/s)
    expect(err.message).not.toContain('noise line 0\n')
    fakeFfmpeg('garbage', 'head -c 100 /dev/zero')
    const garbage = await pipelineRejection(sampleVideoFrames(anyFile(), { count: 2, frames: 10 }))
    expect(garbage).toBeInstanceOf(PipelineError)
    expect(garbage.message).toMatch(/not a stream of PNGs/)
  })

  it('says when ffmpeg cannot start', async () => {
    const script = path.join(dir, 'no-interpreter')
    writeFileSync(script, '#!/nonexistent/interpreter\n')
    chmodSync(script, 0o755)
    vi.stubEnv('FFMPEG_PATH', script)
    const err = await pipelineRejection(sampleVideoFrames(anyFile(), { count: 2, frames: 10 }))
    expect(err.code).toBe('E_FFMPEG_MISSING')
    expect(err.message).toMatch(/cannot start ffmpeg \(.*no-interpreter\): ENOENT/)
  })

  it('checks its options', async () => {
    for (const bad of [{ count: 0, frames: 10 }, { count: 2, frames: 1.5 }, { count: 2, frames: 10, width: -1 }]) {
      expect((await pipelineRejection(sampleVideoFrames(anyFile(), bad))).code).toBe('E_CONFIG_VALUE')
    }
  })
})
