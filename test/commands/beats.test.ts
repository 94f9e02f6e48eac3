// `pipeline beats` as a user runs it, on the bundled MIT-BIH samples (no ../shared needed).
import { copyFileSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/child.ts'
import { ROOT, describeShared, sharedPath } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const sample = (rel: string) => path.join(ROOT, 'samples', rel)
const parse = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as { sample: number; timeMs: number; label: string; rrMs: number | null })
/** The percentage and counts of one statistic line of the first (whole-record) report. */
function stat(report: string, name: string): { pct: number; num: number; den: number } {
  const m = new RegExp(`${name}:\\s+([\\d.]+)% \\((\\d+)/(\\d+)\\)`).exec(report)
  if (!m) throw new Error(`no "${name}" line in:\n${report}`)
  return { pct: Number(m[1]), num: Number(m[2]), den: Number(m[3]) }
}

describe('pipeline beats', () => {
  const dir = tmpDir('beats-')

  it('writes one NDJSON beat per line to stdout: integer sample and time, an AAMI label, RR', async () => {
    const r = await runCli(['beats', sample('mitdb/100')])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const beats = parse(r.stdout)
    expect(beats.length).toBeGreaterThanOrEqual(2270) // 2273 reference beats; the detector finds them all
    expect(beats.length).toBeLessThanOrEqual(2276)
    for (let i = 0; i < beats.length; i++) {
      const b = beats[i]
      expect(Number.isInteger(b.sample) && Number.isInteger(b.timeMs)).toBe(true)
      expect(b.timeMs).toBe(Math.round((b.sample / 360) * 1000))
      expect(['N', 'S', 'V', 'F', 'Q']).toContain(b.label)
      if (i > 0) {
        expect(b.sample).toBeGreaterThan(beats[i - 1].sample)
        expect(b.rrMs).toBeCloseTo(((b.sample - beats[i - 1].sample) / 360) * 1000, 0)
      }
    }
    // Record 100 is sinus rhythm with a few ectopic beats: almost all N.
    expect(beats.filter((b) => b.label === 'N').length / beats.length).toBeGreaterThan(0.97)
  }, 30_000)

  it('--out writes the same lines to a file; --lead picks a lead by label or index', async () => {
    const out = path.join(dir, 'b.ndjson')
    const r = await runCli(['beats', sample('edf/mitdb102.edf'), '--lead', 'V2', '--out', out])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/^\d+ beats written to .*b\.ndjson\n$/)
    const byLabel = readFileSync(out, 'utf8')
    const byIndex = await runCli(['beats', sample('edf/mitdb102.edf'), '--lead', '1'])
    expect(byIndex.stdout).toBe(byLabel)
    const lead0 = await runCli(['beats', sample('edf/mitdb102.edf')])
    expect(lead0.stdout).not.toBe(byLabel)
    expect(parse(byLabel).length).toBeGreaterThan(2100) // 2187 paced beats
  }, 30_000)

  it('--score prints bxb-style statistics against the reference: record 208, QRS and VEB', async () => {
    const r = await runCli(['beats', sample('mitdb/208'), '--score'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Beat-by-beat comparison results for record 208')
    expect(r.stdout).toContain('From 300 s (EC57 skips the first 5 minutes):')
    const se = stat(r.stdout, 'QRS sensitivity')
    const pp = stat(r.stdout, 'QRS positive predictivity')
    expect(se.den).toBe(2955)
    expect(se.pct).toBeGreaterThanOrEqual(99.5)
    expect(pp.pct).toBeGreaterThanOrEqual(99.5)
    expect(stat(r.stdout, 'VEB sensitivity').den).toBe(992)
    expect(stat(r.stdout, 'VEB sensitivity').pct).toBeGreaterThanOrEqual(90)
    expect(stat(r.stdout, 'VEB positive predictivity').pct).toBeGreaterThanOrEqual(90)
    // No beats on stdout when the score was asked for without --out.
    expect(r.stdout).not.toContain('{"sample"')
  }, 30_000)

  it('--score --clean detects on the cleaned signal, as well', async () => {
    const r = await runCli(['beats', sample('mitdb/100'), '--score', '--clean'])
    expect(r.code).toBe(0)
    expect(stat(r.stdout, 'QRS sensitivity').pct).toBeGreaterThanOrEqual(99.5)
    expect(stat(r.stdout, 'QRS positive predictivity').pct).toBeGreaterThanOrEqual(99.5)
  }, 30_000)

  it('reports the quality-flagged windows apart when there are any', async () => {
    // Record 101's lead V1 (index 1) is low and noisy in places: the quality stage flags windows.
    const r = await runCli(['beats', sample('mitdb/101'), '--lead', '1', '--score'])
    expect(r.code).toBe(0)
    const m = /Without the (\d+) windows \((\d+) s\) flagged by the quality stage on this lead:/.exec(r.stdout)!
    expect(Number(m[1])).toBeGreaterThan(0)
    expect(Number(m[2])).toBeCloseTo(Number(m[1]) * 10, -1)
    // The reference beats inside those windows are out of the last report, and only those.
    const whole = stat(r.stdout, 'QRS sensitivity')
    const without = stat(r.stdout.slice(m.index), 'QRS sensitivity')
    expect(without.den).toBeLessThan(whole.den)
    expect(without.den).toBeGreaterThan(whole.den - Number(m[2]) * 3) // at most ~3 beats a second were in them
  }, 30_000)

  it('refuses a repeated --lead and an --out that is a folder or has no folder, before reading anything', async () => {
    const twice = await runCli(['beats', sample('mitdb/100'), '--lead', '0', '--lead', '1'])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('--lead was given 2 times')
    const folder = await runCli(['beats', sample('mitdb/100'), '--out', dir])
    expect(folder.code).toBe(2)
    expect(folder.stderr).toContain('is a folder; give a file name such as')
    const noParent = await runCli(['beats', sample('mitdb/100'), '--out', path.join(dir, 'nope', 'b.ndjson')])
    expect(noParent.code).toBe(2)
    expect(noParent.stderr).toMatch(/the folder .*nope does not exist; create it first/)
  }, 30_000)

  it('fails clearly: --score without reference annotations, a lead that is not there, a missing file', async () => {
    for (const ext of ['hea', 'dat']) copyFileSync(sample(`mitdb/100.${ext}`), path.join(dir, `100.${ext}`))
    const noRef = await runCli(['beats', path.join(dir, '100'), '--score'])
    expect(noRef.code).toBe(2)
    expect(noRef.stderr).toMatch(/--score needs reference beat annotations, and .*100 has none/)
    const badLead = await runCli(['beats', sample('mitdb/100'), '--lead', 'V9'])
    expect(badLead.code).toBe(17)
    expect(badLead.stderr).toMatch(/the signals are: 0 "MLII", 1 "V5"; choose the ECG leads .*--lead for pipeline beats/)
    const missing = await runCli(['beats', path.join(dir, 'nope.edf')])
    expect(missing.code).toBe(10)
    expect(missing.stderr).toContain('nope.edf')
  }, 30_000)
})

describeShared('pipeline beats on recordings whose first signal is not ECG', () => {
  it('detects on the ECG signal the reader picks, not on signal 0 (EEG), and refuses to score against non-beat annotations', async () => {
    const file = sharedPath('data/edf/Subject00_1.edf')
    const auto = await runCli(['beats', file])
    const named = await runCli(['beats', file, '--lead', 'ECG ECG'])
    expect(auto.code).toBe(0)
    expect(auto.stdout).toBe(named.stdout)
    const eeg = await runCli(['beats', file, '--lead', '0'])
    expect(eeg.stdout).not.toBe(auto.stdout)
    const score = await runCli(['beats', file, '--score'])
    expect(score.code).toBe(2)
    expect(score.stderr).toMatch(/--score needs reference beat annotations, and .*Subject00_1.edf has none; its 1 annotations \(.*\) are not beat labels/)
  }, 60_000)
})
