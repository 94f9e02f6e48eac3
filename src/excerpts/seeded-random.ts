// A small seeded pseudo-random generator (mulberry32 over a 32-bit state seeded by FNV-1a of the
// seed text), so excerpts and, later, questions chosen "at random" are the same on every rerun
// and machine, and differ between records that share a seed.

export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [0, n). */
  below(n: number): number
}

/** A generator for `seed` (any text: a number, "<seed>:<recordId>"). */
export function createSeededRandom(seed: string | number): SeededRandom {
  let state = fnv1a(String(seed))
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, below: (n) => Math.floor(next() * n) }
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
