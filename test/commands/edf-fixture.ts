// Small EDF / EDF+C / EDF+D / BDF files for convert's tests, encoded here byte by byte (not with
// src/formats/edf-writer.ts, so a writer bug cannot hide behind a matching reader fixture).
// TALs are given as raw text after the record's time-keeping TAL, e.g. '+1.5\x150.25\x14N\x14\x00'.
import { writeFileSync } from 'node:fs'

export interface FixtureSignal {
  label: string
  unit?: string
  transducer?: string
  prefiltering?: string
  physMin: number
  physMax: number
  digMin: number
  digMax: number
  spr: number
  /** Digital value of sample i of data record r. */
  digital(r: number, i: number): number
}

export interface FixtureSpec {
  kind: 'EDF' | 'EDF+C' | 'EDF+D' | 'BDF' | 'BDF+C'
  recordSec: number
  records: number
  signals: FixtureSignal[]
  /** Record onsets (s) for the time-keeping TALs; default r * recordSec. */
  onsets?: number[]
  /** Raw TAL text per record index, per annotation signal (index 0, 1 ...). */
  tals?: Record<number, string>[]
  /** Bytes of each annotation signal per record (default 120). */
  annotationBytes?: number
  patient?: string
  recording?: string
  startDate?: string
}

/** Writes the file and returns its path. */
export function writeEdfFixture(file: string, spec: FixtureSpec): string {
  const bdf = spec.kind.startsWith('BDF')
  const bps = bdf ? 3 : 2
  const plus = spec.kind.includes('+')
  const annBytes = spec.annotationBytes ?? 120
  const nAnn = plus ? Math.max(1, spec.tals?.length ?? 1) : 0
  const annLabel = bdf ? 'BDF Annotations' : 'EDF Annotations'
  const all = [
    ...spec.signals.map((s) => ({ ...s, ann: false })),
    ...Array.from({ length: nAnn }, () => ({ label: annLabel, unit: '', physMin: -1, physMax: 1, digMin: bdf ? -8388608 : -32768, digMax: bdf ? 8388607 : 32767, spr: annBytes / bps, ann: true })),
  ]
  const ns = all.length
  const head = Buffer.alloc(256 * (ns + 1), 0x20)
  const put = (offset: number, width: number, text: string) => head.write(text.padEnd(width).slice(0, width), offset, 'latin1')
  if (bdf) {
    head[0] = 0xff
    head.write('BIOSEMI', 1, 'latin1')
  } else put(0, 8, '0')
  put(8, 80, spec.patient ?? (plus ? 'P01 F 02-MAR-1960 Jane_Doe' : 'free text patient'))
  put(88, 80, spec.recording ?? (plus ? 'Startdate 17-MAY-2020 A1 tech device note' : 'free text recording'))
  put(168, 8, spec.startDate ?? '17.05.20')
  put(176, 8, '08.30.00')
  put(184, 8, String(head.length))
  put(192, 44, plus ? spec.kind : bdf ? '24BIT' : '')
  put(236, 8, String(spec.records))
  put(244, 8, String(spec.recordSec))
  put(252, 4, String(ns))
  const columns: Array<[number, (s: (typeof all)[number]) => string]> = [
    [16, (s) => s.label], [80, (s) => ('transducer' in s ? s.transducer ?? '' : '')], [8, (s) => s.unit ?? ''],
    [8, (s) => String(s.physMin)], [8, (s) => String(s.physMax)], [8, (s) => String(s.digMin)], [8, (s) => String(s.digMax)],
    [80, (s) => ('prefiltering' in s ? s.prefiltering ?? '' : '')], [8, (s) => String(s.spr)], [32, () => ''],
  ]
  let at = 256
  for (const [width, value] of columns) {
    all.forEach((s, i) => put(at + i * width, width, value(s)))
    at += ns * width
  }
  const recordBytes = all.reduce((n, s) => n + s.spr * bps, 0)
  const data = Buffer.alloc(recordBytes * spec.records)
  for (let r = 0; r < spec.records; r++) {
    let p = r * recordBytes
    for (const s of spec.signals) {
      for (let i = 0; i < s.spr; i++, p += bps) {
        if (bdf) data.writeIntLE(s.digital(r, i), p, 3)
        else data.writeInt16LE(s.digital(r, i), p)
      }
    }
    for (let a = 0; a < nAnn; a++, p += annBytes) {
      const onset = spec.onsets?.[r] ?? r * spec.recordSec
      const text = (a === 0 ? `+${onset}\x14\x14\x00` : '') + (spec.tals?.[a]?.[r] ?? '')
      if (text.length > annBytes) throw new Error(`fixture: TALs of record ${r} need ${text.length} bytes, have ${annBytes}`)
      data.write(text, p, 'latin1')
    }
  }
  writeFileSync(file, Buffer.concat([head, data]))
  return file
}

/** An ECG-like test signal in mV at time t (s): 1.2 Hz spiky beats, 0.15 Hz baseline wander, a little 50 Hz. */
export function ecgLike(t: number): number {
  const phase = (t * 1.2) % 1
  return 1.5 * Math.exp(-((phase - 0.3) ** 2) / 0.0004) - 0.2 * Math.exp(-((phase - 0.6) ** 2) / 0.004) + 0.8 * Math.sin(2 * Math.PI * 0.15 * t) + 0.05 * Math.sin(2 * Math.PI * 50 * t)
}
