// Exchangeable decoys for the closed timing tasks (unit layer): no draw from fewer than three
// references, decoys at the pool's beats nearest the references, one draw per call kept only when
// every two options (the truth included) are more than minApart beats apart and every decoy may
// be one, never moved or drawn again; and, over many seeded draws, with truths and references
// from one position distribution, the truth of a kept draw no likelier than a decoy to be at any
// rank in time order or to be the option nearest an edge of the excerpt.
import { describe, expect, it } from 'vitest'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import { exchangeableDecoys, keepRate, type DecoyInput } from '../../src/qa/decoy-beats.ts'
import { DRAWS } from './hand-facts.ts'

const N = 80
const ALL = Array.from({ length: N }, (_, i) => i)
const position = (i: number) => (i + 0.5) / N
const snap = (p: number) => Math.min(N - 1, Math.max(0, Math.round(p * N - 0.5)))
const below = (seed: string) => {
  const rng = createSeededRandom(seed)
  return (n: number) => rng.below(n)
}
const input = (d: Partial<DecoyInput>): DecoyInput => ({ truth: 40, pool: ALL, position, references: [0.1, 0.3, 0.7, 0.9], minApart: 1, ...d })
// The draws of DRAWS that are kept.
const kept = (d: DecoyInput) => DRAWS.flatMap((s) => {
  const x = exchangeableDecoys(d, below(s))
  return x ? [x] : []
})

describe('exchangeableDecoys', () => {
  it.each([{ references: [] }, { references: [0.2] }, { references: [0.2, 0.8] }])('$references.length references: no draw', ({ references }) => {
    expect(kept(input({ references }))).toEqual([])
  })

  // Beats 8, 20 and 64 are nearest the references, which are drawn without replacement: every
  // draw uses each once, and is kept.
  it('3 references: every draw uses each of them once', () => {
    const made = kept(input({ references: [0.11, 0.26, 0.81] }))
    for (const d of made) expect(d).toEqual([8, 20, 64])
    expect(made.length).toBe(DRAWS.length)
  })

  it('is null with a pool of fewer than three beats, or when every reference lies at the truth', () => {
    expect(kept(input({ pool: [3, 70] }))).toEqual([])
    expect(kept(input({ references: [0.5, 0.505, 0.51, 0.52] }))).toEqual([])
  })

  it.each([0, 1, 2, 5, 10])('every two options more than %i beats apart, the decoys ascending', (minApart) => {
    const rng = createSeededRandom(`apart:${minApart}`)
    let made = 0
    const trials = 300
    for (let t = 0; t < trials; t++) {
      const truth = rng.below(N)
      const references = Array.from({ length: 3 + rng.below(8) }, () => rng.next())
      const d = exchangeableDecoys(input({ truth, references, minApart }), (n) => rng.below(n))
      if (!d) continue
      made++
      expect(d).toHaveLength(3)
      expect(d).toEqual([...d].sort((a, b) => a - b))
      const all = [truth, ...d]
      for (const a of all) for (const b of all) if (a !== b) expect(Math.abs(a - b)).toBeGreaterThan(minApart)
    }
    // Two picks of one reference always collide, so some draws are dropped whatever minApart.
    expect(made).toBeGreaterThan(20)
    expect(made).toBeLessThan(trials)
  })

  it('draws once per call (three picks), whether the draw is kept or dropped', () => {
    let calls = 0
    let dropped = 0
    for (const [k, s] of DRAWS.entries()) {
      const rng = createSeededRandom(s)
      const before = calls
      const d = exchangeableDecoys(input({ truth: k % N, references: [0.1, 0.2, 0.3, 0.5, 0.7], minApart: 5 }), (n) => (calls++, rng.below(n)))
      expect(calls - before).toBe(3)
      if (!d) dropped++
    }
    expect(dropped).toBeGreaterThan(0)
  })

  it('takes its decoys from the pool, each the pool\'s beat nearest a reference', () => {
    // Every third beat may be a decoy, the truth not among them.
    const pool = ALL.filter((i) => i % 3 === 0)
    const references = [0.05, 0.2, 0.33, 0.61, 0.87]
    const nearest = new Set(references.map((p) => pool.reduce((b, i) => (Math.abs(position(i) - p) < Math.abs(position(b) - p) ? i : b))))
    const made = kept(input({ truth: 41, pool, references }))
    expect(made.length).toBeGreaterThan(0)
    for (const d of made) for (const i of d) expect(nearest.has(i)).toBe(true)
    // Each reference's beat is used by some draw.
    expect(new Set(made.flat())).toEqual(nearest)
  })

  // Beats 4, 16 and 70 (even) and 27 and 49 (odd) are nearest the references; only even beats may
  // be decoys, the truth (odd) not held to that.
  it('drops a draw landing on a beat that may not be a decoy instead of moving it', () => {
    const base = input({ truth: 41, references: [0.06, 0.21, 0.34, 0.62, 0.88], minApart: 2 })
    const even = (i: number) => i % 2 === 0
    let both = 0
    let droppedForAllowed = 0
    for (const s of DRAWS) {
      const free = exchangeableDecoys(base, below(s))
      const held = exchangeableDecoys({ ...base, allowed: even }, below(s))
      // The same draw: kept as it is when every decoy may be one, else dropped.
      expect(held).toEqual(free && free.every(even) ? free : null)
      if (held) both++
      else if (free) droppedForAllowed++
    }
    expect(both).toBeGreaterThan(0)
    expect(droppedForAllowed).toBeGreaterThan(0)
  })
})

