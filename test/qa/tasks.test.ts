// The task generators about findings and reports (unit layer) on hand-built facts: each question
// names its event and says what is counted, closed options parse back (splitOptions) with the
// answer "<letter>. <text>" of gold.correct, the open counting and timing items answer 0 / none
// where the event is absent (they are asked of both excerpts of a pair), the diagnosis item has a
// form for "which is present" and one for "which is absent", and report texts state the figures.
// The timing tasks are in timing-tasks.test.ts.
import { describe, expect, it } from 'vitest'
import type { ExcerptItem } from '../../src/core/items.ts'
import { eventIn, excerptFacts, type FactsBeat } from '../../src/qa/excerpt-facts.ts'
import { DEFAULT_VOCABULARY, NORMAL_SINUS_RHYTHM, inText } from '../../src/qa/vocabulary.ts'
import { splitOptions } from '../../src/holtercare/format.ts'
import { countWords } from '../../src/qa/count-words.ts'
import { reportFigures } from '../../src/qa/report-figures.ts'
import { composeItem } from '../../src/qa/compose-item.ts'
import { publicElement } from '../../src/holtercare/layout.ts'
import { closedPresence } from '../../src/qa/tasks/closed-presence.ts'
import { closedEventCounting } from '../../src/qa/tasks/closed-event-counting.ts'
import { closedEventTiming } from '../../src/qa/tasks/closed-event-timing.ts'
import { closedDiagnosis } from '../../src/qa/tasks/closed-diagnosis.ts'
import { openEventCounting } from '../../src/qa/tasks/open-event-counting.ts'
import { openEventTiming } from '../../src/qa/tasks/open-event-timing.ts'
import { openDiagnosis } from '../../src/qa/tasks/open-diagnosis.ts'
import { openEvidenceReasoning } from '../../src/qa/tasks/open-evidence-reasoning.ts'
import { reportStatisticalOverview } from '../../src/qa/tasks/report-statistical-overview.ts'
import { reportGeneralSummary } from '../../src/qa/tasks/report-general-summary.ts'
import { PVC, SEEDS, beatsOf, checkClosed, factsOf, firstMade, r } from './hand-facts.ts'

const words = (event: string) => countWords(event, DEFAULT_VOCABULARY)

// PVCs at beats 4, 10 and 17 of 24 (none neighbours).
const spaced = beatsOf('NNNNVNNNNNVNNNNNNVNNNNNN')
const spacedFacts = factsOf(spaced)
const noneFacts = factsOf(beatsOf('NNNNNNNNNNNN'))

describe('closed_presence', () => {
  it.each([
    { name: 'free text, present', facts: spacedFacts, options: null, yes: true },
    { name: 'free text, absent', facts: noneFacts, options: null, yes: false },
    { name: 'Yes/No options, present', facts: spacedFacts, options: ['Yes', 'No'], yes: true },
    { name: 'No/Yes options, present', facts: spacedFacts, options: ['No', 'Yes'], yes: true },
    { name: 'Yes/No options, absent', facts: noneFacts, options: ['Yes', 'No'], yes: false },
    { name: 'No/Yes options, absent', facts: noneFacts, options: ['No', 'Yes'], yes: false },
  ])('$name', ({ facts, options, yes }) => {
    for (const s of SEEDS) {
      const d = closedPresence(facts, PVC, options, 'g', r(s))
      expect(d.task).toBe('closed_presence')
      expect(d.gold).toMatchObject({ value: yes ? 'yes' : 'no', event: PVC, design: { distractors: 'pair', group: 'g' } })
      expect(d.gold.evidenceBeats).toEqual(yes ? [4, 10, 17].map((i) => spaced[i].sample) : [])
      if (options) {
        checkClosed(d, 2, PVC)
        expect(d.gold.choices![d.gold.correct!]).toBe(yes ? 'Yes' : 'No')
      } else {
        expect(d.question.toLowerCase()).toContain(inText(PVC))
        expect(d.options).toBeUndefined()
        expect(d.answer).toMatch(yes ? /^Yes\b/ : /^No\b/)
        expect(d.answer).toContain(inText(PVC))
      }
    }
  })
})

