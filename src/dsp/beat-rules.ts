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
  /** Roughness outside the QRS per mV of QRS (beat-features.ts). */
  noise: number
  /** RR before and after the beat and the running normal RR, ms (null when unknown). */
  rrPre: number | null
  rrPost: number | null
  rrRef: number | null
}

/** The AAMI class of one beat from its evidence. */
export function labelBeat(e: BeatEvidence): BeatLabel {
  if (e.spanMs === null) return 'Q'
  if (e.ptp < 0.05 || e.baselinePtp > 0.2 * e.ptp || e.noise > 0.025) return 'Q'
  const ref = e.rrRef
  if (e.rrPre !== null && ref !== null && e.rrPre < 0.5 * ref && e.corr < 0.8) return 'Q'
  const early = e.rrPre !== null && ref !== null && e.rrPre < 0.9 * ref
  const pause = e.rrPost !== null && ref !== null && e.rrPost > 1.1 * ref
  const timed = ref === null || early || pause
  const wider = e.spanMs >= 1.4 * e.domSpanMs && e.spanMs - e.domSpanMs >= 20
  const wide = e.spanMs >= 1.8 * e.domSpanMs && e.spanMs - e.domSpanMs >= 30
  const differs = e.corr < 0.8
  if (wide && differs && e.gain >= 0.5 && (e.corr < 0.6 || timed || e.gain >= 1)) return 'V'
  if (wider && e.corr < 0.7 && e.gain >= 0.7 && timed) return 'V'
  if (e.rrPre !== null && ref !== null && e.rrPre < 0.8 * ref && !wider && e.corr >= 0.8) return 'S'
  return 'N'
}
