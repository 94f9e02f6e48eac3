// The 17 criteria of ScoreGPT (benchmark-spec.md, Metrics: ScoreGPT), each with a short
// definition in our words, and which of them a task is judged on. Keys stay "1".."17" whatever
// the subset, so a criterion means the same thing in every report.
// The statistical overview states figures only (duration, beats, mean and extreme rates and their
// times, time above 100 and below 60 bpm): it is judged on what such an answer can get right or
// wrong, the figures (1-3), inventing or misweighing (10, 11), terminology (15) and numbers and
// units (16). Rhythm, ectopy, events, conduction and ST (4-9) are not asked; conclusions,
// narrative, ordering and caveats (12-14, 17) would reward prose the question does not want.
import { PipelineError } from '../core/errors.ts'

export interface JudgeCriterion {
  key: string
  title: string
  definition: string
}

export const JUDGE_CRITERIA: readonly JudgeCriterion[] = [
  { key: '1', title: 'Recording figures', definition: 'duration, total beat count and mean heart rate agree with the reference' },
  { key: '2', title: 'Heart-rate extremes', definition: 'fastest and slowest heart rate, and their times when the reference gives them' },
  { key: '3', title: 'Rate burden', definition: 'share of time above 100 bpm (tachycardia) and below 60 bpm (bradycardia)' },
  { key: '4', title: 'Underlying rhythm', definition: 'the dominant rhythm (sinus, atrial fibrillation, paced...) named as in the reference' },
  { key: '5', title: 'Ectopy totals', definition: 'atrial and ventricular premature beat counts and their share of all beats' },
  { key: '6', title: 'Ectopy pattern', definition: 'singles, pairs (couplets) and runs, and bigeminy or trigeminy episodes, as the reference counts them' },
  { key: '7', title: 'Serious events', definition: 'every serious event of the reference (ventricular tachycardia, fibrillation or flutter, asystole, long pauses, high-grade block) is reported' },
  { key: '8', title: 'Conduction and pacing', definition: 'AV and bundle-branch blocks, pre-excitation and paced beats as in the reference' },
  { key: '9', title: 'ST and T changes', definition: 'ST-segment and T-wave changes as in the reference' },
  { key: '10', title: 'Nothing invented', definition: 'no finding, event or number that the reference does not support' },
  { key: '11', title: 'Right weight', definition: 'findings neither exaggerated nor played down (a rare ectopic beat is not "frequent", a run of VT is not "a few extra beats")' },
  { key: '12', title: 'Justified conclusions', definition: 'every conclusion or impression follows from the figures stated' },
  { key: '13', title: 'Clinical narrative', definition: 'reads as a coherent clinical report, not a bare list of numbers' },
  { key: '14', title: 'Order of importance', definition: 'the most significant findings come before minor ones' },
  { key: '15', title: 'Terminology', definition: 'correct, standard cardiology terms and abbreviations' },
  { key: '16', title: 'Numbers and units', definition: 'numbers consistent with each other (a breakdown adds up to its total) and in the right units (bpm, %, ms, hours)' },
  { key: '17', title: 'Caveats', definition: 'limits stated where they apply (noisy or unmeasurable periods, uncertainty) without hedging everything' },
]

/** The task types ScoreGPT judges, with the criteria keys each is scored on. */
export const JUDGED_TASKS: Readonly<Record<string, readonly string[]>> = {
  report_general_summary: JUDGE_CRITERIA.map((c) => c.key),
  report_statistical_overview: ['1', '2', '3', '10', '11', '15', '16'],
}

/** The criteria keys `taskType` is judged on; E_USAGE for a task the judge does not score. */
export function judgeCriteria(taskType: string): readonly string[] {
  const keys = Object.hasOwn(JUDGED_TASKS, taskType) ? JUDGED_TASKS[taskType] : undefined
  if (!keys) throw new PipelineError('E_USAGE', `ScoreGPT judges report tasks only (${Object.keys(JUDGED_TASKS).join(', ')}), not "${taskType}"; score that task with its own metric`, { field: 'taskType' })
  return keys
}