describe('closed_event_counting', () => {
  it.each([
    { event: PVC, truth: 0 },
    { event: PVC, truth: 3 },
    { event: 'Ventricular Couplet', truth: 1 },
    { event: 'Sinus Pause', truth: 2 },
  ])('$event, truth at $truth: the counts as options, the answer its letter, the question saying what counts', ({ event, truth }) => {
    const values = ['0', '1', '3', '5']
    const w = words(event)
    for (const s of SEEDS) {
      const d = closedEventCounting(spacedFacts, event, w, values, truth, 'grp', r(s))
      checkClosed(d, 4)
      expect(d.question).toContain(w.plural)
      expect(d.question).toContain(w.rule)
      expect(d.gold).toMatchObject({ value: Number(values[truth]), event, correct: truth, design: { distractors: 'group', group: 'grp' } })
      expect(d.gold.evidenceBeats).toEqual(event === PVC ? [4, 10, 17].map((i) => spaced[i].sample) : [])
    }
  })
})

describe('closed_diagnosis', () => {
  // PVCs, a couplet and atrial flutter from beat 2.
  const beats = beatsOf('NNNNVNNNNNVVNNNNN')
  const many = factsOf(beats, [{ rhythm: 'AFL', startSample: beats[2].sample, startMs: beats[2].timeMs, endSample: Infinity, endMs: Infinity }])
  const ABSENT_WORDS = /absent|not contain|missing/
  it.each([
    { form: 'present' as const, facts: spacedFacts, values: ['Atrial Fibrillation', PVC, NORMAL_SINUS_RHYTHM], truth: 1 },
    { form: 'present' as const, facts: spacedFacts, values: [PVC, 'Atrial Fibrillation', NORMAL_SINUS_RHYTHM, 'Sinus Pause'], truth: 0 },
    { form: 'absent' as const, facts: many, values: [PVC, 'Atrial Fibrillation', 'Ventricular Couplet'], truth: 1 },
    { form: 'absent' as const, facts: many, values: ['Atrial Flutter', 'Ventricular Couplet', PVC, 'Sinus Pause'], truth: 3 },
  ])('$form form, truth $truth of $values.length', ({ form, facts, values, truth }) => {
    for (const s of SEEDS.slice(0, 6)) {
      const d = closedDiagnosis(facts, form, values, truth, 'dx', r(s))
      checkClosed(d, values.length)
      if (form === 'absent') expect(d.question).toMatch(ABSENT_WORDS)
      else expect(d.question).not.toMatch(ABSENT_WORDS)
      expect(d.gold).toMatchObject({ value: values[truth], labels: facts.events.map((e) => e.name), choices: values, correct: truth, design: { distractors: 'group', group: 'dx' } })
      // The evidence of a present answer is its beats; an absent one has none.
      const found = eventIn(facts, values[truth])
      expect(d.gold.evidenceBeats).toEqual(found ? found.occurrences.flatMap((o) => o.beats) : [])
    }
  })
})

describe('open counting and timing, asked of both excerpts of a pair', () => {
  const times = eventIn(spacedFacts, PVC)!.occurrences.map((o) => o.timeMs)
  const w = words(PVC)

  it('open_event_counting: the count in the event\'s words, 0 where it is absent', () => {
    for (const s of SEEDS) {
      const d = openEventCounting(spacedFacts, PVC, w, r(s))
      expect(d.question).toContain(w.plural)
      expect(d.question.toLowerCase()).toContain(w.rule)
      expect(d.question).toMatch(/\b0\b/)
      expect(d.answer).toContain('3 premature ventricular contraction beats')
      expect(d.gold).toEqual({ value: 3, event: PVC, evidenceBeats: [4, 10, 17].map((i) => spaced[i].sample) })
      expect(d.options).toBeUndefined()
      const none = openEventCounting(noneFacts, PVC, w, r(s))
      expect(none.answer).toMatch(/\b0\b/)
      expect(none.answer).toContain(`no ${w.plural}`)
      expect(none.gold).toEqual({ value: 0, event: PVC, evidenceBeats: [] })
    }
    const couplet = openEventCounting(factsOf(beatsOf('NNNNVVNNNN')), 'Ventricular Couplet', words('Ventricular Couplet'), r('x'))
    expect(couplet.answer).toContain('1 episode of ventricular couplet')
  })

  it('open_event_timing: the count and every time, none where it is absent', () => {
    for (const s of SEEDS) {
      const d = openEventTiming(spacedFacts, PVC, w, r(s))
      expect(d.question).toContain(w.plural)
      expect(d.question).toMatch(/\bnone\b/)
      expect(d.answer).toContain('3 premature ventricular contraction beats')
      expect(d.answer).toContain(`${times.join(', ')} ms`)
      expect(d.gold).toMatchObject({ value: 3, timestampsMs: times, event: PVC })
      const none = openEventTiming(noneFacts, PVC, w, r(s))
      expect(none.answer).toMatch(/^(There are no|None:)/)
      expect(none.answer).not.toMatch(/\d/)
      expect(none.gold).toEqual({ value: 0, timestampsMs: [], event: PVC, evidenceBeats: [] })
    }
  })
})

