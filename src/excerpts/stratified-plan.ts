// The `stratified` excerpt rule ("Excerpts"): the record is cut into tiles of `length`
// samples from a seeded offset; every `horizon` samples the tiles of that stretch are weighed by
// the events they hold (the QA vocabulary's, from the reference beats and rhythms as they passed)
// and `perHour` per hour of them are chosen, deterministically from the seed: first, in turns, a tile
// holding each event still uncovered (rarest event first) up to half the quota, then tiles at
// random, so excerpts with and without each event occur. A tile that straddles a gap, or
// overlaps a window the quality stage flagged (unless artifacts are allowed), is never chosen.
// Decisions wait for the watermark to pass the stretch's last tile, so the render stages hold
// at most horizon + length of signal; memory holds the stretch's beats and tiles only.
import { createSeededRandom, type SeededRandom } from './seeded-random.ts'
import type { ExcerptPlan, Span } from './excerpt-plans.ts'
import { createFactBuffer, type FactBuffer } from '../qa/fact-buffer.ts'
import type { VocabularyEvent } from '../qa/vocabulary.ts'
import { shuffled } from '../qa/option-groups.ts'

/** What the plan is fed as the stream passes: the qa stage's fact buffer (beats, rhythm changes, `~` marks, artifacts, gaps). */
export type StratifiedInput = Pick<FactBuffer, 'beat' | 'rhythm' | 'artifact' | 'noise' | 'gap'>

export interface StratifiedOptions {
  length: number
  horizon: number
  /** Tiles chosen per hour of record (of the tiles a stretch has, so a short record gets its share). */
  perHour: number
  fs: number
  seed: string
  allowArtifacts: boolean
  /** Whose beats say which events a tile holds. */
  source: 'reference' | 'detector'
  avgBeats: number
  vocab: readonly VocabularyEvent[]
}

/** A stratified plan; feed it the stream's facts through `input` as they pass. */
export function stratifiedPlan(o: StratifiedOptions): ExcerptPlan & { input: StratifiedInput } {
  const rng = createSeededRandom(o.seed)
  const offset = rng.below(o.length)
  const horizon = Math.max(o.length, Math.floor(o.horizon / o.length) * o.length)
  const buffer = createFactBuffer(o.vocab, o.avgBeats)
  let chunk = 0 // the stretch [offset + chunk * horizon, + horizon) still to decide
  let chosen: Span[] = []
  let owed = 0 // tiles per hour of the stretches decided so far, unrounded: what rounding left over carries on
  const chunkStart = () => offset + chunk * horizon
  const tiles = (end: number) => {
    const out: [number, number][] = []
    for (let s = chunkStart(); s + o.length <= Math.min(end, chunkStart() + horizon); s += o.length) out.push([s, s + o.length])
    return out
  }
  const decide = (end: number) => {
    const all = tiles(end)
    // The quota accumulates over the stretches, so 1 tile in 4 hours with 1-hour stretches takes
    // a tile every fourth stretch rather than rounding to none each time.
    const before = Math.round(owed)
    owed += (o.perHour * all.length * o.length) / (o.fs * 3600)
    const quota = Math.round(owed) - before
    const cands = all.filter(([s, e]) => buffer.clean(s, e, o.allowArtifacts)).map(([s, e]) => ({
      s, e, events: buffer.facts({ id: '', startSample: s, endSample: e, startMs: 0, endMs: 0, fs: o.fs }, o.source).events.map((x) => x.name),
    }))
    chosen.push(...choose(cands, quota, rng).map(([s, e]) => ({ startSample: s, endSample: e, reason: { rule: 'stratified', seed: o.seed } })))
    chosen.sort((a, b) => a.startSample - b.startSample)
    chunk++
    buffer.keepFrom(chunkStart())
  }
  return {
    event() {},
    due(w) {
      while (chunkStart() + horizon <= w) decide(w)
      let n = 0
      while (n < chosen.length && chosen[n].endSample <= w) n++
      return chosen.splice(0, n)
    },
    lowest: () => Math.min(chosen[0]?.startSample ?? Infinity, chunkStart()),
    end(end) {
      while (chunkStart() + o.length <= end) decide(end)
      return chosen.splice(0)
    },
    input: buffer,
  }
}

// Up to half of `n` tiles in turns over the events, rarest first, a random tile holding each
// event not yet in a chosen tile; then random tiles for the rest.
function choose(cands: { s: number; e: number; events: string[] }[], n: number, rng: SeededRandom): [number, number][] {
  const pool = shuffled(cands, rng)
  const taken = new Set<number>()
  const counts = new Map<string, number>()
  for (const c of pool) for (const ev of c.events) counts.set(ev, (counts.get(ev) ?? 0) + 1)
  const rare = [...counts.keys()].sort((a, b) => counts.get(a)! - counts.get(b)! || (a < b ? -1 : 1))
  // An event's turn is skipped while a chosen tile already holds it more often than its turn count.
  const held = new Map<string, number>()
  for (let turn = 0, added = true; added && taken.size < Math.ceil(n / 2); turn++) {
    added = false
    for (const ev of rare) {
      if (taken.size >= Math.ceil(n / 2)) break
      if ((held.get(ev) ?? 0) > turn) continue
      const i = pool.findIndex((c, k) => !taken.has(k) && c.events.includes(ev))
      if (i >= 0) {
        taken.add(i)
        added = true
        for (const e of pool[i].events) held.set(e, (held.get(e) ?? 0) + 1)
      }
    }
  }
  for (let k = 0; k < pool.length && taken.size < n; k++) taken.add(k)
  return [...taken].map((k) => [pool[k].s, pool[k].e])
}