// Position distributions by their inverse CDF: uniform; crowded at both edges (arcsine, as rate
// extremes crowd an excerpt's ends); crowded at one edge.
const F = {
  uniform: (u: number) => u,
  'both edges': (u: number) => Math.sin((Math.PI * u) / 2) ** 2,
  'one edge': (u: number) => u * u,
}

const WANT = 4000
const MAX_TRIALS = 100_000

// Draws a truth and `refs` references from F until WANT draws are kept: the share of each rank of
// the truth in time order and how often it is the option nearest an edge of the excerpt.
function exchangeability(f: (u: number) => number, refs: number, minApart: number) {
  const rng = createSeededRandom(`exchangeable:${refs}:${minApart}:${f(0.3)}`)
  const ranks = [0, 0, 0, 0]
  let edge = 0
  let made = 0
  let trials = 0
  const fromEdge = (i: number) => Math.min(position(i), 1 - position(i))
  for (; made < WANT && trials < MAX_TRIALS; trials++) {
    const truth = snap(f(rng.next()))
    const references = Array.from({ length: refs }, () => f(rng.next()))
    const d = exchangeableDecoys({ truth, pool: ALL, position, references, minApart }, (n) => rng.below(n))
    if (!d) continue
    made++
    const order = [...d, truth].sort((a, b) => a - b)
    ranks[order.indexOf(truth)]++
    if ([...order].sort((a, b) => fromEdge(a) - fromEdge(b) || a - b)[0] === truth) edge++
  }
  return { made, trials, ranks: ranks.map((n) => n / made), edge: edge / made }
}

describe('exchangeableDecoys over 4,000 kept draws: the truth is any option alike', () => {
  // Crowded positions were where redrawing until the decoys cleared the truth failed: a truth in
  // the crowd pushed the decoys out of it. One draw kept or dropped whole treats every option alike.
  it.each([
    { f: 'uniform', refs: 8, minApart: 1 },
    { f: 'uniform', refs: 20, minApart: 2 },
    { f: 'uniform', refs: 8, minApart: 5 },
    { f: 'one edge', refs: 8, minApart: 1 },
    { f: 'one edge', refs: 20, minApart: 2 },
    { f: 'both edges', refs: 8, minApart: 2 },
    { f: 'both edges', refs: 20, minApart: 10 },
  ] as const)('$f, $refs references, minApart $minApart', ({ f, refs, minApart }) => {
    const x = exchangeability(F[f], refs, minApart)
    expect(x.made).toBe(WANT)
    // Some draws collide, none of these settings leaves too few kept.
    expect(x.trials).toBeGreaterThan(WANT)
    // Each rank, and the truth nearest an edge, within 3 points of a quarter (about 4 standard errors).
    for (const share of x.ranks) expect(Math.abs(share - 0.25)).toBeLessThan(0.03)
    expect(Math.abs(x.edge - 0.25)).toBeLessThan(0.03)
  })
})