describe('open tasks', () => {
  it('open_diagnosis: every finding, or none', () => {
    const beats = beatsOf('NNNNVNNNNNVVNNNNN')
    const f = factsOf(beats, [{ rhythm: 'AFL', startSample: beats[2].sample, startMs: beats[2].timeMs, endSample: Infinity, endMs: Infinity }])
    for (const s of SEEDS.slice(0, 4)) {
      const d = openDiagnosis(f, r(s))
      expect(d.gold.labels).toEqual([PVC, 'Ventricular Couplet', 'Atrial Flutter'])
      expect(d.answer).toContain(`${PVC}, Ventricular Couplet and Atrial Flutter`)
      const none = openDiagnosis(factsOf(beatsOf('NNNNNNNN')), r(s))
      expect(none.gold).toEqual({ labels: [], evidenceBeats: [] })
      expect(none.answer).toMatch(/\bno\b/i)
    }
  })

  it('open_evidence_reasoning: yes with the measured evidence, or no with the intervals', () => {
    for (const s of SEEDS.slice(0, 4)) {
      const yes = openEvidenceReasoning(spacedFacts, PVC, 'g', r(s))
      expect(yes.question.toLowerCase()).toContain(inText(PVC))
      expect(yes.answer).toMatch(new RegExp(`^Yes, ${inText(PVC)} is present: 3 beats of this kind, the first at ${eventIn(spacedFacts, PVC)!.occurrences[0].timeMs} ms`))
      expect(yes.gold).toMatchObject({ value: 'yes', event: PVC, design: { distractors: 'pair', group: 'g' } })
      const f = factsOf(beatsOf('NNNNNNNN'))
      const no = openEvidenceReasoning(f, PVC, 'g', r(s))
      const rr = f.beats.slice(1).map((b, i) => b.timeMs - f.beats[i].timeMs)
      expect(no.answer).toMatch(new RegExp(`^No, ${inText(PVC)} is not present: the excerpt's 8 beats`))
      expect(no.answer).toContain(`range from ${Math.round(Math.min(...rr))} to ${Math.round(Math.max(...rr))} ms`)
      expect(no.gold).toMatchObject({ value: 'no', evidenceBeats: [] })
    }
  })
})

describe('open_evidence_reasoning across an artifact break', () => {
  // The intervals around a beat are never measured across a break (an artifact period or a gap):
  // a PVC two beats after one was once called 93 % premature against a 6600 ms "interval".
  it('quotes no interval that spans a break', () => {
    const beats: FactsBeat[] = [0, 800, 1600, 2400, 9000, 9480, 10_600, 11_400].map((t, i) => ({ sample: t, timeMs: t, label: i === 5 ? 'V' : 'N', ...(i === 4 ? { afterBreak: true } : {}) }))
    const f = excerptFacts({ excerpt: { id: 'x', startSample: 0, endSample: 12_000, startMs: 0, endMs: 12_000, fs: 1000 }, beats, rhythms: [], excludedBeats: 3, avgBeats: 8 }, DEFAULT_VOCABULARY)
    const d = openEvidenceReasoning(f, PVC, 'g', r('b'))
    expect(d.answer).not.toContain('6600 ms')
  })
})

