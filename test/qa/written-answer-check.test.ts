// The check of a model-written answer (src/qa/written-answer-check.ts): other words, never other facts.
import { describe, expect, it } from 'vitest'
import { checkWrittenAnswer, numbersIn } from '../../src/qa/written-answer-check.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'

const template = 'Yes, premature atrial contraction is present: 1 beat of this kind, the first at 355792 ms; they come early: a median of 536 ms after the beat before, against 803 ms for the interval before that (33 % premature); the interval after them is 939 ms, so the early beat and the pause after it span 1.84 times the preceding interval.'
const report = 'Over 30 min 6 s, 2,273 beats were recorded at a mean rate of 76 bpm. Conclusion: premature atrial contraction and premature ventricular contraction.'
const figures = { totalBeats: 2273, meanHrBpm: 75.5, durationMs: 1805556, findings: ['Premature Atrial Contraction', 'Premature Ventricular Contraction'] }
const reply = (answer: unknown) => JSON.stringify({ answer })
const check = (raw: string, t = template, facts: unknown = {}) => checkWrittenAnswer(raw, t, facts, DEFAULT_VOCABULARY)

describe('checkWrittenAnswer', () => {
  it('accepts the facts in other words, also inside a JSON code fence', () => {
    const written = 'Yes. 1 premature atrial contraction occurs, first at 355792 ms, coupled at 536 ms versus a preceding interval of 803 ms (33 % premature), followed by a 939 ms pause: 1.84 times the prior interval.'
    expect(check(reply(written))).toEqual({ ok: true, answer: written })
    expect(check('```json\n' + reply(written) + '\n```')).toMatchObject({ ok: true })
  })

  it('accepts a fact rounded (75.5 bpm as 76, or kept with its decimal) and figures written with separators', () => {
    const written = 'Over 30 min 6 s the recording holds 2,273 beats at a mean of 75.5 bpm; it shows premature atrial contraction and premature ventricular contraction.'
    expect(check(reply(written), report, figures)).toMatchObject({ ok: true })
    expect(check(reply(written.replace('75.5', '76')), report, figures)).toMatchObject({ ok: true })
  })

  it.each([
    ['not JSON', 'Yes, it is present.', /not the JSON object/],
    ['no answer field', JSON.stringify({ text: 'Yes' }), /no "answer" text/],
    ['the yes/no turned', reply('No, there is no premature atrial contraction, although 1 beat at 355792 ms looks early.'), /answers "yes" first/],
    ['a number changed', reply('Yes: 1 premature atrial contraction at 355793 ms.'), /states 355793/],
    ['a number added', reply('Yes: 2 premature atrial contractions at 355792 ms.'), /states 2,/],
    ['a finding added', reply('Yes: 1 premature atrial contraction at 355792 ms, and atrial fibrillation.'), /names Atrial Fibrillation/],
    ['the finding dropped', reply('Yes: 1 early beat at 355792 ms.'), /leaves out Premature Atrial Contraction/],
  ])('rejects %s', (_, raw, reason) => {
    const v = check(raw)
    expect(v.ok).toBe(false)
    expect((v as { reason: string }).reason).toMatch(reason)
  })

  it.each([
    ['a number spelled out', reply(`Yes. Three premature atrial contractions, the first at 355792 ms; 536 ms after the beat before against 803 ms (33 % premature); 939 ms after, 1.84 times.`), /spells a number out \("Three"\)/],
    ['a number of the template dropped', reply('Yes: premature atrial contraction is present, first at 355792 ms, coming early (536 ms against 803 ms, 33 % premature).'), /leaves out 1,|leaves out 939/],
    ['the event negated', reply('Yes, but no premature atrial contraction is present: 1 beat at 355792 ms, 536 ms against 803 ms (33 % premature), 939 ms after, 1.84 times.'), /negates Premature Atrial Contraction/],
    ['a finding outside the vocabulary', reply('Yes: 1 premature atrial contraction at 355792 ms, 536 ms against 803 ms (33 % premature), 939 ms after, 1.84 times; signs of myocardial infarction.'), /finding the facts do not \(infarction\)/],
    ['a clock time the facts do not hold', reply('Yes: 1 premature atrial contraction at 00:12:05, 536 ms against 803 ms (33 % premature), 939 ms after, 1.84 times.'), /time 00:12:05/],
  ])('rejects %s', (_, raw, reason) => {
    const v = check(raw)
    expect(v.ok).toBe(false)
    expect((v as { reason: string }).reason).toMatch(reason)
  })

  it('reads numbers with thousands separators and decimals, not digits inside words', () => {
    expect(numbersIn('2,273 beats at 75.5 bpm, 12 ms, lead V1, 1.84 times; 00:05:13')).toEqual([2273, 75.5, 12, 1.84, 0, 5, 13])
  })
})
