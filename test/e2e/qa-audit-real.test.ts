// The audit on real records at density (issue 13, "Audit"): the bundled MIT-BIH records, each cut
// six times into 20-second tiles from six seeded offsets (overlapping sets, so every record gives
// hundreds of excerpts), every task asked; the export's blind answerers stay within chance + 5
// points wherever they answered 100 items or more. Presence and counting reach 1,000 items here;
// timing and diagnosis a few hundred (the synthetic audit, test/qa/leak-free.test.ts, takes every
// closed task past 500). No rendering, a few seconds.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

interface Row { answerer: string; items: number; accuracy: number; chance: number; marginPoints: number; leak: boolean }
interface Report { closed: { task: string; items: number; unparsed: number; answerers: Row[] }[] }

describe('qa audit on densely cut real records', () => {
  let report: Report
  beforeAll(async () => {
    const dir = tmpDir('hp-qa-audit-real-')
    const sets = [1, 2, 3, 4, 5, 6].map((seed) => `  - {use: excerpt, options: {set: s${seed}, stratified: {lengthSec: 20, perHour: 180, seed: ${seed}}}}`)
    const yaml = [
      'name: qa-audit-real',
      'records:',
      ...['100', '101', '208'].map((r) => `  - path: ${path.join(ROOT, 'samples/mitdb', r)}`),
      `  - {id: '102', path: ${path.join(ROOT, 'samples/edf/mitdb102.edf')}}`,
      'stages:',
      '  - read',
      '  - annotate',
      '  - quality',
      ...sets,
      `  - {use: qa, options: {seed: 7, pairsPerEvent: 1000, perExcerpt: 3, sets: {${[1, 2, 3, 4, 5, 6].map((s) => `s${s}: all`).join(', ')}}}}`,
    ].join('\n')
    writeFileSync(path.join(dir, 'audit.yaml'), yaml + '\n')
    const run = path.join(dir, 'run')
    const ran = await runCli(['run', path.join(dir, 'audit.yaml'), '--out', run])
    expect(ran.code, ran.stderr).toBe(0)
    const out = path.join(dir, 'export')
    expect((await runCli(['qa', 'export', run, out, '--inputs', 'none'])).code).toBe(0)
    const audited = await runCli(['qa', 'audit', out, '--json'])
    expect(audited.code, audited.stderr).toBe(0)
    report = JSON.parse(audited.stdout) as Report
  }, 120_000)

  it('flags no blind answerer on any closed task, presence and counting with 1,000 items or more', () => {
    const items = Object.fromEntries(report.closed.map((t) => [t.task, t.items]))
    expect(items.closed_presence).toBeGreaterThanOrEqual(1000)
    expect(items.closed_event_counting).toBeGreaterThanOrEqual(1000)
    expect(items.closed_event_timing).toBeGreaterThanOrEqual(200)
    expect(items.closed_diagnosis).toBeGreaterThanOrEqual(200)
    const over = report.closed.flatMap((t) => t.answerers.filter((a) => a.items >= 100 && a.marginPoints > 5).map((a) => `${t.task}: ${a.answerer} ${(100 * a.accuracy).toFixed(1)}% vs ${(100 * a.chance).toFixed(1)}% on ${a.items}`))
    expect(over).toEqual([])
    expect(report.closed.every((t) => t.unparsed === 0)).toBe(true)
  })
})