describe('report tasks', () => {
  // 20 minutes at about 75 bpm with a few PVCs: well over 1,000 beats.
  const text = Array.from({ length: 1500 }, (_, i) => (i % 150 === 75 ? 'V' : 'N')).join('')
  const beats = beatsOf(text, 1000, 'long')
  const facts = factsOf(beats, [], [0, 1_260_000])
  const fig = reportFigures(facts, 8)

  it('the figures are the facts\' (summarize\'s trackers)', () => {
    expect(fig.totalBeats).toBe(1500)
    expect(fig.durationMs).toBe(1_260_000)
    expect(fig.meanHrBpm).toBe(facts.hr.meanHrBpm)
    expect(fig.maxHr).toEqual({ bpm: facts.hr.maxHr!.bpm, timeMs: Math.round(facts.hr.maxHr!.timeMs) })
    expect(fig.minHr).toEqual({ bpm: facts.hr.minHr!.bpm, timeMs: Math.round(facts.hr.minHr!.timeMs) })
    expect(fig.ventricular).toMatchObject({ count: 10, singles: 10, couplets: 0, runs: 0 })
    expect(fig.findings).toEqual([PVC])
  })

  it.each(SEEDS)('statistical overview states the figures (seed %s)', (s) => {
    const d = reportStatisticalOverview(facts, 8, r(s))
    expect(d.gold).toEqual({ figures: fig, evidenceBeats: [] })
    expect(d.answer).toContain('1,500')
    expect(d.answer).toContain('21 minutes')
    expect(d.answer).toContain(`${Math.round(fig.meanHrBpm!)} bpm`)
    expect(d.answer).toContain(`${Math.round(fig.maxHr!.bpm)} bpm at ${fig.maxHr!.timeMs} ms`)
    expect(d.answer).toContain(`${Math.round(fig.minHr!.bpm)} bpm at ${fig.minHr!.timeMs} ms`)
  })

  it.each(SEEDS)('general summary states the figures, the ectopy and the conclusion (seed %s)', (s) => {
    const d = reportGeneralSummary(facts, 8, r(s))
    expect(d.gold).toEqual({ figures: fig, evidenceBeats: [] })
    expect(d.answer).toContain('1,500')
    expect(d.answer).toContain(`${Math.round(fig.maxHr!.bpm)} bpm at ${fig.maxHr!.timeMs} ms`)
    expect(d.answer).toContain('Ventricular premature beats: 10 (0.7% of beats), 10 singles, 0 couplets and 0 runs of ventricular tachycardia.') // shares to one decimal, as reports print them
    expect(d.answer).toContain('No atrial premature beats.')
    expect(d.answer).toMatch(new RegExp(`(Conclusion|In summary): ${inText(PVC)}\\.`))
  })
})

describe('a composed item', () => {
  it('keeps the options at the end of the public question, where splitOptions finds them', () => {
    const ex: ExcerptItem = { kind: 'excerpt', id: 'r:ex:t:3240', recordId: 'r', set: 't', startSample: 3240, endSample: 13_680, startMs: 9000, endMs: 38_000, fs: 360, reason: { rule: 'test' } }
    const timedFacts = factsOf(beatsOf('N'.repeat(12) + 'V' + 'N'.repeat(12)))
    const drafts = [
      closedEventCounting(spacedFacts, PVC, words(PVC), ['0', '1', '3', '5'], 2, 'g', r('c')),
      // Its decoys are drawn once and the item dropped when two options fall too near: the first seed that makes one.
      firstMade((g) => closedEventTiming(timedFacts, PVC, words(PVC), [0.1, 0.35, 0.6, 0.9], g)),
      closedPresence(spacedFacts, PVC, ['No', 'Yes'], 'g', r('c')),
      closedDiagnosis(spacedFacts, 'present', ['Atrial Fibrillation', PVC, NORMAL_SINUS_RHYTHM], 1, 'g', r('c')),
    ]
    for (const [k, draft] of drafts.entries()) {
      for (const patient of [{ age: 61, sex: 'F' as const }, {}]) {
        const item = composeItem({ id: `${ex.id}:${draft.task}:${k}`, ex, draft, patient, caseId: 'r', split: 'test', inputs: {}, renderIds: [], seed: '1' })
        const el = publicElement(item)
        expect(el).toEqual({ id: 'r', task_type: draft.task, qa_pair: { question: item.question, answer: draft.answer }, tag: 'test' })
        expect(splitOptions(el.qa_pair.question)!.options.map((o) => o.text)).toEqual(draft.gold.choices)
        expect(el.qa_pair.question).toContain('9000 ms')
        expect(el.qa_pair.question.endsWith(draft.options!)).toBe(true)
      }
    }
  })
})
