// The gold of a public Holtercare element (`pipeline score --qa`), which has no structured gold:
// it is read from the answer text with the same parsers as a model's answer (answer-parse.ts), so
// the public release can be scored like our own runs:
//   closed with options   the answer's letter ("D. 1", splitAnswer) among the inline options;
//   closed presence       yes/no read from the answer ("No, no clear evidence of ...");
//   open counting, HR     the count, the timestamp in ms;
//   open event timing     the list of timestamps;
//   open diagnosis        the labels named, among the public release's 22 event names;
//   open evidence         yes/no;
//   reports               none needed (text metrics against the answer).
// An answer that does not parse gives no gold and says why: the item is reported, never guessed.
// Pure.
import { isUnparsed, parseLabels, parseNumberAnswer, parseTimestampList, parseYesNo } from '../metrics/answer-parse.ts'
import { LETTERS, splitAnswer, splitOptions, type HoltercareItem } from '../holtercare/format.ts'
import type { ScoreQa } from './score-types.ts'
import { taskKind } from './task-metrics.ts'

/** The event names of the public release (benchmark-spec.md, "Facts of the public release"). */
export const PUBLIC_EVENT_NAMES: readonly string[] = [
  'Premature Atrial Contraction', 'Premature Ventricular Contraction', 'Atrial Tachycardia', 'Atrial Flutter',
  'Atrial Fibrillation', 'Ventricular Tachycardia', 'Polymorphic Ventricular Tachycardia', 'Torsades de Pointes',
  'Ventricular Flutter', 'Ventricular Flutter (Coarse)', 'Ventricular Fibrillation', 'Asystole', 'Sinus Pause',
  'Sinus Tachycardia', 'Sinus Bradycardia', 'First-degree AV Block', 'Second-degree AV Block Mobitz I',
  'Second-degree AV Block Mobitz II', '2:1 AV Conduction Block', 'Third-degree AV Block', 'Junctional Escape Rhythm',
  'Ventricular Escape Rhythm',
]

/** A public element as scoring reads it; `id` names it (split/task/index), the case is its `id`. */
export function publicScoreQa(el: HoltercareItem, id: string, names: readonly string[] = PUBLIC_EVENT_NAMES): ScoreQa {
  const base = { id, caseId: el.id, taskType: el.task_type, question: el.qa_pair.question, answer: el.qa_pair.answer }
  const g = publicGold(el, names)
  return 'problem' in g ? { ...base, gold: null, goldProblem: g.problem } : { ...base, gold: g.gold }
}

function publicGold(el: HoltercareItem, names: readonly string[]): { gold: NonNullable<ScoreQa['gold']> } | { problem: string } {
  const answer = el.qa_pair.answer
  const fail = (what: string, r?: { unparsed: string }) => ({ problem: `the answer gives no ${what}${r ? ` (${r.unparsed})` : ''}: ${JSON.stringify(answer.slice(0, 80))}` })
  const yesNo = () => {
    const r = parseYesNo(answer)
    return isUnparsed(r) ? fail('yes/no', r) : { gold: { value: r } }
  }
  switch (taskKind(el.task_type)) {
    case 'choice': {
      const options = splitOptions(el.qa_pair.question)?.options.map((o) => o.text)
      if (!options) return yesNo()
      const letter = splitAnswer(answer)?.letter
      const correct = letter ? LETTERS.indexOf(letter as (typeof LETTERS)[number]) : -1
      if (correct < 0 || correct >= options.length) return fail(`option letter among ${options.length} options`)
      return { gold: { choices: options, correct } }
    }
    case 'count':
    case 'timestamp': {
      const r = parseNumberAnswer(answer, { kind: taskKind(el.task_type) as 'count' | 'timestamp' })
      return isUnparsed(r) ? fail('number', r) : { gold: { value: r.value } }
    }
    case 'timestamps': {
      const r = parseTimestampList(answer)
      return isUnparsed(r) ? fail('timestamps', r) : { gold: { value: r.values.length, timestampsMs: r.values } }
    }
    case 'labels': {
      const r = parseLabels(answer, names)
      return isUnparsed(r) ? fail('labels', r) : { gold: { labels: r.labels } }
    }
    case 'yesno':
      return yesNo()
    case 'report':
      return { gold: {} }
    default:
      return { problem: `unknown task type ${el.task_type}` }
  }
}
