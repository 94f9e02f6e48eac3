// The beat classifier's decision (beat-classifier.ts), a pure function of one beat's evidence.
export type BeatLabel = 'N' | 'S' | 'V' | 'F' | 'Q'

export interface BeatEvidence {
  /** QRS span of the beat and of the dominant template, ms (null: no usable waveform). */
  spanMs: number | null
  domSpanMs: number
  /** Correlation with the dominant template and amplitude relative to it. */
  corr: number
  gain: number
  /** QRS peak-to-peak, mV, and the peak-to-peak of its flattest baseline stretch. */
  ptp: number
  baselinePtp: number
  /** RR before and after the beat and the running normal RR, ms (null when unknown). */
  rrPre: number | null
  rrPost: number | null
  rrRef: number | null
}

/** The AAMI class of one beat from its evidence. */
export function labelBeat(e: BeatEvidence): BeatLabel {
  if (e.spanMs === null) return 'Q'
  if (e.ptp < 0.05 || e.baselinePtp > 0.5 * e.ptp) return 'Q'
  const premature = e.rrPre !== null && e.rrRef !== null && e.rrPre < 0.85 * e.rrRef
  const pause = e.rrPre !== null && e.rrPost !== null && e.rrRef !== null && e.rrPre + e.rrPost >= 1.8 * e.rrRef
  const wide = e.spanMs >= 1.5 * e.domSpanMs && e.spanMs - e.domSpanMs >= 20
  const differs = e.corr < 0.8
  if (wide && differs) return 'V'
  if (differs && premature && pause && e.corr < 0.6) return 'V'
  if (premature && e.rrPre! < 0.8 * e.rrRef!) return 'S'
  return 'N'
}
