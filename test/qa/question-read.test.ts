// What the baselines read off a question (unit layer): the asked event recovers gold.event on
// every generated item that has one (every vocabulary event, every phrasing, every patient
// sentence), the longest name wins where one name holds another, the extremum and the span.
import { describe, expect, it } from 'vitest'
import { askedEvent, askedExtremum, askedSpan, mentionedLabels, readQuestion } from '../../src/qa/question-read.ts'
import { DEFAULT_VOCABULARY, type VocabularyEvent } from '../../src/qa/vocabulary.ts'
import { generateItems } from '../models/baselines/qa-items.ts'

const { items } = generateItems('q', 100, 'test')

describe('readQuestion', () => {
  it('recovers gold.event on every generated item that asks about one, and every vocabulary event occurs', () => {
    const asked = items.filter((q) => q.gold.event !== undefined)
    expect(asked.length).toBeGreaterThan(1000)
    const wrong = asked.filter((q) => readQuestion(q, DEFAULT_VOCABULARY).event !== q.gold.event).map((q) => `${q.id}: ${q.question}`)
    expect(wrong).toEqual([])
    expect(new Set(asked.map((q) => q.gold.event))).toEqual(new Set(DEFAULT_VOCABULARY.map((e) => e.name)))
  })

  it('recovers the extremum and the span of every generated item, options of every closed one', () => {
    for (const q of items) {
      const r = readQuestion(q, DEFAULT_VOCABULARY)
      expect(r.span).toEqual({ startMs: q.excerpt.startMs, endMs: q.excerpt.endMs })
      expect(r.task).toBe(q.taskType)
      if (q.gold.extremum) expect(r.extremum).toBe(q.gold.extremum)
      if (q.gold.choices) expect(r.options).toEqual(q.gold.choices)
      else expect(r.options).toBeNull()
    }
  })

  it('prefers the name ending last, then the longest', () => {
    const vocab = ['Ventricular Tachycardia', 'Polymorphic Ventricular Tachycardia', 'Ventricular Flutter', 'Ventricular Flutter (Coarse)', 'Atrial Fibrillation']
      .map((name): VocabularyEvent => ({ name, public: true, family: 'rhythm', source: { rhythm: [name] } }))
    expect(askedEvent('Is there polymorphic ventricular tachycardia here?', vocab)).toBe('Polymorphic Ventricular Tachycardia')
    expect(askedEvent('Count the Ventricular Flutter (Coarse) episodes.', vocab)).toBe('Ventricular Flutter (Coarse)')
    expect(askedEvent('A history of atrial fibrillation. How many ventricular tachycardias occur?', vocab)).toBe('Ventricular Tachycardia')
    expect(askedEvent('Is there atrial fibrillationish activity?', vocab)).toBeNull()
    expect(mentionedLabels('Ventricular Flutter (Coarse)', vocab)).toEqual(['Ventricular Flutter (Coarse)'])
    expect(mentionedLabels('Ventricular Flutter and Ventricular Flutter (Coarse)', vocab)).toEqual(['Ventricular Flutter', 'Ventricular Flutter (Coarse)'])
  })

  it.each([
    ['When is the heart rate fastest in this excerpt?', 'fastest'],
    ['Which timestamp (ms) marks the slowest heart rate?', 'slowest'],
    ['At what time is the minimum heart rate?', 'slowest'],
    ['How many beats?', null],
  ])('extremum of %j is %j', (text, which) => {
    expect(askedExtremum(text)).toBe(which)
  })

  it('reads the span sentence', () => {
    expect(askedSpan('You are shown the part of the recording from 60000 ms to 120000 ms (00:01:00-00:02:00).')).toEqual({ startMs: 60000, endMs: 120000 })
    expect(askedSpan('No span here.')).toBeNull()
  })
})
