// WFDB skew: sample j of a signal with skew s is stored in frame j + s (signal(5)). Synthetic
// format-16 records whose frame f holds f in signal 0 and 1000 + f in signal 1 show the
// re-alignment, at every block size, and the invalid samples a short file leaves at the end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { blocksOf, concatLead, readRecord, recordSpec } from '../../helpers/read-record.ts'
import { runCli } from '../../helpers/child.ts'

const tmp = mkdtempSync(path.join(os.tmpdir(), 'hp-skew-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** A 2-signal record of `nsamples` declared samples with `frames` frames on disk; signal 1 has skew `skew`. */
function writeRecord(name: string, nsamples: number, frames: number, skew: number): string {
  const dat = Buffer.alloc(frames * 4)
  for (let f = 0; f < frames; f++) {
    dat.writeInt16LE(f, f * 4)
    dat.writeInt16LE(1000 + f, f * 4 + 2)
  }
  writeFileSync(path.join(tmp, `${name}.dat`), dat)
  // gain 1000 adu/mV, baseline 0: the value in mV times 1000 is the digital value.
  writeFileSync(path.join(tmp, `${name}.hea`), `${name} 2 100 ${nsamples}\n${name}.dat 16 1000(0)/mV 16 0 0 0 0 ECG1\n${name}.dat 16:${skew} 1000(0)/mV 16 0 0 0 0 ECG2\n`)
  return path.join(tmp, name)
}

const digital = (a: Float32Array) => Array.from(a, (v) => (Number.isNaN(v) ? null : Math.round(v * 1000)))

describe('read stage: WFDB skew', () => {
  it.each([0.02, 0.03, 0.1, 10])('shifts a skewed signal by its skew (blockSeconds %s)', async (blockSeconds) => {
    const { items, warnings } = await readRecord(recordSpec(writeRecord('sk', 10, 12, 2)), { blockSeconds, annotations: false })
    expect(warnings).toEqual([])
    expect(digital(concatLead(items, 0))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(digital(concatLead(items, 1))).toEqual([1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011])
    let next = 0
    for (const b of blocksOf(items)) {
      expect(b.startSample).toBe(next)
      expect(b.leads[0].length).toBe(b.leads[1].length)
      next += b.leads[0].length
    }
  })

  it('gives invalid samples (NaN) where the file ends before a skewed signal does', async () => {
    const { items } = await readRecord(recordSpec(writeRecord('short', 10, 10, 3)), { annotations: false })
    expect(digital(concatLead(items, 1))).toEqual([1003, 1004, 1005, 1006, 1007, 1008, 1009, null, null, null])
    expect(digital(concatLead(items, 0))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('convert writes the aligned samples', async () => {
    const rec = writeRecord('conv', 300, 302, 2)
    const out = path.join(tmp, 'conv.edf')
    const r = await runCli(['convert', rec, out, '--annotator', ''])
    expect(r.code, r.stderr).toBe(0)
    const { items } = await readRecord(recordSpec(out))
    expect(digital(concatLead(items, 1)).slice(0, 300)).toEqual(Array.from({ length: 300 }, (_, j) => 1002 + j))
  })
})
