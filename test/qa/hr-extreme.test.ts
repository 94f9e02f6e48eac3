// The heart-rate extremes an extremum item asks (unit layer, table-driven, hand-made beat lists):
// the averaged basis at the beat ending the fastest (slowest) window, the beat basis at the beat
// ending the shortest (longest) RR interval, both compared in whole samples so two windows or
// intervals of one length tie and give no extreme; no interval across a break; the decoy moments
// (`others`) clearly slower (faster) and sharing no beat with it, and `clear` only where every
// such moment is the margin away.
import { describe, expect, it } from 'vitest'
import { excerptFacts, type ExcerptFacts, type FactsBeat } from '../../src/qa/excerpt-facts.ts'
import { extremeApart, extremeBeats, hrExtreme, type Extremum, type RateBasis } from '../../src/qa/hr-extreme.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'

// Beats `rr` samples apart from sample 1000 (times from the sample); a negative interval marks
// the beat ending it as following a break, |rr| after the one before.
function factsOfRr(rr: readonly number[], fs = 1000): ExcerptFacts {
  const beats: FactsBeat[] = [{ sample: 1000, timeMs: 1_000_000 / fs, label: 'N' }]
  for (const d of rr) {
    const sample = beats.at(-1)!.sample + Math.abs(d)
    beats.push({ sample, timeMs: (sample * 1000) / fs, label: 'N', ...(d < 0 ? { afterBreak: true } : {}) })
  }
  const end = beats.at(-1)!.sample + fs
  return excerptFacts({ excerpt: { id: 'r:ex:t:0', startSample: 0, endSample: end, startMs: 0, endMs: (end * 1000) / fs, fs }, beats, rhythms: [], excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY)
}
const rep = (n: number, rr: number) => Array<number>(n).fill(rr)

describe('hrExtreme, beat basis (one RR interval)', () => {
  const base = [800, 800, 700, 800, 900, 800, 1000, 800, 800]
  it.each([
    { name: 'the shortest interval ends at beat 3', rr: base, which: 'fastest', index: 3, bpm: 85.7 },
    { name: 'the longest ends at beat 7', rr: base, which: 'slowest', index: 7, bpm: 60 },
    { name: 'two shortest of one length tie', rr: [800, 700, 800, 900, 700, 800], which: 'fastest', index: null },
    { name: 'the longest is still unique there', rr: [800, 700, 800, 900, 700, 800], which: 'slowest', index: 4, bpm: 66.7 },
    { name: 'a long gap across a break is no interval', rr: [800, 800, 900, -5000, 800, 800], which: 'slowest', index: 3, bpm: 66.7 },
    { name: 'one interval shorter by one sample is no tie', rr: [288, 253, 288, 252, 288, 290], fs: 360, which: 'fastest', index: 4, bpm: 85.7 },
    { name: 'one beat has no interval', rr: [], which: 'fastest', index: null },
  ] as { name: string; rr: number[]; fs?: number; which: Extremum; index: number | null; bpm?: number }[])('$name', ({ rr, fs, which, index, bpm }) => {
    const f = factsOfRr(rr, fs)
    const x = hrExtreme(f, which, 'beat', 3)
    if (index === null) return expect(x).toBeNull()
    expect(x).toMatchObject({ which, basis: 'beat', index, bpm, timeMs: Math.round(f.beats[index].timeMs) })
    expect(extremeBeats(f, x!)).toEqual([f.beats[index - 1].sample, f.beats[index].sample])
    expect(extremeApart(f, x!)).toBe(2)
  })

  // 257 samples at 360 Hz is 713.9 ms: beat times rounded to the ms put these two intervals 713
  // and 714 ms apart, but in samples they are one length, so they tie.
  it('ties in samples whatever the rounded times say', () => {
    const f = factsOfRr([288, 257, 293, 257, 288], 360)
    const ms = [2, 4].map((i) => Math.round(f.beats[i].timeMs) - Math.round(f.beats[i - 1].timeMs))
    expect(new Set(ms).size).toBe(2)
    expect(hrExtreme(f, 'fastest', 'beat', 3)).toBeNull()
  })
})

describe('hrExtreme, average basis (8 intervals)', () => {
  // 40 intervals of 800 samples with 8 of 600 ending at beats 16..23: one window of 100 bpm.
  const fast = [...rep(15, 800), ...rep(8, 600), ...rep(17, 800)]
  it.each([
    { name: 'the window of the fast stretch, at its last beat', rr: fast, which: 'fastest', index: 23, bpm: 100 },
    { name: 'two such stretches of one length tie', rr: [...rep(9, 800), ...rep(8, 600), ...rep(12, 800), ...rep(8, 600), ...rep(9, 800)], which: 'fastest', index: null },
    { name: 'a slow stretch', rr: [...rep(20, 800), ...rep(8, 1000), ...rep(12, 800)], which: 'slowest', index: 28, bpm: 60 },
    { name: 'a constant rate ties everywhere', rr: rep(30, 800), which: 'fastest', index: null },
    { name: 'fewer than a window of intervals', rr: rep(7, 800), which: 'slowest', index: null },
  ] as { name: string; rr: number[]; which: Extremum; index: number | null; bpm?: number }[])('$name', ({ rr, which, index, bpm }) => {
    const f = factsOfRr(rr)
    const x = hrExtreme(f, which, 'average', 3)
    if (index === null) return expect(x).toBeNull()
    expect(x).toMatchObject({ which, basis: 'average', index, bpm, timeMs: Math.round(f.beats[index].timeMs) })
    expect(extremeBeats(f, x!)).toEqual(f.beats.slice(index - 8, index + 1).map((b) => b.sample))
    expect(extremeApart(f, x!)).toBe(10)
  })
})

describe('hrExtreme: others and clear', () => {
  // A fast moment (one interval, or a window's 8) and a second one `second` samples long far from
  // it, the rest at 800: fastest at beat 11 (18), the second ending at beat 26 (40).
  const beatRr = (second: number) => [...rep(10, 800), 600, ...rep(14, 800), second, ...rep(10, 800)]
  const windowRr = (second: number) => [...rep(10, 800), ...rep(8, 600), ...rep(14, 800), ...rep(8, second), ...rep(10, 800)]
  const bpmAt = (f: ExcerptFacts, basis: RateBasis, i: number) => (basis === 'average' ? f.hrAvg[i] : (i > 0 ? (60 * f.fs) / (f.beats[i].sample - f.beats[i - 1].sample) : NaN))
  it.each([
    { name: 'beat basis, every other interval 25 bpm slower', basis: 'beat', rr: beatRr(800), index: 11, clear: true },
    { name: 'beat basis, a second interval 1.6 bpm slower', basis: 'beat', rr: beatRr(610), index: 11, clear: false, near: 26 },
    { name: 'average basis, every window sharing no beat 25 bpm slower', basis: 'average', rr: windowRr(800), index: 18, clear: true },
    { name: 'average basis, a window sharing no beat 1.6 bpm slower', basis: 'average', rr: windowRr(610), index: 18, clear: false, near: 40 },
  ] as { name: string; basis: RateBasis; rr: number[]; index: number; clear: boolean; near?: number }[])('$name', ({ basis, rr, index, clear, near }) => {
    const f = factsOfRr(rr)
    const x = hrExtreme(f, 'fastest', basis, 3)!
    const span = basis === 'average' ? 8 : 1
    expect(x).toMatchObject({ index, bpm: 100, clear })
    // Every beat ending a rate, sharing no beat with the extreme and the margin slower, is a decoy moment; no other is.
    const expected = f.beats.flatMap((_, i) => (Number.isFinite(bpmAt(f, basis, i)) && Math.abs(i - index) > span && 100 - bpmAt(f, basis, i) >= 3 ? [i] : []))
    expect(x.others).toEqual(expected)
    expect(x.others.length).toBeGreaterThan(20)
    // Moments next to it are never offered: they share its beats.
    for (let i = index - span; i <= index + span; i++) expect(x.others).not.toContain(i)
    if (near !== undefined) {
      expect(bpmAt(f, basis, near)).toBeCloseTo(98.4, 1)
      expect(x.others).not.toContain(near)
    }
    // A larger margin than the whole swing leaves no decoy and nothing clear.
    expect(hrExtreme(f, 'fastest', basis, 30)).toMatchObject({ index, others: [], clear: false })
  })
})
