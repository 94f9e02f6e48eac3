// The facts of one excerpt (unit layer, table-driven): the events of each source kind of the
// vocabulary (beat symbols or detector labels, runs, geminy, long RR, sinus pauses, sustained
// rates in sinus context, rhythm episodes), `boundary` for every episode whose onset is not seen
// (a rhythm begun before, a run, pattern or rate already going on at the first beat), times
// rounded to the ms, evidence beats, and eventIn / countable / rateMargin.
import { describe, expect, it } from 'vitest'
import { countable, eventIn, excerptFacts, rateMargin, type ExcerptFacts, type FactsBeat, type RhythmSpan } from '../../src/qa/excerpt-facts.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'

// fs = 1000: a sample is a millisecond.
const FS = 1000
const START = 1000
const END = 61_000

// One beat per letter from START, rrMs apart; "|" marks the next beat as following a break.
function beatsOf(text: string, rrMs = 800, from = START): FactsBeat[] {
  const out: FactsBeat[] = []
  let brk = false
  for (const c of text) {
    if (c === '|') {
      brk = true
      continue
    }
    const t = from + out.length * rrMs
    out.push({ sample: t, timeMs: t, label: c, ...(brk ? { afterBreak: true } : {}) })
    brk = false
  }
  return out
}
const at = (i: number, rrMs = 800) => START + i * rrMs
const rhythm = (name: string, startMs: number, endMs = Infinity): RhythmSpan => ({ rhythm: name, startSample: startMs, startMs, endSample: endMs, endMs })
function factsOf(beats: FactsBeat[], rhythms: RhythmSpan[] = []): ExcerptFacts {
  return excerptFacts({ excerpt: { id: 'r:ex:t:1000', startSample: START, endSample: END, startMs: START, endMs: END, fs: FS }, beats, rhythms, excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY)
}
// Each event present and the times of its occurrences.
const timesOf = (f: ExcerptFacts) => Object.fromEntries(f.events.map((e) => [e.name, e.occurrences.map((o) => o.timeMs)]))

// 80 beats at 120 bpm (500 ms) from START: the 8-beat average is first there at beat 8, and fast
// from there on, so the tachycardia is going on from the excerpt's start (no onset).
const fast = () => beatsOf('N'.repeat(81), 500)
const slow = () => beatsOf('N'.repeat(51), 1200)
// 21 beats at 800 ms, then 70 at 500 ms: the 8-interval average first passes 100 bpm at beat 26
// (2 x 800 + 6 x 500 = 4600 ms, under 4800), at START + 20 x 800 + 6 x 500.
const rampFast = () => [...beatsOf('N'.repeat(21), 800), ...beatsOf('N'.repeat(70), 500, START + 20 * 800 + 500)]
const RAMP_FAST_ONSET = START + 20 * 800 + 6 * 500
// 21 beats at 800 ms, then 35 at 1200 ms: below 60 bpm from beat 25 (3 x 800 + 5 x 1200 = 8400 ms > 8000).
const rampSlow = () => [...beatsOf('N'.repeat(21), 800), ...beatsOf('N'.repeat(35), 1200, START + 20 * 800 + 1200)]
const RAMP_SLOW_ONSET = START + 20 * 800 + 5 * 1200

describe('excerptFacts: events by source kind', () => {
  it.each([
    {
      name: 'beat events: a reference beat by its MIT symbol, a detector beat (no symbol) by its label; runs by label',
      beats: [
        { sample: at(0), timeMs: at(0), label: 'N', symbol: 'A' },
        { sample: at(1), timeMs: at(1), label: 'S', symbol: 'N' },
        { sample: at(2), timeMs: at(2), label: 'S' },
        { sample: at(3), timeMs: at(3), label: 'V', symbol: 'r' },
        { sample: at(4), timeMs: at(4), label: 'V' },
        { sample: at(5), timeMs: at(5), label: 'N', symbol: 'N' },
      ],
      want: { 'Premature Atrial Contraction': [at(0), at(2)], 'Premature Ventricular Contraction': [at(3), at(4)], 'Atrial Couplet': [at(1)], 'Ventricular Couplet': [at(3)] },
    },
    {
      name: 'runs: couplets of exactly 2, tachycardia from 3, timed at the first beat',
      beats: beatsOf('NNSSSNVVVVNVVNV'),
      want: {
        'Premature Atrial Contraction': [at(2), at(3), at(4)],
        'Premature Ventricular Contraction': [at(6), at(7), at(8), at(9), at(11), at(12), at(14)],
        'Ventricular Couplet': [at(11)],
        'Atrial Tachycardia': [at(2)],
        'Ventricular Tachycardia': [at(6)],
      },
    },
    {
      name: 'a break splits a run',
      beats: beatsOf('NVV|VN'),
      want: { 'Premature Ventricular Contraction': [at(1), at(2), at(3)], 'Ventricular Couplet': [at(1)] },
    },
    {
      name: 'bigeminy then trigeminy, timed at the first N',
      beats: beatsOf('NNVNVNVNNNVNNVNNVN'),
      want: { 'Premature Ventricular Contraction': [2, 4, 6, 10, 13, 16].map((i) => at(i)), 'Ventricular Bigeminy': [at(1)], 'Ventricular Trigeminy': [at(8)] },
    },
    {
      name: 'bigeminy from the excerpt\'s first beat: present, no onset (it may have begun before)',
      beats: beatsOf('NVNVNVNN'),
      want: { 'Premature Ventricular Contraction': [1, 3, 5].map((i) => at(i)), 'Ventricular Bigeminy': [] },
    },
    {
      name: 'a couplet and a run on the first beats: present, no onset; the PVCs are still counted',
      beats: beatsOf('VVNNN|VVVNN'),
      want: { 'Premature Ventricular Contraction': [0, 1, 5, 6, 7].map((i) => at(i)), 'Ventricular Couplet': [], 'Ventricular Tachycardia': [] },
    },
    {
      name: 'long RR: a sinus pause in (2, 3] s and an asystole above 3 s, timed at the beat before',
      beats: [...beatsOf('NNN'), ...beatsOf('NN', 800, at(2) + 2500), ...beatsOf('NN', 800, at(2) + 2500 + 800 + 3500)],
      want: { 'Sinus Pause': [at(2)], Asystole: [at(2) + 2500 + 800] },
    },
    {
      name: 'long RR never across a break',
      beats: [...beatsOf('NNN'), ...beatsOf('|NN', 800, at(2) + 2500)],
      want: {},
    },
    {
      name: 'a fast rate from the first full window is going on already: sinus tachycardia, no onset',
      beats: fast(),
      want: { 'Sinus Tachycardia': [] },
    },
    {
      name: 'a slow rate from the first full window: sinus bradycardia, no onset',
      beats: slow(),
      want: { 'Sinus Bradycardia': [] },
    },
    {
      name: 'a rate that becomes fast inside the excerpt: sinus tachycardia at the first window above 100 bpm',
      beats: rampFast(),
      want: { 'Sinus Tachycardia': [RAMP_FAST_ONSET] },
    },
    {
      name: 'one that becomes slow: sinus bradycardia at the first window below 60 bpm',
      beats: rampSlow(),
      want: { 'Sinus Bradycardia': [RAMP_SLOW_ONSET] },
    },
    {
      name: 'the fast rate in an N episode is sinus tachycardia',
      beats: rampFast(),
      rhythms: [rhythm('N', 0)],
      want: { 'Sinus Tachycardia': [RAMP_FAST_ONSET] },
    },
    {
      name: 'the slow rate in an SBR episode is sinus bradycardia',
      beats: rampSlow(),
      rhythms: [rhythm('SBR', 0)],
      want: { 'Sinus Bradycardia': [RAMP_SLOW_ONSET] },
    },
    {
      name: 'the fast rate in atrial fibrillation is not sinus tachycardia (the fibrillation started before: boundary, no onset)',
      beats: fast(),
      rhythms: [rhythm('AFIB', 0)],
      want: { 'Atrial Fibrillation': [] },
    },
    {
      name: 'fibrillation from the excerpt start to 11 s, sinus after: exactly 30 s of sinus fast rate',
      beats: fast(),
      rhythms: [rhythm('AFIB', START, 11_000), rhythm('N', 11_000)],
      want: { 'Sinus Tachycardia': [11_000], 'Atrial Fibrillation': [START] },
    },
    {
      name: 'fibrillation to 11.001 s: 29.5 s of sinus fast rate is not sustained',
      beats: fast(),
      rhythms: [rhythm('AFIB', START, 11_001), rhythm('N', 11_001)],
      want: { 'Atrial Fibrillation': [START] },
    },
    {
      name: 'rhythm episodes: every onset inside, timed at it; others ignored',
      beats: beatsOf('NNNN'),
      rhythms: [rhythm('N', 0, 5000), rhythm('AFL', 5000, 9000), rhythm('N', 9000, 20_000), rhythm('AFL', 20_000, 30_000), rhythm('VFL', 30_000)],
      want: { 'Atrial Flutter': [5000, 20_000], 'Ventricular Flutter': [30_000] },
    },
    {
      name: 'several rhythm names of one event (VFIB and VF)',
      beats: [],
      rhythms: [rhythm('VF', 2000, 3000), rhythm('VFIB', 4000)],
      want: { 'Ventricular Fibrillation': [2000, 4000] },
    },
    { name: 'nothing', beats: beatsOf('NNNNNNNNNNNN'), want: {} },
  ] as { name: string; beats: FactsBeat[]; rhythms?: RhythmSpan[]; want: Record<string, number[]> }[])('$name', ({ beats, rhythms, want }) => {
    const f = factsOf(beats, rhythms)
    expect(timesOf(f)).toEqual(want)
    // Vocabulary order, and each counted per beat or per episode by its source.
    const order = DEFAULT_VOCABULARY.map((e) => e.name)
    expect(f.events.map((e) => order.indexOf(e.name))).toEqual([...f.events.map((e) => order.indexOf(e.name))].sort((a, b) => a - b))
    for (const e of f.events) expect(e.counts).toBe('beats' in DEFAULT_VOCABULARY.find((v) => v.name === e.name)!.source ? 'beats' : 'episodes')
  })
})

describe('excerptFacts: boundary, times, evidence', () => {
  it.each([
    { name: 'an episode that started before the excerpt', rhythms: [rhythm('AFIB', 0, 5000)], boundary: true, times: [] },
    { name: 'one that starts at the excerpt start', rhythms: [rhythm('AFIB', START, 5000)], boundary: false, times: [START] },
    { name: 'one before and an onset inside', rhythms: [rhythm('AFIB', 0, 5000), rhythm('N', 5000, 8000), rhythm('AFIB', 8000)], boundary: true, times: [8000] },
  ])('$name', ({ rhythms, boundary, times }) => {
    const f = factsOf(beatsOf('NNNN'), rhythms)
    const e = eventIn(f, 'Atrial Fibrillation')!
    expect({ boundary: e.boundary, times: e.occurrences.map((o) => o.timeMs), beats: e.occurrences.map((o) => o.beats) }).toEqual({ boundary, times, beats: times.map(() => []) })
    expect(countable(f, 'Atrial Fibrillation')).toBe(!boundary)
  })

  it('rounds times to the ms and keeps samples', () => {
    const beats: FactsBeat[] = [
      { sample: 1000, timeMs: 1000.4, label: 'N' },
      { sample: 1800, timeMs: 1800.5, label: 'V' },
      { sample: 2600, timeMs: 2600.49, label: 'N' },
      { sample: 5200, timeMs: 5200.6, label: 'N' },
    ]
    const f = factsOf(beats, [{ rhythm: 'AFL', startSample: 4000, startMs: 4000.5, endSample: 4500, endMs: 4500.2 }])
    expect(f.events.map((e) => [e.name, e.occurrences.map((o) => [o.timeMs, o.sample])])).toEqual([
      ['Premature Ventricular Contraction', [[1801, 1800]]],
      ['Sinus Pause', [[2600, 2600]]],
      ['Atrial Flutter', [[4001, 4000]]],
    ])
    expect(f.rhythms).toEqual([{ rhythm: 'AFL', startMs: 4001, endMs: 4500 }])
  })

  it('clips rhythm episodes to the excerpt', () => {
    const f = factsOf([], [rhythm('N', 0, 3000), rhythm('AFIB', 3000)])
    expect(f.rhythms).toEqual([{ rhythm: 'N', startMs: START, endMs: 3000 }, { rhythm: 'AFIB', startMs: 3000, endMs: END }])
  })

  it('keeps the samples of every beat of an occurrence as its evidence', () => {
    const beats = beatsOf('NNVVVNVNVNVN')
    const f = factsOf(beats)
    const s = (...i: number[]) => i.map((k) => beats[k].sample)
    expect(eventIn(f, 'Ventricular Tachycardia')!.occurrences).toEqual([{ timeMs: at(2), sample: at(2), beats: s(2, 3, 4) }])
    expect(eventIn(f, 'Ventricular Bigeminy')!.occurrences).toEqual([{ timeMs: at(5), sample: at(5), beats: s(5, 6, 7, 8, 9, 10) }])
    expect(eventIn(f, 'Premature Ventricular Contraction')!.occurrences.map((o) => o.beats)).toEqual([s(2), s(3), s(4), s(6), s(8), s(10)])
    const pause = factsOf([...beatsOf('NN'), ...beatsOf('N', 800, at(1) + 2400)])
    expect(eventIn(pause, 'Sinus Pause')!.occurrences).toEqual([{ timeMs: at(1), sample: at(1), beats: [at(1), at(1) + 2400] }])
    const ramp = rampFast()
    const tachy = eventIn(factsOf(ramp), 'Sinus Tachycardia')!.occurrences[0]
    expect([tachy.beats[0], tachy.beats.at(-1)]).toEqual([RAMP_FAST_ONSET, ramp.at(-1)!.sample])
    // Going on from the start: no occurrence, its beats kept as the ongoing episode.
    const ongoing = eventIn(factsOf(fast()), 'Sinus Tachycardia')!
    expect([ongoing.occurrences, ongoing.boundary, ongoing.ongoing.map((o) => [o.beats[0], o.beats.at(-1)])]).toEqual([[], true, [[at(8, 500), at(80, 500)]]])
  })

  it('gives the heart-rate figures of summarize\'s tracker and the averaged series', () => {
    const f = factsOf(fast())
    expect(f.hr.meanHrBpm).toBe(120)
    expect(f.hr.maxHr).toEqual({ bpm: 120, timeMs: at(8, 500), ties: 73 })
    expect(Array.from(f.hrAvg.slice(7, 9))).toEqual([NaN, 120])
    expect(f.excerptId).toBe('r:ex:t:1000')
  })
})

describe('eventIn and countable', () => {
  const f = factsOf(beatsOf('NNVNN'), [rhythm('AFIB', 0, 3000), rhythm('AFL', 3000)])
  it.each([
    { event: 'Premature Ventricular Contraction', present: true, countable: true },
    { event: 'Atrial Fibrillation', present: true, countable: false },
    { event: 'Atrial Flutter', present: true, countable: true },
    { event: 'Sinus Pause', present: false, countable: true },
    { event: 'Not An Event', present: false, countable: true },
  ])('$event', ({ event, present, countable: c }) => {
    expect(eventIn(f, event) !== null).toBe(present)
    expect(countable(f, event)).toBe(c)
  })
})

// A sinus pause is the sinus node failing to fire: a long RR between two sinus-conducted beats in
// a rhythm the sinus node drives. The compensatory pause after a premature beat, a long RR in
// atrial fibrillation or flutter, or one that ends in an escape beat is not one; asystole (over
// 3 s) is any interval that long.
describe('excerptFacts: sinus pause and asystole', () => {
  const withSymbols = (symbols: string, gapAfter: number, gapMs: number): FactsBeat[] => {
    const out: FactsBeat[] = []
    let t = START
    ;[...symbols].forEach((symbol, i) => {
      const label = symbol === 'V' ? 'V' : symbol === 'A' ? 'S' : 'N'
      out.push({ sample: t, timeMs: t, label, symbol })
      t += i === gapAfter ? gapMs : 800
    })
    return out
  }
  it.each([
    { name: 'between two normal beats in sinus rhythm', symbols: 'NNNNN', rhythms: [rhythm('N', 0)], want: ['Sinus Pause'] },
    { name: 'between bundle branch block beats, unannotated', symbols: 'LLLLL', rhythms: [], want: ['Sinus Pause'] },
    { name: 'after a PVC (its compensatory pause)', symbols: 'NNVNN', rhythms: [], want: ['Premature Ventricular Contraction'] },
    { name: 'after a PAC', symbols: 'NNANN', rhythms: [], want: ['Premature Atrial Contraction'] },
    { name: 'ending in a junctional escape beat', symbols: 'NNNjN', rhythms: [], want: [] },
    { name: 'in atrial fibrillation', symbols: 'NNNNN', rhythms: [rhythm('AFIB', 0)], want: ['Atrial Fibrillation'] },
    { name: 'in atrial flutter', symbols: 'NNNNN', rhythms: [rhythm('AFL', 0)], want: ['Atrial Flutter'] },
    { name: 'in ventricular trigeminy (a sinus-driven rhythm)', symbols: 'NNNNN', rhythms: [rhythm('T', 0)], want: ['Sinus Pause'] },
  ])('a 2.5 s RR $name', ({ symbols, rhythms, want }) => {
    const f = factsOf(withSymbols(symbols, 2, 2500), rhythms)
    expect(f.events.map((e) => e.name)).toEqual(want)
  })

  it('a 3.5 s RR is asystole, in atrial fibrillation too', () => {
    expect(factsOf(withSymbols('NNNNN', 2, 3500), [rhythm('AFIB', 0)]).events.map((e) => e.name)).toEqual(['Asystole', 'Atrial Fibrillation'])
  })
})

// How far an excerpt is from a sustained-rate event's threshold: what a question needs before it
// says "no sinus tachycardia" of an excerpt whose rate sits at 100 bpm.
describe('rateMargin', () => {
  it.each([
    { name: '120 bpm throughout: tachycardia present, 20 bpm above', beats: fast(), event: 'Sinus Tachycardia', want: 20 },
    { name: '120 bpm: bradycardia absent, 60 bpm above its threshold', beats: fast(), event: 'Sinus Bradycardia', want: 60 },
    { name: '50 bpm: bradycardia present, 10 bpm below', beats: slow(), event: 'Sinus Bradycardia', want: 10 },
    { name: 'about 99 bpm: tachycardia absent by little', beats: beatsOf('N'.repeat(70), 606), event: 'Sinus Tachycardia', want: 100 - (60_000 * 8) / (8 * 606) },
    { name: 'too few beats for 30 s: null', beats: beatsOf('N'.repeat(30), 500), event: 'Sinus Tachycardia', want: null },
    { name: 'not a rate event: null', beats: fast(), event: 'Premature Ventricular Contraction', want: null },
  ])('$name', ({ beats, event, want }) => {
    const m = rateMargin(factsOf(beats), event)
    if (want === null) expect(m).toBeNull()
    else expect(m).toBeCloseTo(want, 9)
  })

  it('is measured in sinus context only: fibrillation at 120 bpm gives no rate for sinus tachycardia', () => {
    expect(rateMargin(factsOf(fast(), [rhythm('AFIB', 0)]), 'Sinus Tachycardia')).toBeNull()
  })
})
