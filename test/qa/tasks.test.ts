// The 12 task generators (unit layer) on hand-built facts: each question names its event, closed
// options parse back (splitOptions) with the answer "<letter>. <text>" of gold.correct, timing
// options are real beat times with the truth at its rank, HR-extremum decoys are clearly slower
// (faster) on the side the rank says, and report texts state the figures.
import { describe, expect, it } from 'vitest'
import type { ExcerptItem } from '../../src/core/items.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { eventIn, excerptFacts, type ExcerptFacts, type FactsBeat, type RhythmSpan } from '../../src/qa/excerpt-facts.ts'
import { DEFAULT_VOCABULARY, NORMAL_SINUS_RHYTHM, inText } from '../../src/qa/vocabulary.ts'
import { LETTERS, splitAnswer, splitOptions } from '../../src/qa/holtercare-format.ts'
import type { QaDraft } from '../../src/qa/draft.ts'
import { hrExtreme } from '../../src/qa/hr-extreme.ts'
import { reportFigures } from '../../src/qa/report-figures.ts'
import { composeItem } from '../../src/qa/compose-item.ts'
import { publicElement } from '../../src/qa/export-layout.ts'
import { closedPresence } from '../../src/qa/tasks/closed-presence.ts'
import { closedEventCounting } from '../../src/qa/tasks/closed-event-counting.ts'
import { closedEventTiming } from '../../src/qa/tasks/closed-event-timing.ts'
import { closedHrExtremumTiming } from '../../src/qa/tasks/closed-hr-extremum-timing.ts'
import { closedDiagnosis } from '../../src/qa/tasks/closed-diagnosis.ts'
import { openEventCounting } from '../../src/qa/tasks/open-event-counting.ts'
import { openEventTiming } from '../../src/qa/tasks/open-event-timing.ts'
import { openHrExtremumTiming } from '../../src/qa/tasks/open-hr-extremum-timing.ts'
import { openDiagnosis } from '../../src/qa/tasks/open-diagnosis.ts'
import { openEvidenceReasoning } from '../../src/qa/tasks/open-evidence-reasoning.ts'
import { reportStatisticalOverview } from '../../src/qa/tasks/report-statistical-overview.ts'
import { reportGeneralSummary } from '../../src/qa/tasks/report-general-summary.ts'

const FS = 360
const PVC = 'Premature Ventricular Contraction'
const SEEDS = Array.from({ length: 12 }, (_, i) => `s${i}`)
const r = (s: string) => createSeededRandom(s)

