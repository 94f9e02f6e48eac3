// `pipeline beats` as a user runs it, on the bundled MIT-BIH samples (no ../shared needed).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/child.ts'
import { ROOT, describeShared, sharedPath } from '../../helpers/shared.ts'
import { tmpDir } from '../../helpers/tmp.ts'

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

  it('refuses a repeated --lead and an --out that is a folder; makes the missing folders of --out, E_IO when a file is in the way', async () => {
    const twice = await runCli(['beats', sample('mitdb/100'), '--lead', '0', '--lead', '1'])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('--lead was given 2 times')
    const folder = await runCli(['beats', sample('mitdb/100'), '--out', dir])
    expect(folder.code).toBe(2)
    expect(folder.stderr).toContain('is a folder; give a file name such as')
    // One rule for every command's outputs: missing folders are made, as mkdir -p would.
    const deep = path.join(dir, 'new', 'deeper', 'b.ndjson')
    const made = await runCli(['beats', sample('mitdb/100'), '--out', deep])
    expect(made.code, made.stderr).toBe(0)
    expect(parse(readFileSync(deep, 'utf8')).length).toBeGreaterThan(2200)
    writeFileSync(path.join(dir, 'a-file'), '')
    const blocked = await runCli(['beats', sample('mitdb/100'), '--out', path.join(dir, 'a-file', 'sub', 'b.ndjson')])
    expect(blocked.code).toBe(33) // E_IO
    expect(blocked.stderr).toContain(`cannot create the folder of --out ${path.join(dir, 'a-file', 'sub')}: ${path.join(dir, 'a-file')} is a file, not a folder`)
  }, 30_000)

  it('fails clearly: --score without reference annotations (before reading the signal), a lead that is not there, a missing file', async () => {
    for (const ext of ['hea', 'dat']) copyFileSync(sample(`mitdb/100.${ext}`), path.join(dir, `100.${ext}`))
    // The headers tell that there is no reference: the command stops before the beats are written.
    const out = path.join(dir, 'no-ref.ndjson')
    const noRef = await runCli(['beats', path.join(dir, '100'), '--score', '--out', out])
    expect(noRef.code).toBe(2)
    expect(noRef.stderr).toMatch(/--score needs reference beat annotations, and .*100 has none/)
    expect(noRef.stderr).toContain('100.annotations.csv|json|ndjson')
    expect(existsSync(out)).toBe(false)
    const badLead = await runCli(['beats', sample('mitdb/100'), '--lead', 'V9'])
    expect(badLead.code).toBe(2)
    expect(badLead.stderr).toMatch(/--lead V9: .*100\.hea has no signal labelled "V9"; expected an index from 0 to 1 or a label \(0 "MLII", 1 "V5"\)/)
    const missing = await runCli(['beats', path.join(dir, 'nope.edf')])
    expect(missing.code).toBe(10)
    expect(missing.stderr).toContain('nope.edf')
  }, 30_000)

  it('--score takes the reference from an annotation sidecar beside the recording, as render and run do', async () => {
    // mitdb102.edf embeds its paced beats; a sidecar naming every other detected beat replaces them.
    const side = path.join(dir, 'side')
    mkdirSync(side)
    const edf = path.join(side, 'mitdb102.edf')
    copyFileSync(sample('edf/mitdb102.edf'), edf)
    const detected = parse((await runCli(['beats', edf])).stdout)
    const rows = detected.filter((_, i) => i % 2 === 0)
    writeFileSync(path.join(side, 'mitdb102.annotations.csv'), ['sample,symbol', ...rows.map((b) => `${b.sample},N`), ''].join('\n'))
    const r = await runCli(['beats', edf, '--score'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('W_SIDECAR_REPLACES')
    // The whole-record statistics: every sidecar beat is a reference beat, and is found.
    const se = stat(r.stdout, 'QRS sensitivity')
    expect(se.den).toBe(rows.length)
    expect(se.pct).toBeGreaterThanOrEqual(99.5)
    expect(stat(r.stdout, 'QRS positive predictivity').pct).toBeLessThan(60) // half the detected beats have no reference
    // A sidecar is a reference for the early check too: a WFDB record without its .atr scores against it.
    const wfdb = path.join(dir, 'side100')
    mkdirSync(wfdb)
    for (const ext of ['hea', 'dat']) copyFileSync(sample(`mitdb/100.${ext}`), path.join(wfdb, `100.${ext}`))
    writeFileSync(path.join(wfdb, '100.annotations.csv'), ['sample,symbol', ...rows.map((b) => `${b.sample},N`), ''].join('\n'))
    const w = await runCli(['beats', path.join(wfdb, '100'), '--score'])
    expect(w.code, w.stderr).toBe(0)
    expect(w.stdout).toContain('Beat-by-beat comparison results for record 100')
  }, 60_000)
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
    expect(score.stderr).toMatch(/--score needs reference beat annotations, and .*Subject00_1.edf has none; its 1 annotation \(.*\) is not a beat label/)
  }, 60_000)
})
