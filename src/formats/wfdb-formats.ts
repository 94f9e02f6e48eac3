// WFDB storage formats this project decodes, with the facts each one needs (signal(5) of the
// WFDB Software Package). Samples of all signals in one .dat file are interleaved frame by
// frame; format 212 packs two 12-bit samples into 3 bytes, and those pairs run across signal
// and frame boundaries, so with an odd number of signals the smallest whole unit is 2 frames.

/** Formats the decoder handles, in the order error messages list them. */
export const SUPPORTED_WFDB_FORMATS = [212, 16, 61, 80, 160, 24, 32] as const

export type WfdbFormat = (typeof SUPPORTED_WFDB_FORMATS)[number]

/** True when `format` is one the decoder handles. */
export function isSupportedWfdbFormat(format: number): format is WfdbFormat {
  return (SUPPORTED_WFDB_FORMATS as readonly number[]).includes(format)
}

/**
 * The stored value that means "no sample here" in each format (WFDB writes the most negative
 * value the format can hold; wfdb-python maps the same values to NaN).
 */
export const WFDB_INVALID_SAMPLE: Readonly<Record<WfdbFormat, number>> = {
  212: -2048,
  16: -32768,
  61: -32768,
  80: -128,
  160: -32768,
  24: -8388608,
  32: -2147483648,
}

/** ADC resolution in bits that WFDB assumes when the header leaves it 0 or out. */
export const WFDB_DEFAULT_ADC_RESOLUTION: Readonly<Record<WfdbFormat, number>> = {
  212: 12,
  16: 16,
  61: 16,
  80: 8,
  160: 16,
  24: 24,
  32: 32,
}

/** Bytes one sample takes (1.5 for 212: two samples share 3 bytes). */
export function wfdbBytesPerSample(format: WfdbFormat): number {
  switch (format) {
    case 212:
      return 1.5
    case 80:
      return 1
    case 24:
      return 3
    case 32:
      return 4
    default:
      return 2
  }
}

/** Bytes per frame of the signals stored together in one .dat (fractional for 212 with odd count). */
export function wfdbBytesPerFrame(signalsInFile: readonly { format: WfdbFormat }[]): number {
  if (signalsInFile.length === 0) return 0
  return wfdbBytesPerSample(signalsInFile[0].format) * signalsInFile.length
}

/** The smallest run of whole frames that also ends on a whole byte: what the decoder decodes at a time. */
export function wfdbFrameUnit(format: WfdbFormat, nsig: number): { frames: number; bytes: number } {
  const frames = format === 212 && nsig % 2 === 1 ? 2 : 1
  return { frames, bytes: wfdbBytesPerSample(format) * nsig * frames }
}

/** Bytes that hold `samples` consecutive samples (212 ends a lone last sample in 2 bytes, as WFDB writes it). */
export function wfdbBytesForSamples(format: WfdbFormat, samples: number): number {
  if (format !== 212) return wfdbBytesPerSample(format) * samples
  return Math.floor(samples / 2) * 3 + (samples % 2) * 2
}
