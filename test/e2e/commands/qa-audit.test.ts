// `pipeline qa audit` through the CLI on the public release: the text tables with the medoid
// leak, --json, --train, --strict (exit 1 on the public train split), and E_FILE_MISSING.
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

  it('prints a table per task with the medoid flagged; exits 0 without --strict', async () => {
    const r = await runCli(['qa', 'audit', TRAIN])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('closed_event_timing: 1238 items, chance 25.0%')
    expect(r.stdout).toMatch(/\n {2}medoid +1238 +9\d\.\d% +25\.0% +\+\d+\.\d +LEAK\n/)
    expect(r.stdout).toContain('audited median (self)')
  })

  it('--json parses, and --train adds the train priors and constants', async () => {
    const r = await runCli(['qa', 'audit', VALID, '--train', TRAIN, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({ splits: ['valid'], trainItems: 16672, leakPoints: 5, minItems: 100, skippedElements: 0 })
    const timing = report.closed.find((t: { task: string }) => t.task === 'closed_event_timing')
    expect(timing.answerers.find((a: { answerer: string }) => a.answerer === 'medoid')).toMatchObject({ items: 141, leak: true })
    expect(timing.answerers.map((a: { answerer: string }) => a.answerer)).toContain('train letter')
    expect(report.open[0].constants.map((c: { constant: string }) => c.constant)).toEqual(['train median', 'train mean'])
  })

  it('--strict exits 1 on the public train split', async () => {
    const r = await runCli(['qa', 'audit', TRAIN, '--strict'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/\n\d+ answerer rows flagged as a leak\n$/)
  })
})
