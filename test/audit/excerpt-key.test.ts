// Which items share an excerpt (src/audit/excerpt-key.ts) and the findings a question names
// (src/audit/mentions.ts): the span sentences the qa stage writes, thousands separators, and
// names matched longest first, whatever their case, on word boundaries only.
import { describe, expect, it } from 'vitest'
import { excerptKey, statedSpan } from '../../src/audit/excerpt-key.ts'
import { createNameFinder } from '../../src/audit/mentions.ts'
import { spanSentence } from '../../src/qa/phrasing.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'

describe('statedSpan', () => {
  const cases: [string, { startMs: number; endMs: number } | null][] = [
    ['The excerpt shown covers 60000 ms to 120000 ms of the recording (00:01:00 to 00:02:00).', { startMs: 60000, endMs: 120000 }],
    ['You are shown the part of the recording from 60000 ms to 120000 ms (00:01:00-00:02:00).', { startMs: 60000, endMs: 120000 }],
    ['The ECG excerpt runs from 60000 ms to 120000 ms after the recording started (00:01:00-00:02:00).', { startMs: 60000, endMs: 120000 }],
    ['The excerpt shown covers 7,396,010 ms to 7,456,010 ms of the recording.', { startMs: 7396010, endMs: 7456010 }],
    ['A 60-year-old male. It covers 0 ms until 30000 ms. Is there a pause? A. Yes; B. No', { startMs: 0, endMs: 30000 }],
    ['Two spans: 1000 ms to 2000 ms, then 5000 ms to 9000 ms.', { startMs: 1000, endMs: 2000 }],
    ['The span 120000 ms to 60000 ms runs backwards.', null],
    ['The span 60000 ms to 60000 ms is empty.', null],
    ['At which ms? A. 61000 ms; B. 62000 ms; C. 63000 ms; D. 64000 ms', null],
    ['This recording is from a 84-year-old male. Does this waveform show sinus bradycardia?', null],
  ]
  it.each(cases)('%s', (text, want) => expect(statedSpan(text)).toEqual(want))

  it('reads back every span sentence the qa stage writes, in each of its phrasings', () => {
    const openings = new Set<string>()
    for (let seed = 0; seed < 60; seed++) {
      const start = 60000 * seed
      const sentence = spanSentence(start, start + 600_000, createSeededRandom(seed))
      openings.add(sentence.slice(0, 12))
      expect(statedSpan(sentence), sentence).toEqual({ startMs: start, endMs: start + 600_000 })
    }
    expect(openings.size).toBe(3)
  })

  it('keys items by case and span, by case alone without a span', () => {
    expect(excerptKey('A100', 'The excerpt shown covers 60000 ms to 120000 ms of the recording. How many?')).toBe('A100|60000-120000')
    expect(excerptKey('A100', 'You are shown the part of the recording from 60,000 ms to 120,000 ms. Is it there?')).toBe('A100|60000-120000')
    expect(excerptKey('A100', 'How many PACs are visible in this recording?')).toBe('A100')
  })
})

describe('createNameFinder', () => {
  const finder = createNameFinder(['Couplet', 'AV'])
  const cases: [string, string[]][] = [
    ['Is a ventricular couplet present?', ['ventricular couplet']],
    ['A couplet, then a Ventricular Couplet, then a couplet again.', ['couplet', 'ventricular couplet']],
    ['ATRIAL FLUTTER and atrial flutter are one name.', ['atrial flutter']],
    ['Are there asystoles or preasystole beats?', []],
    ['Sinus Pause after Normal Sinus Rhythm; no Sinus Tachycardia.', ['sinus pause', 'normal sinus rhythm', 'sinus tachycardia']],
    ['First-degree AV Block and Third-degree AV Block', ['first-degree av block', 'third-degree av block']],
    ['An AV node question names no finding of fewer than three letters.', []],
  ]
  it.each(cases)('%s', (text, want) => expect(finder.find(text)).toEqual(want))
  it('a finder without extra names still knows the vocabulary, and not the extras of another', () => {
    expect(createNameFinder().find('A couplet of Premature Ventricular Contraction beats.')).toEqual(['premature ventricular contraction'])
  })
})
