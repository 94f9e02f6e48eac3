// The blind baseline: medoid (then the first answerer that applies) without train; on a leaky
// synthetic set made the way the public release's distractors are (timing lists perturbed around
// the truth, the largest count always right, diagnoses always C) it picks the answerer that
// exploits each leak and scores far above chance; on the generator's own leak-free items it stays
// near chance; open items as the prior baseline.
import { describe, expect, it } from 'vitest'
import type { QaItem } from '../../../src/core/items.ts'
import { createBlindBaseline } from '../../../src/models/baselines/blind.ts'
import { createPriorBaseline } from '../../../src/models/baselines/prior.ts'
import { createSeededRandom } from '../../../src/excerpts/seeded-random.ts'
import { shuffled } from '../../../src/qa/option-groups.ts'
import { formatOptions, TASKS_BY_TIER } from '../../../src/holtercare/format.ts'
import { contextOf, generateItems, letterOf } from './qa-items.ts'

// A closed item with `options` (the truth at `correct`), in the public format.
function closed(id: string, task: string, ask: string, options: string[], correct: number): QaItem {
  const excerpt = { id: `${id}:ex`, set: 'q', startSample: 0, endSample: 21_600, startMs: 0, endMs: 60_000 }
  return {
    kind: 'qa', id, recordId: id.split('/')[0], caseId: id.split('/')[0], split: 'train', taskType: task, tier: 'Closed-QA', excerpt,
    question: `The patient is a 60-year-old man. The excerpt shown covers 0 ms to 60000 ms of the recording (00:00:00 to 00:01:00). ${ask} ${formatOptions(options)}`,
    answer: `${'ABCD'[correct]}. ${options[correct]}`,
    gold: { choices: options, correct, evidenceBeats: [] }, inputs: {}, from: [excerpt.id], startSample: 0, endSample: 21_600,
  }
}

// Leaky items as the public release makes them: timing lists whose distractors each move one
// time of the truth (so the truth is the medoid), counts whose truth is always the largest,
// diagnoses always answered C; the truth's letter at random where the leak is not the letter.
function leaky(prefix: string, n: number): QaItem[] {
  const rng = createSeededRandom(prefix)
  const out: QaItem[] = []
  const place = <T>(truth: T, decoys: T[]) => {
    const at = rng.below(4)
    return { options: [...decoys.slice(0, at), truth, ...decoys.slice(at)], at }
  }
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i % 37}/${i}`
    const a = 5000 + rng.below(20_000)
    const b = a + 5000 + rng.below(20_000)
    const d = () => 300 + rng.below(2000)
    const t = place([a, b], [[a - d(), b], [a + d(), b], [a, b + d()]])
    out.push(closed(id, 'closed_event_timing', 'Which list gives every occurrence of premature ventricular contraction?', t.options.map((l) => l.join(', ')), t.at))
    const c = place(String(6 + rng.below(3)), shuffled(['0', '1', '2', '3', '4', '5'], rng).slice(0, 3))
    out.push(closed(id, 'closed_event_counting', 'How many beats of premature ventricular contraction does this excerpt contain?', c.options, c.at))
    const labels = ['Atrial Fibrillation', 'Atrial Flutter', 'Sinus Pause', 'Asystole']
    out.push(closed(id, 'closed_diagnosis', 'Which of the listed findings is present in this ECG excerpt?', [labels[i % 4], labels[(i + 1) % 4], labels[(i + 2) % 4], labels[(i + 3) % 4]], 2))
  }
  return out
}

const accuracy = (items: QaItem[], answer: (q: QaItem) => string) => items.filter((q) => letterOf(answer(q)) === q.gold.correct).length / items.length

describe('blind baseline', () => {
  it('uses medoid without train, the first answerer that applies where it abstains', () => {
    const blind = createBlindBaseline()
    expect(blind.chosen()).toEqual(Object.fromEntries(TASKS_BY_TIER['Closed-QA'].map((t) => [t, 'medoid'])))
    const q = closed('x/1', 'closed_diagnosis', 'Which one is present?', ['Asystole', 'Atrial Fibrillation', 'Sinus Pause'], 0)
    expect(blind.answer(q, contextOf(null, q))).toBe('B. Atrial Fibrillation') // longest text
    const t = closed('x/2', 'closed_HR_extremum_timing', 'When is the heart rate fastest?', ['1000 ms', '9000 ms', '9500 ms', '30000 ms'], 0)
    expect(blind.answer(t, contextOf(null, t))).toBe('B. 9000 ms') // the earlier of the middle two
  })

  it('picks the answerer that exploits each leak of a leaky train set and scores far above chance', () => {
    const blind = createBlindBaseline({ train: leaky('train', 300) })
    expect(blind.chosen()).toMatchObject({ closed_event_timing: 'medoid', closed_event_counting: 'largest', closed_diagnosis: 'train letter' })
    const test = leaky('test', 200)
    for (const task of ['closed_event_timing', 'closed_event_counting', 'closed_diagnosis']) {
      expect(accuracy(test.filter((q) => q.taskType === task), (q) => blind.answer(q, contextOf(null, q)))).toBe(1)
    }
  })

  it('stays near chance on the generator leak-free items, and answers open items as the prior baseline', () => {
    const train = generateItems('bt', 20, 'train').items
    const test = generateItems('be', 30, 'test').items
    const blind = createBlindBaseline({ train })
    const prior = createPriorBaseline(train)
    for (const task of TASKS_BY_TIER['Closed-QA']) {
      const closedItems = test.filter((q) => q.taskType === task && q.gold.choices)
      const chance = closedItems.reduce((s, q) => s + 1 / q.gold.choices!.length, 0) / closedItems.length
      const n = closedItems.length
      expect(accuracy(closedItems, (q) => blind.answer(q, contextOf(null, q)))).toBeLessThan(chance + 4 * Math.sqrt((chance * (1 - chance)) / n))
    }
    for (const q of test.filter((x) => x.tier !== 'Closed-QA')) expect(blind.answer(q, contextOf(null, q))).toBe(prior.answer(q, contextOf(null, q)))
  })
})