// A rate extreme inside an excerpt sits where the rate is flat and no decoy may be near it; one at
// an edge ends a trend and excludes little. Modelled here: each excerpt of a "record" has a truth
// from one distribution, excluding 12 beats either side when it is inside the excerpt and 2 when
// it is near an edge. Unweighted, the dropped draws leave the kept truths nearest an edge more
// often than a decoy; weighting each reference by its own excerpt's keep rate evens them out.
describe('exchangeableDecoys weighted by keep rate, when the truth excludes more inside the excerpt', () => {
  const EXCERPTS = 30
  function edgeShare(weighted: boolean) {
    const rng = createSeededRandom(`zone:${weighted}`)
    const fromEdge = (i: number) => Math.min(position(i), 1 - position(i))
    let made = 0
    let edge = 0
    let records = 0
    for (; made < WANT && records < 2000; records++) {
      const truths = Array.from({ length: EXCERPTS }, () => snap(F['both edges'](rng.next())))
      const inputs = truths.map((truth, e): DecoyInput => {
        const zone = fromEdge(truth) * N > 12 ? 12 : 2
        return { truth, pool: ALL, position, allowed: (i) => Math.abs(i - truth) > zone, references: truths.filter((_, o) => o !== e).map(position), minApart: 2 }
      })
      const rates = weighted ? inputs.map((d) => keepRate(d, (n) => rng.below(n))) : null
      for (const [e, d] of inputs.entries()) {
        const decoys = exchangeableDecoys(rates ? { ...d, weights: rates.filter((_, o) => o !== e) } : d, (n) => rng.below(n))
        if (!decoys) continue
        made++
        if ([...decoys, d.truth].sort((a, b) => fromEdge(a) - fromEdge(b) || a - b)[0] === d.truth) edge++
      }
    }
    return { made, edge: edge / made }
  }

  it('unweighted: the kept truth is the option nearest an edge more often than a quarter', () => {
    const x = edgeShare(false)
    console.log(`unweighted: ${x.made} kept, truth nearest an edge ${(100 * x.edge).toFixed(1)}%`)
    expect(x.made).toBeGreaterThanOrEqual(WANT)
    expect(x.edge).toBeGreaterThan(0.3)
  })

  it('weighted: within 3 points of a quarter', () => {
    const x = edgeShare(true)
    console.log(`weighted: ${x.made} kept, truth nearest an edge ${(100 * x.edge).toFixed(1)}%`)
    expect(x.made).toBeGreaterThanOrEqual(WANT)
    expect(Math.abs(x.edge - 0.25)).toBeLessThan(0.03)
  })
})

describe('keepRate', () => {
  it('is the share of draws kept: 1 when every draw stands apart, 0 when none can', () => {
    const all = { truth: 40, pool: ALL, position, references: [0.1, 0.3, 0.7], minApart: 1 }
    expect(keepRate(all, below('k1'))).toBe(1)
    expect(keepRate({ ...all, references: [0.5, 0.505, 0.51] }, below('k2'))).toBe(0)
    const some = keepRate({ ...all, references: [0.1, 0.3, 0.7, 0.5, 0.49] }, below('k3'), 400)
    expect(some).toBeGreaterThan(0.05)
    expect(some).toBeLessThan(0.95)
  })

  it('draws in proportion to the weights: a reference of weight 0 is never used', () => {
    const d = { truth: 40, pool: ALL, position, references: [0.1, 0.3, 0.7, 0.9], weights: [1, 1, 1, 0], minApart: 1 }
    for (const s of DRAWS) expect(exchangeableDecoys(d, below(s))).toEqual([8, 23, 55])
  })
})
