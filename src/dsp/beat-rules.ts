// The beat classifier's decision (beat-classifier.ts header lists the rules), pure functions of
// one beat's evidence. Thresholds are clinical or physiological orders of magnitude, not fits to
// single records: a PVC is wide (QRS >= 120 ms against 80-100 ms), unlike the sinus beat and
// usually premature with a compensatory pause and a larger amplitude; an APC is premature with
// the sinus shape; an artifact has rough baseline or comes at under half a cycle. Every relative
// threshold compares with the patient's own dominant beat and running normal RR.
export type BeatLabel = 'N' | 'S' | 'V' | 'F' | 'Q'

export interface BeatEvidence {
  /** QRS span of the beat and of the dominant template, ms. */
  spanMs: number
  domSpanMs: number
  /** Correlation with the dominant template and amplitude relative to it. */
  corr: number
  gain: number
  /** RR before and after the beat and the running normal RR, ms (null when unknown). */
  rrPre: number | null
  rrPost: number | null
  rrRef: number | null
  /** Median successive difference of normal RR per normal RR (beat-rhythm.ts). */
  irregularity: number
  /** The previous beat was labelled N or S (its prematurity is then measured from a sinus cycle). */
  afterSupraventricular: boolean
}

/** The features that make a beat unclassifiable before any template is consulted. */
export interface BeatQuality {
  /** QRS peak-to-peak, mV, and the peak-to-peak of its flattest baseline stretch. */
  ptp: number
  baselinePtp: number
  /** Roughness outside the QRS per mV of QRS (beat-features.ts). */
  noise: number
}

// Below this a "QRS" is a flat line (mV), and past these shares of the QRS the baseline is noise.
const FLAT_MV = 0.05
const MAX_BASELINE_SHARE = 0.2
const MAX_NOISE = 0.025
const MAX_IRREGULARITY = 0.1

/** True when the beat is flat or noisy: labelled Q, and kept out of the templates. */
export function isUnclassifiable(q: BeatQuality): boolean {
  return q.ptp < FLAT_MV || q.baselinePtp > MAX_BASELINE_SHARE * q.ptp || q.noise > MAX_NOISE
}

/** The AAMI class of one (classifiable) beat from its evidence. */
export function labelBeat(e: BeatEvidence): BeatLabel {
  const ref = e.rrRef
  const rrShare = e.rrPre !== null && ref !== null ? e.rrPre / ref : null
  // Under half a cycle and unlike the normal beat: a spike or a T wave detected, not a beat.
  if (rrShare !== null && rrShare < 0.5 && e.corr < 0.8) return 'Q'
  const early = rrShare !== null && rrShare < 0.9
  const pause = e.rrPost !== null && ref !== null && e.rrPost > 1.1 * ref
  const timed = ref === null || early || pause
  const wider = e.spanMs >= 1.4 * e.domSpanMs && e.spanMs - e.domSpanMs >= 20
  const wide = e.spanMs >= 1.8 * e.domSpanMs && e.spanMs - e.domSpanMs >= 30
  if (wide && e.corr < 0.8 && e.gain >= 0.5 && (e.corr < 0.6 || timed || e.gain >= 1)) return 'V'
  if (wider && e.corr < 0.7 && e.gain >= 0.7 && timed) return 'V'
  // An APC is early against a regular rhythm; in an irregular one (atrial fibrillation) it is not.
  if (e.afterSupraventricular && e.irregularity < MAX_IRREGULARITY && rrShare !== null && rrShare < 0.8 && !wider && e.corr >= 0.8) return 'S'
  return 'N'
}
