// Hand-built excerpt facts for the task generator tests: a beat per letter at 360 Hz (times from
// the sample, as the annotate stage gives them), a rate that swings for the extremum tasks, the
// check every closed draft passes (its options parse back and the answer is gold.correct's), and
// the seeds a closed timing item is tried with: its decoys are drawn once and the item is dropped
// when they fall too near another option (decoy-beats.ts), so one seed may make no item.
import { expect } from 'vitest'
import { createSeededRandom, type SeededRandom } from '../../src/excerpts/seeded-random.ts'
import { excerptFacts, type ExcerptFacts, type FactsBeat, type RhythmSpan } from '../../src/qa/excerpt-facts.ts'
import { DEFAULT_VOCABULARY, inText } from '../../src/qa/vocabulary.ts'
import { LETTERS, splitAnswer, splitOptions } from '../../src/holtercare/format.ts'
import type { QaDraft } from '../../src/qa/draft.ts'

export const FS = 360
export const PVC = 'Premature Ventricular Contraction'
export const SEEDS = Array.from({ length: 12 }, (_, i) => `s${i}`)
export const r = (s: string) => createSeededRandom(s)
/** Seeds enough that some decoy draw is kept wherever the inputs let one be. */
export const DRAWS = Array.from({ length: 200 }, (_, i) => `draw${i}`)

/** The items `make` gives over `seeds`, in seed order, the dropped draws left out. */
export function madeOver<T>(make: (rng: SeededRandom) => T | null, seeds: readonly string[] = DRAWS): T[] {
  return seeds.flatMap((s) => {
    const x = make(r(s))
    return x === null ? [] : [x]
  })
}

/** The item of the first seed whose draw is kept. */
export function firstMade<T>(make: (rng: SeededRandom) => T | null, seeds: readonly string[] = DRAWS): T {
  for (const s of seeds) {
    const x = make(r(s))
    if (x !== null) return x
  }
  throw new Error(`no seed of ${seeds.length} made an item: every decoy draw was dropped (two options too near, or a decoy where none may be); give references that stand apart from the truth and each other`)
}

// N about 800 ms after the beat before (seeded jitter), V and S 480 ms (premature) with the next
// beat 1120 ms after a V.
export function beatsOf(text: string, fromMs = 10_000, seed = 'beats'): FactsBeat[] {
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

/** The facts of an excerpt of `beats`, spanning them with a second to spare unless `span` says. */
export function factsOf(beats: FactsBeat[], rhythms: RhythmSpan[] = [], span?: [number, number]): ExcerptFacts {
  const [a, b] = span ?? [Math.floor(beats[0].timeMs / 1000) * 1000 - 1000, Math.ceil(beats.at(-1)!.timeMs / 1000) * 1000 + 1000]
  return excerptFacts({ excerpt: { id: `r:ex:t:${Math.round((a * FS) / 1000)}`, startSample: Math.round((a * FS) / 1000), endSample: Math.round((b * FS) / 1000), startMs: a, endMs: b, fs: FS }, beats, rhythms, excludedBeats: 0, avgBeats: 8 }, DEFAULT_VOCABULARY)
}

/** About 195 s of beats whose rate swings between about 60 and 100 bpm every 20 s. */
export function swingFacts(): ExcerptFacts {
  const beats: FactsBeat[] = []
  for (let t = 5000; t < 200_000;) {
    const sample = Math.round((t / 1000) * FS)
    beats.push({ sample, timeMs: (sample * 1000) / FS, label: 'N' })
    t += 800 + 200 * Math.sin((2 * Math.PI * t) / 20_000) + 30 * Math.sin((2 * Math.PI * t) / 170_000)
  }
  return factsOf(beats)
}

/** A closed draft: the question names `event`, its `n` options parse and the answer is the option at gold.correct. */
export function checkClosed(d: QaDraft, n: number, event?: string): void {
  if (event) expect(d.question.toLowerCase()).toContain(inText(event).toLowerCase())
  const parsed = splitOptions(`${d.question} ${d.options}`)
  expect(parsed?.stem).toBe(d.question)
  expect(parsed!.options.map((o) => o.letter)).toEqual(LETTERS.slice(0, n))
  expect(parsed!.options.map((o) => o.text)).toEqual(d.gold.choices)
  const c = d.gold.correct!
  expect(d.answer).toBe(`${LETTERS[c]}. ${d.gold.choices![c]}`)
  expect(splitAnswer(d.answer)).toEqual(parsed!.options[c])
}
