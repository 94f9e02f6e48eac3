// Per-signal part of an EDF/BDF header: ns blocks of fixed-width fields, each field stored for all
// signals in a row (all labels, then all transducers, ...), so signal i's field k sits at
// 256 + ns * start(k) + i * width(k). Validation follows EDFlib's checks, with messages naming the
// signal, the field and its byte offset. Annotation signals carry TAL bytes, not samples, so
// their scaling fields are only required to be numbers (some writers leave them degenerate).
import { PipelineError } from '../core/errors.ts'
import { parseEdfNumber, readField, show } from './edf-ascii.ts'
import { toMvFactor } from './units.ts'

/** One signal of an EDF/BDF file, as declared in the header, with its derived scaling. */
export interface EdfSignal {
  index: number
  label: string
  transducer: string
  physicalDimension: string
  physicalMin: number
  physicalMax: number
  digitalMin: number
  digitalMax: number
  prefiltering: string
  samplesPerRecord: number
  reserved: string
  /** True for 'EDF Annotations' / 'BDF Annotations' (TAL bytes, not samples). */
  isAnnotation: boolean
  /** Where this signal's samples start inside one data record, in bytes. */
  byteOffsetInRecord: number
  /** physical = digital * gain + offset, in `physicalDimension` units. */
  gain: number
  offset: number
  /** Factor from `physicalDimension` to mV, or null when the unit is not a known voltage. */
  toMv: number | null
  /** samplesPerRecord / recordDurationSec in Hz (0 when the record duration is 0). */
  sampleRate: number
}

type FieldKey = 'label' | 'transducer' | 'physicalDimension' | 'physicalMin' | 'physicalMax' | 'digitalMin'
  | 'digitalMax' | 'prefiltering' | 'samplesPerRecord' | 'reserved'

const FIELDS: ReadonlyArray<[FieldKey, number, string]> = [
  ['label', 16, 'label'],
  ['transducer', 80, 'transducer type'],
  ['physicalDimension', 8, 'physical dimension'],
  ['physicalMin', 8, 'physical minimum'],
  ['physicalMax', 8, 'physical maximum'],
  ['digitalMin', 8, 'digital minimum'],
  ['digitalMax', 8, 'digital maximum'],
  ['prefiltering', 80, 'prefiltering'],
  ['samplesPerRecord', 8, 'samples per record'],
  ['reserved', 32, 'reserved'],
]

const FIX = 'fix the header (e.g. in EDFbrowser\'s header editor) or export the recording again'

/** Parses and validates the ns signal blocks that follow the 256-byte fixed header. */
export function parseEdfSignals(
  buf: Uint8Array, file: string, ns: number, isBdf: boolean, recordDurationSec: number,
): EdfSignal[] {
  const text = new Map<FieldKey, { texts: string[]; offsets: number[]; name: string }>()
  let start = 256
  for (const [key, width, name] of FIELDS) {
    const texts: string[] = []
    const offsets: number[] = []
    for (let i = 0; i < ns; i++) {
      offsets.push(start + i * width)
      texts.push(readField(buf, start + i * width, width))
    }
    text.set(key, { texts, offsets, name })
    start += ns * width
  }
  const get = (key: FieldKey, i: number) => text.get(key)!.texts[i]
  const labels = text.get('label')!.texts
  const where = (key: FieldKey, i: number) => {
    const f = text.get(key)!
    const context = { file, field: key, offset: f.offsets[i], signal: i, label: labels[i] }
    return { context, prefix: `${file}: signal ${i} ${show(labels[i])}: ${f.name} (byte ${f.offsets[i]})` }
  }
  const num = (key: FieldKey, i: number, integer: boolean): number => {
    const raw = get(key, i)
    const n = parseEdfNumber(raw)
    if (n === null || (integer && !Number.isInteger(n))) {
      const { context, prefix } = where(key, i)
      const expected = integer ? 'an integer' : 'a number'
      throw new PipelineError('E_EDF_HEADER_FIELD', `${prefix}: expected ${expected}, found ${show(raw)}; ${FIX}`, context)
    }
    return n
  }

  const bytesPerSample = isBdf ? 3 : 2
  const digitalLimit = isBdf ? 8388608 : 32768
  const signals: EdfSignal[] = []
  let byteOffsetInRecord = 0
  for (let i = 0; i < ns; i++) {
    const label = labels[i]
    const isAnnotation = label === 'EDF Annotations' || label === 'BDF Annotations'
    const physicalMin = num('physicalMin', i, false)
    const physicalMax = num('physicalMax', i, false)
    const digitalMin = num('digitalMin', i, true)
    const digitalMax = num('digitalMax', i, true)
    const samplesPerRecord = num('samplesPerRecord', i, true)
    if (samplesPerRecord < 1) {
      const { context, prefix } = where('samplesPerRecord', i)
      throw new PipelineError('E_EDF_HEADER_FIELD', `${prefix}: expected an integer >= 1, found ${samplesPerRecord}; ${FIX}`, context)
    }
    if (!isAnnotation) {
      for (const key of ['digitalMin', 'digitalMax'] as const) {
        const v = key === 'digitalMin' ? digitalMin : digitalMax
        if (v < -digitalLimit || v >= digitalLimit) {
          const { context, prefix } = where(key, i)
          const range = `${-digitalLimit}..${digitalLimit - 1}`
          throw new PipelineError('E_EDF_DIGITAL_RANGE', `${prefix}: expected a value in ${range} (${bytesPerSample * 8}-bit samples), found ${v}; ${FIX}`, context)
        }
      }
      if (digitalMax <= digitalMin) {
        const { context, prefix } = where('digitalMax', i)
        throw new PipelineError('E_EDF_DIGITAL_RANGE', `${prefix}: expected digital maximum > digital minimum, found max ${digitalMax} and min ${digitalMin} (scaling to physical units is undefined); ${FIX}`, context)
      }
      if (physicalMax === physicalMin) {
        const { context, prefix } = where('physicalMax', i)
        throw new PipelineError('E_EDF_DIGITAL_RANGE', `${prefix}: expected physical maximum != physical minimum, found both ${physicalMin} (every sample would scale to one value); ${FIX}`, context)
      }
    }
    const degenerate = digitalMax === digitalMin
    const gain = degenerate ? 1 : (physicalMax - physicalMin) / (digitalMax - digitalMin)
    const physicalDimension = get('physicalDimension', i)
    signals.push({
      index: i,
      label,
      transducer: get('transducer', i),
      physicalDimension,
      physicalMin,
      physicalMax,
      digitalMin,
      digitalMax,
      prefiltering: get('prefiltering', i),
      samplesPerRecord,
      reserved: get('reserved', i),
      isAnnotation,
      byteOffsetInRecord,
      gain,
      offset: degenerate ? 0 : physicalMin - digitalMin * gain,
      toMv: isAnnotation ? null : toMvFactor(physicalDimension),
      sampleRate: recordDurationSec > 0 ? samplesPerRecord / recordDurationSec : 0,
    })
    byteOffsetInRecord += samplesPerRecord * bytesPerSample
  }
  return signals
}
