// The audit on a dense build of real records: the bundled MIT-BIH records cut twelve times into
// 20-second tiles and four times into 1-minute tiles from seeded offsets (overlapping sets, so every
// record gives hundreds of excerpts), every task asked, then `qa audit --strict` on the export:
// no answerer that never sees the ECG (the option layout, where options lie in the stated span,
// the other questions of the same excerpt, priors learned on the other split) beats chance
// beyond what chance explains. With four records the audit's priors are cross-split (test and
// train); the synthetic audit (test/audit/leak-free.test.ts) takes every closed task past 500
// items; four records hold few excerpts with three different findings each, so few diagnosis
// groups. No rendering.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

interface Row { answerer: string; items: number; accuracy: number; chance: number; marginPoints: number; pValue: number; leak: boolean }
interface Report { priors: string; splits: string[]; closed: { task: string; items: number; unparsed: number; answerers: Row[] }[]; flagged: number }

const SHORT = Array.from({ length: 12 }, (_, k) => ({ set: `s${k + 1}`, length: 20, perHour: 180, seed: k + 1 }))
const MINUTE = [21, 22, 23, 24].map((seed) => ({ set: `m${seed}`, length: 60, perHour: 60, seed }))

describe('qa audit --strict on a dense build of real records', () => {
  let report: Report
  let strict: { code: number | null; stdout: string }
  beforeAll(async () => {
    const dir = tmpDir('hp-qa-audit-real-')
    const sets = [...SHORT, ...MINUTE].map((s) => `  - {use: excerpt, options: {set: ${s.set}, stratified: {lengthSec: ${s.length}, perHour: ${s.perHour}, seed: ${s.seed}}}}`)
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
      `  - {use: qa, options: {seed: 7, pairsPerEvent: 1000, split: {test: 0.5, valid: 0}, sets: {${[...SHORT, ...MINUTE].map((s) => `${s.set}: all`).join(', ')}}}}`,
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
    strict = await runCli(['qa', 'audit', out, '--strict'])
  }, 300_000)

  it('audits both splits with priors from the other', () => {
    expect(report.priors).toBe('cross-split')
    expect([...report.splits].sort()).toEqual(['test', 'train'])
  })

  it('has a hundred items or more of every closed task but diagnosis, all parsed', () => {
    const items = Object.fromEntries(report.closed.map((t) => [t.task, t.items]))
    const floor = { closed_presence: 400, open_evidence_reasoning: 400, closed_HR_extremum_timing: 200, closed_event_counting: 200, closed_event_timing: 120, closed_diagnosis: 12 }
    for (const [task, n] of Object.entries(floor)) expect(items[task], task).toBeGreaterThanOrEqual(n)
    expect(report.closed.every((t) => t.unparsed === 0)).toBe(true)
  })

  it('flags no answerer, and --strict exits 0', () => {
    const flagged = report.closed.flatMap((t) => t.answerers.filter((a) => a.leak).map((a) => `${t.task}: ${a.answerer} ${(100 * a.accuracy).toFixed(1)}% vs ${(100 * a.chance).toFixed(1)}% on ${a.items}`))
    expect(flagged).toEqual([])
    expect(strict.code, strict.stdout).toBe(0)
  })
})
