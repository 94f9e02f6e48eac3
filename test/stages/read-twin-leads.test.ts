// Two leads with one label, as in PhysioNet SVDB record 800 (both "ECG"), written as a small WFDB
// record (format 16) and an EDF+C file in a temp folder: both leads are read by default, a label
// in `leads:` that names both is refused with their indices, an index picks one, and the quality
// items and the summary's quality figures keep the two leads apart.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import type { Item, QualityItem } from '../../src/core/items.ts'
import quality from '../../src/stages/quality.ts'
import summarize from '../../src/stages/summarize.ts'
import { encodeDataRecord, encodeEdfHeader } from '../../src/formats/edf-writer.ts'
import { encodeTalBlock } from '../../src/formats/tal.ts'
import { concatLead, readRecord, readUntilError, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { ecgLike } from '../commands/edf-fixture.ts'

const FS = 250
const SECONDS = 30
const GAIN = 200 // adu/mV
// Lead 0 beats; lead 1 is off (a constant), so the quality stage flags it flat.
const digital = (lead: number, i: number) => (lead === 0 ? Math.round(ecgLike(i / FS) * GAIN) : 7)

function writeWfdb(dir: string): string {
  const frames = Buffer.alloc(FS * SECONDS * 4)
  for (let i = 0; i < FS * SECONDS; i++) for (const lead of [0, 1]) frames.writeInt16LE(digital(lead, i), 4 * i + 2 * lead)
  writeFileSync(path.join(dir, '800.dat'), frames)
  const line = `800.dat 16 ${GAIN}/mV 16 0 0 0 0 ECG`
  writeFileSync(path.join(dir, '800.hea'), `800 2 ${FS} ${FS * SECONDS}\n${line}\n${line}\n`)
  return path.join(dir, '800')
}

function writeEdf(dir: string): string {
  const signal = { label: 'ECG', physicalDimension: 'mV', physicalMin: -32768 / GAIN, physicalMax: 32767 / GAIN, digitalMin: -32768, digitalMax: 32767, samplesPerRecord: FS }
  const parts = [encodeEdfHeader({ start: { year: 2020, month: 5, day: 17, hour: 8, minute: 0, second: 0 }, recordDurationSec: 1, recordCount: SECONDS, signals: [signal, signal] })]
  for (let r = 0; r < SECONDS; r++) {
    const leads = [0, 1].map((lead) => Int16Array.from({ length: FS }, (_, i) => digital(lead, r * FS + i)))
    parts.push(encodeDataRecord(leads, encodeTalBlock(r, [], 64)))
  }
  const file = path.join(dir, '800.edf')
  writeFileSync(file, Buffer.concat(parts))
  return file
}

describe('two leads labelled "ECG"', () => {
  const dir = tmpDir('hp-twin-')
  const records = { wfdb: writeWfdb(dir), edf: writeEdf(dir) }
  const fileOf = { wfdb: path.join(dir, '800.hea'), edf: records.edf }

  for (const format of ['wfdb', 'edf'] as const) {
    it(`${format}: both are read by default and one by index; the label in leads is refused naming the file and the indices`, async () => {
      const all = (await readRecord(recordSpec(records[format]))).items
      expect(recordingOf(all).labels).toEqual(['ECG', 'ECG'])
      const second = (await readRecord(recordSpec(records[format], { leads: [1] }))).items
      expect(Array.from(concatLead(second, 0))).toEqual(Array.from(concatLead(all, 1)))
      const { items, error } = await readUntilError(recordSpec(records[format], { leads: ['ECG'] }))
      expect(items).toEqual([])
      expect(error).toBeInstanceOf(PipelineError)
      expect(error).toMatchObject({ code: 'E_LEAD_SELECT', context: { file: fileOf[format], field: 'leads', matches: [0, 1] } })
      expect((error as Error).message).toContain(`${fileOf[format]}: lead "ECG" (from leads): expected a label that names one signal, found 2 signals labelled so, at indices 0, 1; select them by index instead`)
    })

    it(`${format}: quality items carry each lead's index, and the summary's flagged time keeps the leads apart`, async () => {
      const read = (await readRecord(recordSpec(records[format]))).items
      const checked = (await runStage(quality, read)).items
      const windows = checked.filter((i): i is QualityItem => i.kind === 'quality')
      expect(windows).toHaveLength(3)
      expect(windows.map((w) => w.leads.map((l) => [l.label, l.index, l.flags.join('+')]))).toEqual(Array(3).fill([['ECG', 0, ''], ['ECG', 1, 'flat']]))
      const summary = (await runStage(summarize, checked)).items.find((i: Item) => i.kind === 'summary') as Record<string, any>
      const none = { flaggedMs: 0, invalid: 0, flat: 0, saturated: 0, noisy: 0 }
      expect(summary.quality).toEqual({ windows: 3, leads: { 'ECG#0': none, 'ECG#1': { ...none, flaggedMs: 30_000, flat: 3 } } })
    })
  }
})
