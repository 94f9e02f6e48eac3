// `pipeline qa audit` through the CLI on the public release: the priors line and the tables with
// the medoid leak, --json with --train (the report's shape), --strict (exit 1 on the public train
// split), and E_FILE_MISSING. Cross-split priors on the folder of splits are checked in process
// (test/audit/public-release.test.ts): the same report, without a second process.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/child.ts'
import { describeShared, sharedPath } from '../../helpers/shared.ts'
import { tmpDir } from '../../helpers/tmp.ts'

describe('pipeline qa audit', () => {
  it('fails with E_FILE_MISSING on a missing folder', async () => {
    const missing = path.join(tmpDir('qa-audit-none-'), 'nope')
    const r = await runCli(['qa', 'audit', missing])
    expect(r.code).toBe(10)
    expect(r.stderr).toContain(`error: E_FILE_MISSING: no folder ${missing}`)
  })
})

describeShared('pipeline qa audit on the public release', () => {
  const TRAIN = sharedPath('data/holtercare-qa/train')
  const VALID = sharedPath('data/holtercare-qa/valid')

  it('prints the priors line and a table per task with the medoid flagged; exits 0 without --strict', async () => {
    const r = await runCli(['qa', 'audit', TRAIN])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split('\n')[0]).toBe('audit of train; no priors: one split and no --train, so the answerers that learn are skipped')
    expect(r.stdout).toContain('closed_event_timing: 1238 items, chance 25.0%')
    expect(r.stdout).toMatch(/\n {2}answerer +items +accuracy +chance +margin +p\n {2}medoid +1238 +99\.9% +25\.0% +\+74\.9 +<0\.0001 +LEAK\n/)
    expect(r.stdout).toMatch(/\nopen_event_counting: 1238 items, gold count parsed from 1238\n {2}blind answer +items +metric +score\n {2}zero +1238 +MAE +\d+\.\d+\n/)
  })

  it('--json with --train: the priors, the flag rule, rows with p-values, floors', async () => {
    const r = await runCli(['qa', 'audit', VALID, '--train', TRAIN, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({ splits: ['valid'], priors: 'train', priorItems: 16672, leftOut: [], leakPoints: 3, minItems: 100, alpha: 0.05, skippedElements: 0 })
    const timing = report.closed.find((t: { task: string }) => t.task === 'closed_event_timing')
    const medoid = timing.answerers.find((a: { answerer: string }) => a.answerer === 'medoid')
    expect(medoid).toMatchObject({ items: 141, leak: true, withinNoise: false, fewItems: false })
    expect(medoid.pValue).toBeLessThan(1e-6)
    expect(timing.answerers.map((a: { answerer: string }) => a.answerer)).toContain('train letter')
    const counting = report.open.find((t: { task: string }) => t.task === 'open_event_counting')
    expect(counting.floors.map((f: { floor: string; metric: string }) => `${f.floor} (${f.metric})`)).toEqual(["priors' median (MAE)", "priors' median for the finding named (MAE)", 'zero (MAE)'])
    expect(report.flagged).toBe(report.closed.flatMap((t: { answerers: { leak: boolean }[] }) => t.answerers).filter((a: { leak: boolean }) => a.leak).length)
  })

  it('--strict exits 1 on the public train split', async () => {
    const r = await runCli(['qa', 'audit', TRAIN, '--strict'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/\n\d+ answerer rows flagged as a leak\n$/)
  })
})
