// The blind baseline: the audit's best blind answerer (docs/qa-checks.md "Answerers"). Per closed
// task it answers with one answerer of src/qa/audit-answerers.ts: with train items, the one
// most often right on them (ties: the earlier in answerersFor's list), else `medoid`; where that
// answerer abstains (medoid on non-numeric options, a train letter for an option count train
// never had) the item goes to medoid, then to the first blind answerer that does not abstain.
// An answerer is scored with that fallback, over train items with options; the answerers that
// learn from train are scored out of fold (priors from the other half of the train cases), so a
// value prior is not credited for having memorised the items it is scored on. Free-text yes/no
// items: the train yes/no prior, else "Yes". Open items: as the prior baseline (prior.ts) with
// train, its fixed defaults without.
import type { Baseline, BaselineContext } from '../model.ts'
import type { QaItem } from '../../core/items.ts'
import { createSeededRandom } from '../../excerpts/seeded-random.ts'
import { BLIND_ANSWERERS, answerersFor, type Answerer } from '../../audit/answerers.ts'
import { closedQuestion, learnPriors, type ClosedQuestion } from '../../audit/priors.ts'
import { publicElement } from '../../holtercare/layout.ts'
import { TASKS_BY_TIER, type ClosedTask } from '../../holtercare/format.ts'
import { answerWith, type TaskAnswers } from './answer-by-task.ts'
import { readQuestion } from '../../qa/question-read.ts'
import { learnValuePriors } from './prior-values.ts'
import { priorAnswers } from './prior.ts'

const CLOSED_TASKS = TASKS_BY_TIER['Closed-QA']

/** A blind baseline that says which answerer it uses per closed task. */
export interface BlindBaseline extends Baseline {
  /** The answerer's name per closed task. */
  chosen(): Record<ClosedTask, string>
}

/** A blind baseline, choosing its answerers on `train` when given. */
export function createBlindBaseline(opts: { train?: readonly QaItem[] } = {}): BlindBaseline {
  const values = learnValuePriors(opts.train ?? [])
  const answerers = opts.train ? answerersFor(values.audit) : [...BLIND_ANSWERERS]
  const chosen = opts.train ? bestAnswerers(opts.train) : (Object.fromEntries(CLOSED_TASKS.map((t) => [t, 'medoid'])) as Record<ClosedTask, string>)
  const answers: TaskAnswers = {
    ...priorAnswers(values),
    option: (q, options) => {
      // An item of an unknown task type has no chosen answerer: medoid and the fallback, which read only the options.
      if (q.task === null) return pickWith(undefined, { task: 'closed_diagnosis', question: q.stem, options: [...options], gold: 0 })
      const byName = answerers.find((a) => a.name === chosen[q.task as ClosedTask])
      return pickWith(byName, { task: q.task, question: q.stem, options: [...options], gold: 0 })
    },
  }
  return {
    name: 'blind',
    answer: (item: QaItem, ctx: BaselineContext) => answerWith(answers, readQuestion(item, ctx.vocabulary), ctx.vocabulary) ?? '',
    chosen: () => ({ ...chosen }),
  }
}

const MEDOID = BLIND_ANSWERERS.find((a) => a.name === 'medoid')!

// The option `a` picks; where it abstains, medoid's, then the first blind answerer's that does not abstain; A when none applies.
function pickWith(a: Answerer | undefined, q: ClosedQuestion): number {
  for (const x of [a, MEDOID, ...BLIND_ANSWERERS]) {
    const pick = x?.pick(q) ?? null
    if (typeof pick === 'number') return pick
  }
  return 0
}

// Per closed task, the answerer most often right (with the fallback) on the train items that have options; medoid for a task without any.
function bestAnswerers(train: readonly QaItem[]): Record<ClosedTask, string> {
  const folds = train.map((q) => createSeededRandom(`blind-fold:${q.caseId}`).below(2))
  // Answerers for fold k's items learn from the other fold's items (of every task).
  const foldAnswerers = [1, 0].map((other) => answerersFor(learnPriors(train.filter((_, i) => folds[i] === other).map(publicElement))))
  const names = foldAnswerers[0].map((a) => a.name)
  const questions = train.flatMap((q, i) => {
    const c = closedQuestion(publicElement(q))
    return c?.options ? [{ c, fold: folds[i] }] : []
  })
  return Object.fromEntries(CLOSED_TASKS.map((task) => {
    const qs = questions.filter((q) => q.c.task === task)
    let best = { name: 'medoid', correct: -1 }
    if (qs.length) {
      names.forEach((name, j) => {
        const correct = qs.filter(({ c, fold }) => pickWith(foldAnswerers[fold][j], c) === c.gold).length
        if (correct > best.correct) best = { name, correct }
      })
    }
    return [task, best.name]
  })) as Record<ClosedTask, string>
}