// A beat per letter from `fromMs`: N about 800 ms after the one before (seeded jitter), V 480 ms
// (premature) with the next beat 1120 ms after it, samples at 360 Hz and times from the sample.
function beatsOf(text: string, fromMs = 10_000, seed = 'beats'): FactsBeat[] {
  const rng = r(seed)
  const out: FactsBeat[] = []
  let t = fromMs
  let prev = 'N'
  for (const c of text) {
    t += c === 'V' || c === 'S' ? 480 : prev === 'V' ? 1120 : 780 + rng.below(41)
    const sample = Math.round((t / 1000) * FS)
    out.push({ sample, timeMs: Math.round(((sample * 1000) / FS) * 1000) / 1000, label: c, symbol: c === 'S' ? 'A' : c })
    prev = c
  }
  return out
}
function factsOf(beats: FactsBeat[], rhythms: RhythmSpan[] = [], span?: [number, number]): ExcerptFacts {
  const [a, b] = span ?? [Math.floor(beats[0].timeMs / 1000) * 1000 - 1000, Math.ceil(beats.at(-1)!.timeMs / 1000) * 1000 + 1000]
  return excerptFacts({ excerpt: { id: `r:ex:t:${Math.round((a * FS) / 1000)}`, startSample: Math.round((a * FS) / 1000), endSample: Math.round((b * FS) / 1000), startMs: a, endMs: b, fs: FS }, beats, rhythms, excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY)
}

// A closed draft: the question names `event`, its options parse and the answer is the option at gold.correct.
function checkClosed(d: QaDraft, n: number, event?: string): void {
  if (event) expect(d.question.toLowerCase()).toContain(inText(event).toLowerCase())
  const parsed = splitOptions(`${d.question} ${d.options}`)
  expect(parsed?.stem).toBe(d.question)
  expect(parsed!.options.map((o) => o.letter)).toEqual(LETTERS.slice(0, n))
  expect(parsed!.options.map((o) => o.text)).toEqual(d.gold.choices)
  const c = d.gold.correct!
  expect(d.answer).toBe(`${LETTERS[c]}. ${d.gold.choices![c]}`)
  expect(splitAnswer(d.answer)).toEqual(parsed!.options[c])
}

// PVCs at beats 4, 10 and 17 of 24 (none neighbours).
const spaced = beatsOf('NNNNVNNNNNVNNNNNNVNNNNNN')
const spacedFacts = factsOf(spaced)

describe('closed_presence', () => {
  const absent = factsOf(beatsOf('NNNNNNNNNNNN'))
  it.each([
    { name: 'free text, present', facts: spacedFacts, options: null, yes: true },
    { name: 'free text, absent', facts: absent, options: null, yes: false },
    { name: 'Yes/No options, present', facts: spacedFacts, options: ['Yes', 'No'], yes: true },
    { name: 'No/Yes options, present', facts: spacedFacts, options: ['No', 'Yes'], yes: true },
    { name: 'Yes/No options, absent', facts: absent, options: ['Yes', 'No'], yes: false },
    { name: 'No/Yes options, absent', facts: absent, options: ['No', 'Yes'], yes: false },
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
  it.each([0, 1, 2, 3])('truth at %i: counts as options, the answer its letter', (truth) => {
    const values = ['0', '1', '3', '5']
    for (const s of SEEDS) {
      const d = closedEventCounting(spacedFacts, PVC, 'beats', values, truth, 'grp', r(s))
      checkClosed(d, 4, PVC)
      expect(d.question).toContain('beats')
      expect(d.gold).toMatchObject({ value: Number(values[truth]), event: PVC, correct: truth, design: { distractors: 'group', group: 'grp' } })
    }
    expect(closedEventCounting(spacedFacts, 'Ventricular Couplet', 'episodes', values, truth, 'grp', r('x')).question).toContain('episodes')
  })
})

describe('closed_event_timing', () => {
  const times = (facts: ExcerptFacts) => new Set(facts.beats.map((b) => Math.round(b.timeMs)))
  // One PVC at beat 20 of 40.
  const oneText = 'N'.repeat(20) + 'V' + 'N'.repeat(19)
  const one = beatsOf(oneText)
  const oneFacts = factsOf(one)

  it.each([0, 1, 2, 3])('rank %i: the truth at its rank in time order, the other options beats of the excerpt, no two neighbours', (rank) => {
    const truth = Math.round(one[20].timeMs)
    const seen = new Set<string>()
    for (const s of SEEDS) {
      const d = closedEventTiming(oneFacts, PVC, rank, r(s))!
      checkClosed(d, 4, PVC)
      expect(d.gold).toMatchObject({ correct: rank, value: truth, timestampsMs: [truth], event: PVC, design: { distractors: 'shift', rank } })
      const values = d.gold.choices!.map(Number)
      expect(values[rank]).toBe(truth)
      expect([...values].sort((a, b) => a - b)).toEqual(values)
      expect(values.every((t) => times(oneFacts).has(t))).toBe(true)
      const idx = values.map((t) => one.findIndex((b) => Math.round(b.timeMs) === t))
      for (let k = 1; k < idx.length; k++) expect(idx[k] - idx[k - 1]).toBeGreaterThan(1)
      seen.add(values.join())
    }
    expect(seen.size).toBeGreaterThan(1) // the decoys are drawn, not fixed
  })

  it.each([
    { name: 'two occurrences (lists are not offered)', text: 'NNNNNNVNNNNNNVNNNNNN', rank: 1 },
    { name: 'too few beats before the truth for rank 3', text: 'NNVNNNNNNNNNNNN', rank: 3 },
    { name: 'too few beats after the truth for rank 0', text: 'NNNNNNNNNNNNVNN', rank: 0 },
    { name: 'room on both sides', text: 'NNNNNNNNVNNNNNNNN', rank: 2, ok: true },
  ])('$name: $ok', ({ text, rank, ok }) => {
    const d = closedEventTiming(factsOf(beatsOf(text)), PVC, rank, r('t'))
    expect(d !== null).toBe(ok ?? false)
  })

  // A rhythm event's onset is an annotation time between beats: among beat times it would be the
  // one option off the QRS complexes, so no closed timing item is made for it.
  it('a rhythm onset makes no item', () => {
    const beats = beatsOf('NNNNNNNNNNNNNNNNNNNN')
    const onset = beats[10].timeMs - 300
    const f = factsOf(beats, [{ rhythm: 'AFL', startSample: Math.round((onset * FS) / 1000), startMs: onset, endSample: Infinity, endMs: Infinity }])
    for (const rank of [0, 1, 2, 3]) expect(closedEventTiming(f, 'Atrial Flutter', rank, r('afl'))).toBeNull()
  })

  it('an episode event is timed at its first beat, its evidence the episode\'s beats', () => {
    const beats = beatsOf('NNNNNNNNNVVVNNNNNNNN')
    const d = closedEventTiming(factsOf(beats), 'Ventricular Tachycardia', 2, r('vt'))!
    checkClosed(d, 4, 'Ventricular Tachycardia')
    expect(d.gold.choices![2]).toBe(String(Math.round(beats[9].timeMs)))
    expect(d.gold.evidenceBeats).toEqual([9, 10, 11].map((i) => beats[i].sample))
  })
})

// Beats of a rate that swings between about 60 and 100 bpm over 20 s, for 80 s.
function swingFacts(): ExcerptFacts {
  const beats: FactsBeat[] = []
  for (let t = 5000; t < 200_000;) {
    const sample = Math.round((t / 1000) * FS)
    beats.push({ sample, timeMs: (sample * 1000) / FS, label: 'N' })
    t += 800 + 200 * Math.sin((2 * Math.PI * t) / 20_000) + 30 * Math.sin((2 * Math.PI * t) / 170_000)
  }
  return factsOf(beats)
}

describe('closed_HR_extremum_timing', () => {
  const facts = swingFacts()
  const indexAt = (ms: string) => facts.beats.findIndex((b) => `${Math.round(b.timeMs)} ms` === ms)
  it.each([
    { which: 'fastest' as const, rank: 0 },
    { which: 'fastest' as const, rank: 1 },
    { which: 'fastest' as const, rank: 2 },
    { which: 'fastest' as const, rank: 3 },
    { which: 'slowest' as const, rank: 0 },
    { which: 'slowest' as const, rank: 1 },
    { which: 'slowest' as const, rank: 2 },
    { which: 'slowest' as const, rank: 3 },
  ])('$which at rank $rank: decoys share no beat with it, are the margin away, before and after as the rank says', ({ which, rank }) => {
    const margin = 3
    const x = hrExtreme(facts, which, 8, margin)!
    const sign = which === 'fastest' ? 1 : -1
    expect(x.bpm).toBe(Math.round(facts.hrAvg[x.index] * 10) / 10)
    for (const s of SEEDS) {
      const d = closedHrExtremumTiming(facts, x, rank, 8, r(s))!
      checkClosed(d, 4)
      expect(d.question).toContain(which)
      expect(d.gold).toMatchObject({ value: x.timeMs, extremum: which, bpm: x.bpm, correct: rank, design: { distractors: 'shift', rank } })
      expect(d.gold.choices![rank]).toBe(`${x.timeMs} ms`)
      expect(d.gold.evidenceBeats).toEqual(facts.beats.slice(x.index - 8, x.index + 1).map((b) => b.sample))
      const idx = d.gold.choices!.map(indexAt)
      expect(idx.every((i) => i >= 0)).toBe(true)
      expect(idx).toEqual([...idx].sort((a, b) => a - b))
      expect(idx[rank]).toBe(x.index)
      idx.forEach((i, j) => {
        if (j === rank) return
        expect(Math.abs(i - x.index)).toBeGreaterThan(8)
        expect(sign * (facts.hrAvg[x.index] - facts.hrAvg[i])).toBeGreaterThanOrEqual(margin)
      })
      // Every two options, the truth included, more than avgBeats + 2 beats apart.
      for (let k = 1; k < idx.length; k++) expect(idx[k] - idx[k - 1]).toBeGreaterThan(10)
    }
  })

  it('is null when the excerpt has too few decoys on one side', () => {
    // The rate rises throughout: the fastest window is the last, with nothing after it.
    const beats: FactsBeat[] = []
    for (let i = 0, t = 5000; i < 60; i++, t += 1000 - i * 8) beats.push({ sample: Math.round((t / 1000) * FS), timeMs: Math.round((t / 1000) * FS) * (1000 / FS), label: 'N' })
    const f = factsOf(beats)
    const x = hrExtreme(f, 'fastest', 8, 3)!
    expect(x.index).toBe(59)
    expect(closedHrExtremumTiming(f, x, 3, 8, r('a'))).not.toBeNull()
    for (const rank of [0, 1, 2]) expect(closedHrExtremumTiming(f, x, rank, 8, r('a'))).toBeNull()
  })
})

describe('closed_diagnosis', () => {
  const values = ['Atrial Fibrillation', PVC, NORMAL_SINUS_RHYTHM]
  it.each([0, 1, 2])('truth at %i', (truth) => {
    for (const s of SEEDS.slice(0, 4)) {
      const d = closedDiagnosis(spacedFacts, values, truth, 'dx', r(s))
      checkClosed(d, 3)
      expect(d.gold).toMatchObject({ value: values[truth], labels: [PVC], correct: truth, design: { distractors: 'group', group: 'dx' } })
      expect(d.gold.evidenceBeats).toEqual(values[truth] === PVC ? [4, 10, 17].map((i) => spaced[i].sample) : [])
    }
  })
})

describe('open tasks', () => {
  it('open_event_counting: names the event, states the count in its unit', () => {
    for (const s of SEEDS) {
      const d = openEventCounting(spacedFacts, PVC, r(s))
      expect(d.question.toLowerCase()).toContain(inText(PVC))
      expect(d.answer).toContain(`3 beats of ${inText(PVC)}`)
      expect(d.gold).toEqual({ value: 3, event: PVC, evidenceBeats: [4, 10, 17].map((i) => spaced[i].sample) })
      expect(d.options).toBeUndefined()
    }
    const one = factsOf(beatsOf('NNNNVVNNNN'))
    expect(openEventCounting(one, 'Ventricular Couplet', r('x')).answer).toContain('1 episode of ventricular couplet')
  })

  it('open_event_timing: names the event, lists every time', () => {
    const times = eventIn(spacedFacts, PVC)!.occurrences.map((o) => o.timeMs)
    for (const s of SEEDS) {
      const d = openEventTiming(spacedFacts, PVC, r(s))
      expect(d.question.toLowerCase()).toContain(inText(PVC))
      expect(d.answer).toContain(`3 occurrences`)
      expect(d.answer).toContain(`${times.join(', ')} ms`)
      expect(d.gold).toMatchObject({ value: 3, timestampsMs: times, event: PVC })
    }
  })

  it('open_HR_extremum_timing: the time and the rate', () => {
    const f = swingFacts()
    for (const which of ['fastest', 'slowest'] as const) {
      const x = hrExtreme(f, which, 8, 3)!
      for (const s of SEEDS.slice(0, 4)) {
        const d = openHrExtremumTiming(f, x, 8, r(s))
        expect(d.question).toContain(which)
        expect(d.answer).toContain(`${x.timeMs} ms`)
        expect(d.answer).toContain(`${Math.round(x.bpm)} bpm`)
        expect(d.gold).toMatchObject({ value: x.timeMs, extremum: which, bpm: x.bpm })
      }
    }
  })

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
    expect(d.answer).toContain('Ventricular premature beats: 10 (0.67% of beats), 10 singles, 0 couplets and 0 runs of ventricular tachycardia.')
    expect(d.answer).toContain('No atrial premature beats.')
    expect(d.answer).toMatch(new RegExp(`(Conclusion|In summary): ${inText(PVC)}\\.`))
  })
})

describe('a composed item', () => {
  it('keeps the options at the end of the public question, where splitOptions finds them', () => {
    const ex: ExcerptItem = { kind: 'excerpt', id: 'r:ex:t:3240', recordId: 'r', set: 't', startSample: 3240, endSample: 13_680, startMs: 9000, endMs: 38_000, fs: FS, reason: { rule: 'test' } }
    const drafts = [
      closedEventCounting(spacedFacts, PVC, 'beats', ['0', '1', '3', '5'], 2, 'g', r('c')),
      closedEventTiming(factsOf(beatsOf('N'.repeat(12) + 'V' + 'N'.repeat(12))), PVC, 1, r('c'))!,
      closedPresence(spacedFacts, PVC, ['No', 'Yes'], 'g', r('c')),
      closedDiagnosis(spacedFacts, ['Atrial Fibrillation', PVC], 1, 'g', r('c')),
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
