// What a counting or timing question counts (unit layer, table-driven, the default vocabulary):
// a beat event counts its beats, those in couplets and runs too; every other event counts
// episodes, with the rule that makes one from its source (run lengths, geminy cycles, RR limits,
// sustained rates) and where an episode is timed; sinus pauses are counted as pauses.
import { describe, expect, it } from 'vitest'
import { countWords, isRateEvent, withArticle } from '../../src/qa/count-words.ts'
import { DEFAULT_VOCABULARY, type VocabularyEvent } from '../../src/qa/vocabulary.ts'

const words = (name: string, vocab: readonly VocabularyEvent[] = DEFAULT_VOCABULARY) => countWords(name, vocab)
const FIRST_BEAT = ' (timed at its first beat)'
const ONSET = ' (timed at its onset)'

describe('countWords', () => {
  it.each([
    { name: 'Premature Ventricular Contraction', plural: 'premature ventricular contraction beats', singular: 'premature ventricular contraction beat', rule: 'every such beat counts, those in couplets and runs too', timedAt: '' },
    { name: 'Premature Atrial Contraction', plural: 'premature atrial contraction beats', singular: 'premature atrial contraction beat', rule: 'every such beat counts, those in couplets and runs too', timedAt: '' },
    { name: 'Atrial Couplet', plural: 'episodes of atrial couplet', singular: 'episode of atrial couplet', rule: '2 consecutive supraventricular beats make one', timedAt: FIRST_BEAT },
    { name: 'Ventricular Couplet', plural: 'episodes of ventricular couplet', singular: 'episode of ventricular couplet', rule: '2 consecutive ventricular beats make one', timedAt: FIRST_BEAT },
    { name: 'Ventricular Tachycardia', plural: 'episodes of ventricular tachycardia', singular: 'episode of ventricular tachycardia', rule: 'a run of 3 or more consecutive ventricular beats is one episode', timedAt: FIRST_BEAT },
    { name: 'Atrial Tachycardia', plural: 'episodes of atrial tachycardia', singular: 'episode of atrial tachycardia', rule: 'a run of 3 or more consecutive supraventricular beats is one episode', timedAt: FIRST_BEAT },
    { name: 'Ventricular Bigeminy', plural: 'episodes of ventricular bigeminy', singular: 'episode of ventricular bigeminy', rule: '3 or more cycles in a row make one episode', timedAt: FIRST_BEAT },
    { name: 'Sinus Pause', plural: 'sinus pauses', singular: 'sinus pause', rule: 'each RR interval over 2 s and up to 3 s is one', timedAt: ' (timed at the beat before the interval)' },
    { name: 'Asystole', plural: 'episodes of asystole', singular: 'episode of asystole', rule: 'each RR interval over 3 s is one', timedAt: ' (timed at the beat before the interval)' },
    { name: 'Sinus Tachycardia', plural: 'episodes of sinus tachycardia', singular: 'episode of sinus tachycardia', rule: 'the heart rate staying above 100 bpm for 30 s or more is one episode', timedAt: FIRST_BEAT },
    { name: 'Sinus Bradycardia', plural: 'episodes of sinus bradycardia', singular: 'episode of sinus bradycardia', rule: 'the heart rate staying below 60 bpm for 30 s or more is one episode', timedAt: FIRST_BEAT },
    { name: 'Atrial Fibrillation', plural: 'episodes of atrial fibrillation', singular: 'episode of atrial fibrillation', rule: 'each onset is one episode', timedAt: ONSET },
    { name: 'First-degree AV Block', plural: 'episodes of first-degree AV block', singular: 'episode of first-degree AV block', rule: 'each onset is one episode', timedAt: ONSET },
    { name: 'Not In The Table', plural: 'episodes of not in the table', singular: 'episode of not in the table', rule: 'each onset is one episode', timedAt: ONSET },
  ])('$name', ({ name, ...expected }) => {
    expect(words(name)).toEqual(expected)
  })

  // The rules come from the vocabulary entry, so a dataset's own table is said in its own terms.
  it.each([
    { source: { run: { of: 'V' as const, min: 4, max: 4 } }, rule: '4 consecutive ventricular beats make one' },
    { source: { run: { of: 'S' as const, min: 5 } }, rule: 'a run of 5 or more consecutive supraventricular beats is one episode' },
    { source: { geminy: { of: 'V' as const, period: 3 as const, minCycles: 2 } }, rule: '2 or more cycles in a row make one episode' },
    { source: { rr: { aboveMs: 2500 } }, rule: 'each RR interval over 2.5 s is one' },
    { source: { hr: { aboveBpm: 120, sustainSec: 10 } }, rule: 'the heart rate staying above 120 bpm for 10 s or more is one episode' },
  ])('a table\'s own $source', ({ source, rule }) => {
    const vocab: VocabularyEvent[] = [{ name: 'Custom Finding', public: false, family: 'rhythm', source }]
    expect(words('Custom Finding', vocab).rule).toBe(rule)
    expect(words('Custom Finding', vocab).plural).toBe('episodes of custom finding')
  })
})

describe('isRateEvent and withArticle', () => {
  it.each([
    { name: 'Sinus Tachycardia', rate: true },
    { name: 'Sinus Bradycardia', rate: true },
    { name: 'Premature Ventricular Contraction', rate: false },
    { name: 'Ventricular Tachycardia', rate: false },
    { name: 'Atrial Fibrillation', rate: false },
    { name: 'Not In The Table', rate: false },
  ])('$name: a sustained rate $rate', ({ name, rate }) => {
    expect(isRateEvent(name, DEFAULT_VOCABULARY)).toBe(rate)
  })

  it.each([
    ['episode of asystole', 'an episode of asystole'],
    ['premature ventricular contraction beat', 'a premature ventricular contraction beat'],
    ['Atrial couplet', 'an Atrial couplet'],
    ['sinus pause', 'a sinus pause'],
  ])('%s -> %s', (phrase, expected) => {
    expect(withArticle(phrase)).toBe(expected)
  })
})
