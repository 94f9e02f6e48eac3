// Leak-free option sets by design ("Leak-free distractors"; benchmark-spec.md
// "Distractor leak"). Closed items whose answer is one value among a few (a count, a diagnosis,
// yes/no) are made in groups: k items about k different excerpts share one option set, the k
// values of their truths, and each item's truth is a different one of them. Whatever an
// answerer that does not look at the ECG picks from the options (the middle one, the smallest,
// the most frequent value in a train split, a letter), it is right on exactly one item of each
// group: 1/k, chance. The price is that an item is made only where its record has partners; the
// options are the true values of the same question about other excerpts of the same record
// (real, plausible numbers and findings, close together where the data allow).
import type { SeededRandom } from '../excerpts/seeded-random.ts'

/** Shuffles a copy (Fisher-Yates) with a seeded source. */
export function shuffled<T>(items: readonly T[], rng: SeededRandom): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

export interface Grouped<T> {
  /** The option values of every member, in order (numbers ascending). */
  values: string[]
  /** Each member and the index of its truth in `values`. */
  members: { ref: T; truth: number }[]
}

/**
 * Groups of `size` candidates with distinct numeric truths, taken from the lowest values up so a
 * group's values lie close together: each group takes one candidate of each of the `size`
 * smallest values still available.
 */
export function numericGroups<T>(cands: readonly { ref: T; value: number }[], size: number, rng: SeededRandom): Grouped<T>[] {
  const buckets = new Map<number, T[]>()
  for (const c of shuffled(cands, rng)) buckets.set(c.value, [...(buckets.get(c.value) ?? []), c.ref])
  const out: Grouped<T>[] = []
  for (;;) {
    const values = [...buckets.keys()].filter((v) => buckets.get(v)!.length > 0).sort((a, b) => a - b).slice(0, size)
    if (values.length < size) return out
    out.push({ values: values.map(String), members: values.map((v, truth) => ({ ref: buckets.get(v)!.pop()!, truth })) })
  }
}

export interface LabelCandidate<T> {
  ref: T
  /** The values that may be this candidate's truth. */
  truths: readonly string[]
  /** Values that are true for it too, so never offered beside its truth. */
  present: ReadonlySet<string>
}

/**
 * Groups of `size` candidates with distinct truths such that no member's other options are true
 * for it. Greedy over a seeded order; what is left is grouped again at smaller sizes down to
 * `minSize` (the option count of those items is then smaller, and so is their chance).
 */
export function labelGroups<T>(cands: readonly LabelCandidate<T>[], size: number, minSize: number, rng: SeededRandom): Grouped<T>[] {
  const out: Grouped<T>[] = []
  let left = shuffled(cands, rng)
  for (let k = size; k >= minSize; k--) {
    const rest: LabelCandidate<T>[] = []
    let open: { c: LabelCandidate<T>; v: string }[] = []
    for (const c of left) {
      const v = c.truths.find((t) => open.every((m) => m.v !== t && !m.c.present.has(t) && !c.present.has(m.v)))
      if (v === undefined) {
        rest.push(c)
        continue
      }
      open.push({ c, v })
      if (open.length === k) {
        const order = shuffled(open, rng)
        out.push({ values: order.map((m) => m.v), members: order.map((m, truth) => ({ ref: m.c.ref, truth })) })
        open = []
      }
    }
    left = [...rest, ...open.map((m) => m.c)]
  }
  return out
}

/** Pairs of a candidate for which something holds with one for which it does not (yes/no balance). */
export function pairs<T>(yes: readonly T[], no: readonly T[], max: number, rng: SeededRandom): [T, T][] {
  const a = shuffled(yes, rng)
  const b = shuffled(no, rng)
  return a.slice(0, Math.min(a.length, b.length, max)).map((y, i) => [y, b[i]])
}

/** Answer positions in shuffled blocks of 0..n-1, so each position is right equally often. */
export function createDeck(n: number, rng: SeededRandom): () => number {
  let block: number[] = []
  return () => {
    if (block.length === 0) block = shuffled(Array.from({ length: n }, (_, i) => i), rng)
    return block.pop()!
  }
}
