// Beat-by-beat statistics from a match, as ANSI/AAMI EC57 defines them and WFDB's bxb prints
// them (bxb.c print_results). The confusion matrix has reference classes as rows (N S V F Q,
// then O = no reference beat: an extra detection) and detected classes as columns (n s v f q,
// then o = not detected). bxb's X row/column (beats inside a reference shutdown) is not kept:
// our references carry no shutdown marks, so X would always be zero.
//   QRS:  TP = all matched pairs, FN = column o, FP = row O.
//   VEB:  TP = Vv; FN = Vn+Vs+Vf+Vq+Vo; FP = Nv+Sv+Ov. Fv and Qv are not errors (EC57: a
//         fusion or unclassifiable beat called V is not penalized).
//   SVEB: TP = Ss; FN = Sn+Sv+Sf+Sq+So; FP = Ns+Vs+Fs+Os (Qs is not penalized either).
// The EC57 skip (default 5 min, bxb -f) is applied after one matching over the whole record,
// so a beat just before the boundary can still be the partner of one just after it: a pair
// counts when its reference beat is in the period, an unpaired beat when it is itself in it.
import { AAMI_CLASSES, type BeatSeries } from '../formats/aami-classes.ts'
import { DEFAULT_MATCH_WINDOW_MS, type BeatMatch, matchBeats, matchWindowSamples } from './ec57-match.ts'

/** Row/column index of "no partner": row O (extra detection), column o (not detected). */
export const NO_BEAT = 5

/** EC57's learning period, excluded from the statistics it asks for. */
export const EC57_SKIP_MS = 5 * 60_000

/** A ratio as bxb prints it: pct = 100 * num / den, null when den is 0 (bxb prints "-"). */
export interface Ratio {
  num: number
  den: number
  pct: number | null
}

/** Statistics of one scoring period of one record (or gross, over several). */
export interface BxbStats {
  /** First sample of the scored period (0 for the whole record). */
  startSample: number
  /** 6x6 counts, [ref N S V F Q O][test n s v f q o]; [O][o] is always 0. */
  confusion: number[][]
  refBeats: number
  detections: number
  matched: number
  missed: number
  extra: number
  qrsSe: Ratio
  qrsPP: Ratio
  vebSe: Ratio
  vebPP: Ratio
  /** VEB false positive rate: VFP / (VTN + VFP), bxb's "V FPR". */
  vebFpr: Ratio
  svebSe: Ratio
  svebPP: Ratio
}

/** Whole-record and post-skip statistics from one matching, with the match itself. */
export interface BeatScore {
  whole: BxbStats
  afterSkip: BxbStats
  match: BeatMatch
}

export interface ScoreOptions {
  /** Sampling rate of both series, Hz. */
  fs: number
  windowMs?: number
  /** Length of the excluded start of the record for `afterSkip`; EC57 uses 5 min. */
  skipMs?: number
}

/** Matches reference and detected beats once and scores the whole record and the EC57 period. */
export function scoreBeats(ref: BeatSeries, test: BeatSeries, options: ScoreOptions): BeatScore {
  const match = matchBeats(ref.samples, test.samples, matchWindowSamples(options.fs, options.windowMs ?? DEFAULT_MATCH_WINDOW_MS))
  const skipSample = Math.round(((options.skipMs ?? EC57_SKIP_MS) * options.fs) / 1000)
  return { whole: tallyMatch(match, ref, test, 0), afterSkip: tallyMatch(match, ref, test, skipSample), match }
}

/** Counts a match into a confusion matrix over beats at or after startSample, then the ratios. */
export function tallyMatch(match: BeatMatch, ref: BeatSeries, test: BeatSeries, startSample: number): BxbStats {
  const confusion = emptyConfusion()
  for (let i = 0; i < ref.samples.length; i++) {
    if (ref.samples[i] < startSample) continue
    const j = match.refToTest[i]
    confusion[ref.classes[i]][j < 0 ? NO_BEAT : test.classes[j]]++
  }
  for (let j = 0; j < test.samples.length; j++) {
    if (match.testToRef[j] < 0 && test.samples[j] >= startSample) confusion[NO_BEAT][test.classes[j]]++
  }
  return statsFromConfusion(confusion, startSample)
}

/** Gross statistics: EC57 sums the matrices of all records, then computes the ratios once. */
export function grossStats(records: readonly BxbStats[]): BxbStats {
  const confusion = emptyConfusion()
  for (const r of records) r.confusion.forEach((row, a) => row.forEach((n, b) => (confusion[a][b] += n)))
  return statsFromConfusion(confusion, 0)
}

/** All ratios of a confusion matrix laid out as in BxbStats. */
export function statsFromConfusion(confusion: number[][], startSample: number): BxbStats {
  const [N, S, V, F, Q, O] = [0, 1, 2, 3, 4, NO_BEAT]
  const c = (r: number, t: number) => confusion[r][t]
  const sum = (rows: number[], cols: number[]) => rows.reduce((acc, r) => acc + cols.reduce((a, t) => a + c(r, t), 0), 0)
  const beats = [N, S, V, F, Q]
  const matched = sum(beats, beats)
  const missed = sum(beats, [O])
  const extra = sum([O], beats)
  const vTP = c(V, V)
  const vFN = sum([V], [N, S, F, Q, O])
  const vFP = sum([N, S, O], [V])
  const vTN = sum([N, S, F, Q, O], [N, S, F, Q])
  const sTP = c(S, S)
  const sFN = sum([S], [N, V, F, Q, O])
  const sFP = sum([N, V, F, O], [S])
  return {
    startSample,
    confusion,
    refBeats: matched + missed,
    detections: matched + extra,
    matched,
    missed,
    extra,
    qrsSe: ratio(matched, matched + missed),
    qrsPP: ratio(matched, matched + extra),
    vebSe: ratio(vTP, vTP + vFN),
    vebPP: ratio(vTP, vTP + vFP),
    vebFpr: ratio(vFP, vTN + vFP),
    svebSe: ratio(sTP, sTP + sFN),
    svebPP: ratio(sTP, sTP + sFP),
  }
}

function ratio(num: number, den: number): Ratio {
  return { num, den, pct: den > 0 ? (100 * num) / den : null }
}

function emptyConfusion(): number[][] {
  return Array.from({ length: AAMI_CLASSES.length + 1 }, () => new Array<number>(AAMI_CLASSES.length + 1).fill(0))
}
