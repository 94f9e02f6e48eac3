// The random baseline: a random option for closed items, yes or no, and a random plausible value
// for open items (a count of 0..RANDOM_MAX_COUNT, times inside the excerpt's span, vocabulary
// labels, a generic report, a value in a plausible range, any class). Every answer comes from a stream seeded by (seed, item id), so it
// is the same on every run and does not depend on which items were answered before it.
import type { Baseline, BaselineContext } from '../model.ts'
import type { QaItem } from '../../core/items.ts'
import { createSeededRandom, type SeededRandom } from '../../excerpts/seeded-random.ts'
import { shuffled } from '../../qa/option-groups.ts'
import { NORMAL_SINUS_RHYTHM } from '../../qa/vocabulary.ts'
import { answerWith, type TaskAnswers } from './answer-by-task.ts'
import { genericReport } from '../../qa/answer-text.ts'
import { readQuestion, type Question } from '../../qa/question-read.ts'

/** The largest count the random baseline answers (public counts are 1-10, mostly 1-3). */
export const RANDOM_MAX_COUNT = 5

/** The ranges random values are drawn from, per regression task: RR intervals of 43-150 bpm, adult ages. */
export const RANDOM_RANGES: Readonly<Record<string, readonly [number, number]>> = { rr_interval: [400, 1400], age: [20, 90] }

/** A random baseline seeded by `seed`. */
export function createRandomBaseline(seed: string | number): Baseline {
  return {
    name: 'random',
    answer(item: QaItem, ctx: BaselineContext): string {
      const rng = createSeededRandom(`random:${seed}:${item.id}`)
      return answerWith(randomAnswers(rng, ctx), readQuestion(item, ctx.vocabulary), ctx.vocabulary) ?? ''
    },
  }
}

function randomAnswers(rng: SeededRandom, ctx: BaselineContext): TaskAnswers {
  const inSpan = (q: Question) => Math.round(q.span.startMs + rng.next() * Math.max(0, q.span.endMs - q.span.startMs))
  return {
    option: (_q, options) => rng.below(options.length),
    yes: () => rng.below(2) === 0,
    count: () => rng.below(RANDOM_MAX_COUNT + 1),
    times: (q) => Array.from({ length: 1 + rng.below(3) }, () => inSpan(q)).sort((a, b) => a - b),
    extreme: (q) => ({ timeMs: inSpan(q), bpm: null }),
    labels: () => {
      const n = rng.below(3)
      return n === 0 ? [NORMAL_SINUS_RHYTHM] : shuffled(ctx.vocabulary.map((e) => e.name), rng).slice(0, n)
    },
    report: (q, kind) => genericReport(q.span, kind),
    estimate: (_q, task) => {
      const r = RANDOM_RANGES[task]
      return r ? Math.round(r[0] + rng.next() * (r[1] - r[0])) : null
    },
    classify: (_q, _task, classes) => rng.below(classes.length),
  }
}
