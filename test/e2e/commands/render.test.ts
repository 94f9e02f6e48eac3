// `pipeline render`: one recording to text, strips and a video without a dataset file, through
// the stages a dataset would use; usage errors before anything is read; output folders made.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodePng } from '../../../src/render/png.ts'
import { runCli } from '../../helpers/child.ts'
import { probeVideo, skipWithoutFfmpeg } from '../../helpers/ffprobe.ts'
import { tmpDir } from '../../helpers/tmp.ts'

const HAVE = !skipWithoutFfmpeg() // skips (with a warning) without ffmpeg and ffprobe, except under CI

describe('pipeline render', () => {
  it.runIf(HAVE)('writes the text, a strip per window and a video of record 208 with the windows asked for', async () => {
    const dir = tmpDir('render-cmd-')
    const r = await runCli(['render', 'samples/mitdb/208', '--text', path.join(dir, '208.txt'), '--strips', path.join(dir, 'strips'), '--video', path.join(dir, '208.mp4'), '--window', '20', '--step', '30'])
    expect(r.code, r.stderr).toBe(0)
    // 1805 s of signal: windows of 20 s every 30 s start at 0..1770 s (60 of them).
    expect(r.stderr).toContain('text: ' + path.join(dir, '208.txt') + ', 60 windows')
    const lines = readFileSync(path.join(dir, '208.txt'), 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(60) // lead 0 only, a line per window
    expect(lines[1]).toMatch(/^MLII 00:00:30\.000 360Hz: /)
    expect(lines[1].split(': ')[1].split(',')).toHaveLength(20 * 360)
    const strips = readdirSync(path.join(dir, 'strips')).sort()
    expect(strips).toHaveLength(60)
    expect(strips[0]).toBe('w000000.png')
    const png = decodePng(readFileSync(path.join(dir, 'strips', strips[0])))
    expect(png.width).toBeGreaterThan(2400) // 20 s at 25 mm/s and 5 px/mm
    const probe = await probeVideo(path.join(dir, '208.mp4'))
    expect(probe).toMatchObject({ frames: 60, codec: 'h264', width: png.width, height: png.height })
  }, 120_000)

  it('says what to render, and refuses a video name that is not .mp4', async () => {
    const none = await runCli(['render', 'samples/mitdb/100'])
    expect(none.code).not.toBe(0)
    expect(none.stderr).toContain('say what to render: --text FILE, --strips DIR and/or --video FILE.mp4')
    const avi = await runCli(['render', 'samples/mitdb/100', '--video', 'out.avi'])
    expect(avi.code).not.toBe(0)
    expect(avi.stderr).toContain('give a name ending in .mp4')
  }, 60_000)

  // One window (at 0 s: the next would start at 1800 s and end past the 1805 s record), fast.
  const one = ['--window', '10', '--step', '1800', '--raw', '--no-beats']

  it('makes the missing folders of --text and --strips; E_IO when a file is in the way, E_USAGE for --strips naming a file', async () => {
    const dir = tmpDir('render-dirs-')
    const text = path.join(dir, 'a', 'b', 'x.txt')
    const made = await runCli(['render', 'samples/mitdb/100', '--text', text, '--strips', path.join(dir, 'c', 'strips'), ...one])
    expect(made.code, made.stderr).toBe(0)
    expect(readFileSync(text, 'utf8').trimEnd().split('\n')).toHaveLength(1)
    expect(readdirSync(path.join(dir, 'c', 'strips'))).toEqual(['w000000.png'])
    writeFileSync(path.join(dir, 'f'), '')
    const blocked = await runCli(['render', 'samples/mitdb/100', '--text', path.join(dir, 'f', 'x.txt'), ...one])
    expect(blocked.code).toBe(33) // E_IO
    expect(blocked.stderr).toContain(`cannot create the folder of --text ${path.join(dir, 'f')}: ${path.join(dir, 'f')} is a file, not a folder`)
    const stripsFile = await runCli(['render', 'samples/mitdb/100', '--strips', path.join(dir, 'f'), ...one])
    expect(stripsFile.code).toBe(2) // E_USAGE
    expect(stripsFile.stderr).toContain(`--strips ${path.join(dir, 'f')} is a file; --strips needs a folder`)
  }, 60_000)

  it.runIf(HAVE)('prints every path as the flag gave it (relative here), and counts in the singular for one', async () => {
    const dir = tmpDir('render-rel-')
    const r = await runCli(['render', path.resolve('samples/mitdb/100'), '--text', 'out/x.txt', '--strips', 'out/strips', '--video', 'out/x.mp4', ...one], { cwd: dir })
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^text: out\/x\.txt, 1 window, \d+ bytes$/)
    expect(lines[1]).toMatch(/^strips: 1 PNG file in out\/strips, \d+ bytes$/)
    expect(lines[2]).toMatch(/^video: out\/x\.mp4, 1 frame, \d+ bytes$/)
    expect((await probeVideo(path.join(dir, 'out/x.mp4'))).frames).toBe(1)
  }, 60_000)
})
