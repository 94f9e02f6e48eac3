// The README's first command on the bundled samples: `pipeline run pipelines/demo.yaml`. Its
// summaries (a Holter report per record), the beats per record, source and label, and the
// flagged quality windows are compared with golden files in test/golden/ (regenerate them with
// UPDATE_GOLDEN=1 after an intended change, and say why in the commit).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { linesOf, runCli } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { probeVideo, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { decodePng } from '../../src/render/png.ts'

// The demo renders videos, so it needs ffmpeg (`npm run demo` installs it; so does .ci/run).
const HAVE_FFMPEG = !skipWithoutFfmpeg() // skips (with a warning) without ffmpeg and ffprobe, except under CI

const GOLDEN = path.join(ROOT, 'test/golden')

if (process.env.UPDATE_GOLDEN === '1' && process.env.CI) throw new Error('UPDATE_GOLDEN=1 under CI would compare the outputs with themselves; regenerate goldens by hand')

function golden(name: string, actual: unknown): void {
  const file = path.join(GOLDEN, name)
  const text = JSON.stringify(actual, null, 1) + '\n'
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text)
  if (!existsSync(file)) throw new Error(`golden file ${file} is missing; run with UPDATE_GOLDEN=1 to write it`)
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, 'utf8')))
}

describe.runIf(HAVE_FFMPEG)('the demo pipeline', () => {
  it('writes beats, quality flags, a Holter summary, text, strips and a video for every bundled record, as in the golden files', async () => {
    const out = path.join(tmpDir('demo-'), 'run')
    const r = await runCli(['run', 'pipelines/demo.yaml', '--out', out])
    expect(r.stderr).toContain('run demo finished: 4 records done, 0 failed')
    expect(r.code).toBe(0)
    const summaries = linesOf(path.join(out, 'summary.ndjson'))
    expect(summaries.map((s) => [s.recordId, s.source])).toEqual([['100', 'detector'], ['101', 'detector'], ['208', 'detector'], ['102', 'detector']])
    golden('demo-summary.json', summaries)
    const beats: Record<string, number> = {}
    for (const b of linesOf(path.join(out, 'beat.ndjson'))) beats[`${b.recordId} ${b.source} ${b.label}`] = (beats[`${b.recordId} ${b.source} ${b.label}`] ?? 0) + 1
    golden('demo-beat-counts.json', beats)
    const flagged = linesOf(path.join(out, 'quality.ndjson')).flatMap((q) => (q.leads as { label: string; flags: string[] }[]).filter((l) => l.flags.length).map((l) => `${q.recordId} ${q.index} ${l.label} ${l.flags.join('+')}`))
    golden('demo-quality-flags.json', flagged)
    // Record 208 (992 PVCs and 373 fusion beats, which the classifier calls N or V): the
    // detector's V count lies between the reference's V and V + F.
    expect(beats['208 detector V']).toBeGreaterThanOrEqual(beats['208 reference V'] * 0.98)
    expect(beats['208 detector V']).toBeLessThanOrEqual(beats['208 reference V'] + beats['208 reference F'])
    // Rendering: per record, its first lead as text (a line per 10 s window), a strip a minute
    // and a video of all 180 windows, each file described by render items.
    const renders = linesOf(path.join(out, 'render.ndjson'))
    for (const id of ['100', '101', '208', '102']) {
      const mine = renders.filter((r) => r.recordId === id)
      const text = mine.filter((r) => r.format === 'text')
      expect(text).toHaveLength(180)
      const textFile = readFileSync(path.join(out, `media/${id}/text.txt`), 'utf8')
      expect(text.reduce((n, r) => n + (r.bytes as number), 0)).toBe(Buffer.byteLength(textFile))
      expect(textFile.split('\n')[0]).toMatch(new RegExp(`^${text[0].leads} 00:00:00\\.000 360Hz: -?\\d+\\.\\d{3},`))
      const strips = mine.filter((r) => r.format === 'png' && r.windowIndex !== undefined)
      expect(strips.map((r) => r.windowIndex)).toEqual(Array.from({ length: 30 }, (_, k) => 6 * k))
      // Up to ten strips around reference PVCs, 10 s apart at least (record 208 has 992 PVCs).
      const events = mine.filter((r) => r.format === 'png' && r.event).map((r) => r.event as { label: string; sample: number; source: string })
      if (id === '208') expect(events).toHaveLength(10)
      for (const [k, e] of events.entries()) expect(e.label === 'V' && e.source === 'reference' && (k === 0 || e.sample - events[k - 1].sample >= 3600)).toBe(true)
      const png = decodePng(readFileSync(path.join(out, strips[1].path as string)))
      expect([png.width, png.height]).toEqual([strips[1].width, strips[1].height])
      expect(strips[1].markers).toBeGreaterThan(10) // reference and detector beats of a minute's window
      const videos = mine.filter((r) => r.format === 'mp4')
      expect(videos).toMatchObject([{ path: `media/${id}/video.mp4`, frames: 180, fps: 10 }])
      expect((await probeVideo(path.join(out, `media/${id}/video.mp4`))).frames).toBe(180)
    }
  }, 120_000)
})
