// Agreement of a delineation with a reference one, feature by feature, on the same R peaks:
// whether both mark the feature (presence agreement over every beat), and, over the beats both
// mark, the share within a tolerance and the median absolute difference. A reference's "marks
// nothing" is null (NeuroKit2 writes NaN). Pure.

export interface FeatureAgreement {
  beats: number
  /** Beats where both mark the feature, or neither does. */
  presenceAgree: number
  bothMarked: number
  oursOnly: number
  referenceOnly: number
  /** Of the beats both mark, those within the tolerance. */
  within: number
  medianAbsMs: number | null
}

/** Agreement of `ours` with `reference` (sample index or null per beat) at `toleranceMs`. */
export function featureAgreement(ours: readonly (number | null)[], reference: readonly (number | null)[], fs: number, toleranceMs: number): FeatureAgreement {
  if (ours.length !== reference.length) throw new RangeError(`featureAgreement: ${ours.length} beats against ${reference.length}`)
  const marked = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)
  let presenceAgree = 0
  let oursOnly = 0
  let referenceOnly = 0
  let within = 0
  const diffs: number[] = []
  for (let i = 0; i < ours.length; i++) {
    const a = ours[i]
    const b = reference[i]
    if (marked(a) === marked(b)) presenceAgree++
    else if (marked(a)) oursOnly++
    else referenceOnly++
    if (marked(a) && marked(b)) {
      const ms = (Math.abs(a - b) * 1000) / fs
      diffs.push(ms)
      if (ms <= toleranceMs) within++
    }
  }
  diffs.sort((x, y) => x - y)
  const m = diffs.length
  const medianAbsMs = m === 0 ? null : m % 2 ? diffs[(m - 1) / 2] : (diffs[m / 2 - 1] + diffs[m / 2]) / 2
  return { beats: ours.length, presenceAgree, bothMarked: m, oursOnly, referenceOnly, within, medianAbsMs }
}
