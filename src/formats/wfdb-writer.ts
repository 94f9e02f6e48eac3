// A single-segment WFDB record written from physical samples (pure: samples in, header text and
// .dat bytes out), for readers that take WFDB (wfdb.rdsamp and the WFDB Software Package).
// Format 16 (little-endian 16-bit, frames interleaved) at 1000 adu/mV with baseline 0: one
// microvolt per step over +-32.767 mV holds every sample of an ECG exactly to the microvolt, and
// MIT-BIH's 200 adu/mV values (multiples of 5 uV) without any rounding. A NaN sample (invalid
// in the source) is written as format 16's invalid value, -32768, which readers give back as NaN.
// The header carries no comment lines: a record written for a model must not tell it the
// patient's age or sex.

/** Steps per mV of the written signals. */
export const WFDB_WRITE_GAIN = 1000

const INVALID = -32768
const MAX = 32767

/** One signal to write: its description (lead label) and samples in mV. */
export interface WfdbWriteSignal {
  label: string
  samples: Float32Array
}

/** A record's .hea text and .dat bytes. */
export interface WfdbWritten {
  header: string
  dat: Buffer
}

/** The digital value of a sample in mV: rounded to the step, clamped to the format's range, NaN as invalid. */
export function digitalOf(mV: number): number {
  if (!Number.isFinite(mV)) return INVALID
  return Math.max(-MAX, Math.min(MAX, Math.round(mV * WFDB_WRITE_GAIN)))
}

/** The record `name` of `signals` (equal lengths) at `fs` Hz, its .dat named `<name>.dat`. */
export function writeWfdbRecord(name: string, fs: number, signals: readonly WfdbWriteSignal[]): WfdbWritten {
  const n = signals[0]?.samples.length ?? 0
  if (signals.some((s) => s.samples.length !== n)) throw new RangeError(`WFDB record ${name}: signals of unequal length`)
  const dat = Buffer.alloc(2 * n * signals.length)
  const lines = [`${name} ${signals.length} ${fs} ${n}`]
  signals.forEach((s, k) => {
    let checksum = 0
    let first = 0
    for (let i = 0; i < n; i++) {
      const d = digitalOf(s.samples[i])
      if (i === 0) first = d
      checksum = (checksum + d) & 0xffff
      dat.writeInt16LE(d, 2 * (i * signals.length + k))
    }
    // WFDB prints the checksum as a signed 16-bit number.
    const signed = checksum >= 0x8000 ? checksum - 0x10000 : checksum
    const label = s.label.replace(/[\r\n]+/g, ' ').trim() || `signal ${k}`
    lines.push(`${name}.dat 16 ${WFDB_WRITE_GAIN}/mV 16 0 ${first} ${signed} 0 ${label}`)
  })
  return { header: lines.join('\n') + '\n', dat }
}
