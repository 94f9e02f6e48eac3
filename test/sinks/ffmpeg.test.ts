import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { checkFfmpeg, checkFfmpegOnce, findFfmpeg, requireFfmpeg } from '../../src/sinks/ffmpeg.ts'
import { createRunServices } from '../../src/run/run-services.ts'
import { ffmpegTools, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { rejection, thrown } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

/** A shell script standing in for ffmpeg (or ffprobe) in `dir`. */
function fakeTool(dir: string, name: string, body: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, name)
  writeFileSync(file, `#!/bin/sh\n${body}\n`)
  chmodSync(file, mode)
  return file
}

const signal = new AbortController().signal

describe('findFfmpeg / requireFfmpeg', () => {
  it('with an empty PATH and no FFMPEG_PATH, says who needs ffmpeg and how to install it or turn video off', () => {
    expect(findFfmpeg({ PATH: '' })).toBeNull()
    const err = thrown(() => requireFfmpeg('stage render-video', { PATH: '' }))
    expect(err.code).toBe('E_FFMPEG_MISSING')
    for (const part of ['ffmpeg is needed by stage render-video', 'no ffmpeg was found on PATH', 'sudo apt-get install -y ffmpeg', 'brew install ffmpeg', 'FFMPEG_PATH', 'remove the render-video stage']) {
      expect(err.message).toContain(part)
    }
  })

  it('FFMPEG_PATH that is not executable or missing is named in the message, and PATH is not used instead', () => {
    const dir = tmpDir()
    const plain = fakeTool(dir, 'ffmpeg', 'exit 0', 0o644)
    fakeTool(path.join(dir, 'bin'), 'ffmpeg', 'exit 0')
    const env = { PATH: path.join(dir, 'bin'), FFMPEG_PATH: plain }
    expect(findFfmpeg(env)).toBeNull()
    expect(thrown(() => requireFfmpeg('stage render-video', env)).message).toContain(`FFMPEG_PATH is set to "${plain}", which is not executable`)
    expect(thrown(() => requireFfmpeg('x', { FFMPEG_PATH: path.join(dir, 'nope') })).message).toMatch(/which does not exist\. Install ffmpeg/)
    expect(thrown(() => requireFfmpeg('x', { FFMPEG_PATH: dir })).message).toContain('which is not a file')
  })

  it('searches PATH in order, and finds ffprobe beside FFMPEG_PATH, on PATH or at FFPROBE_PATH', () => {
    const dir = tmpDir()
    const a = path.join(dir, 'a')
    const b = path.join(dir, 'b')
    mkdirSync(a)
    const ffmpegB = fakeTool(b, 'ffmpeg', 'exit 0')
    const probeB = fakeTool(b, 'ffprobe', 'exit 0')
    expect(findFfmpeg({ PATH: [a, b].join(path.delimiter) })).toEqual({ ffmpeg: ffmpegB, ffprobe: probeB })
    const own = fakeTool(path.join(dir, 'own'), 'ffmpeg', 'exit 0')
    expect(findFfmpeg({ PATH: b, FFMPEG_PATH: own })).toEqual({ ffmpeg: own, ffprobe: probeB })
    expect(findFfmpeg({ PATH: '', FFMPEG_PATH: own })).toEqual({ ffmpeg: own, ffprobe: null })
    const probeOwn = fakeTool(path.join(dir, 'own'), 'ffprobe', 'exit 0')
    expect(findFfmpeg({ PATH: b, FFMPEG_PATH: own })?.ffprobe).toBe(probeOwn)
    expect(findFfmpeg({ PATH: b, FFMPEG_PATH: own, FFPROBE_PATH: probeB })?.ffprobe).toBe(probeB)
    expect(requireFfmpeg('x', { PATH: b })).toBe(ffmpegB)
  })
})

describe('checkFfmpeg', () => {
  const dir = tmpDir()

  it('checkFfmpegOnce runs the check once per run for a binary that passed, and again once the binary changes or after a failure', async () => {
    const once = createRunServices({ cacheDir: null }).once
    const log = path.join(dir, 'once.log')
    const body = (encoder: string) => `echo "$2" >> ${log}; case "$2" in -version) echo "ffmpeg version 9.9-fake";; *) echo " V..... ${encoder}  fake";; esac`
    const bin = fakeTool(path.join(dir, 'once'), 'ffmpeg', body('mpeg4'))
    const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0)
    await expect(checkFfmpegOnce(bin, signal, once)).rejects.toThrow(/lists no libx264/)
    await expect(checkFfmpegOnce(bin, signal, once)).rejects.toThrow(/lists no libx264/) // a failure is not kept
    expect(calls()).toBe(4)
    fakeTool(path.join(dir, 'once'), 'ffmpeg', body('libx264') + ' # a longer file: another size')
    expect(await checkFfmpegOnce(bin, signal, once)).toEqual({ version: 'ffmpeg version 9.9-fake' })
    expect(await checkFfmpegOnce(bin, signal, once)).toEqual({ version: 'ffmpeg version 9.9-fake' })
    expect(calls()).toBe(6)
  })

  it('refuses an ffmpeg without libx264, naming the encoder', async () => {
    const noX264 = fakeTool(path.join(dir, 'no264'), 'ffmpeg', 'case "$2" in -version) echo "ffmpeg version 0.0-fake";; *) echo " V..... mpeg4  MPEG-4 part 2";; esac')
    const err = await rejection(checkFfmpeg(noX264, signal, { what: 'stage render-video' }))
    expect((err as PipelineError).code).toBe('E_FFMPEG_MISSING')
    expect(err.message).toMatch(/ffmpeg with the libx264 encoder is needed by stage render-video, but .*0\.0-fake.* lists no libx264/)
    expect(err.message).toContain('apt-get install -y ffmpeg')
  })

  it('refuses an ffmpeg that fails to run, with its stderr', async () => {
    const broken = fakeTool(path.join(dir, 'broken'), 'ffmpeg', 'echo "error while loading shared libraries: libavdevice.so.59" >&2; exit 127')
    const err = await rejection(checkFfmpeg(broken, signal))
    expect((err as PipelineError).code).toBe('E_FFMPEG_MISSING')
    expect(err.message).toContain('libavdevice.so.59')
  })

  it('refuses an ffmpeg that hangs, after the timeout, and keeps the caller\'s abort an abort', async () => {
    const hangs = fakeTool(path.join(dir, 'hangs'), 'ffmpeg', 'exec sleep 30')
    const err = await rejection(checkFfmpeg(hangs, signal, { timeoutMs: 200 }))
    expect(err.message).toContain('did not answer within 200 ms')
    const ac = new AbortController()
    const pending = checkFfmpeg(hangs, ac.signal)
    setTimeout(() => ac.abort(), 50)
    expect((await rejection(pending)).name).toBe('AbortError')
  })

  it.skipIf(skipWithoutFfmpeg())('accepts the installed ffmpeg and returns its version line', async () => {
    const tools = ffmpegTools()
    expect(tools).not.toBeNull()
    expect((await checkFfmpeg(tools!.ffmpeg, signal)).version).toMatch(/^ffmpeg version /)
  })
})
