// Decoy beats around a true one for the closed timing tasks: `rank` of them before it and
// 3 - rank after, drawn at random from a pool of the excerpt's beats, no two chosen beats (the
// truth included) neighbours. Neighbours would give the truth away from the numbers alone: the
// options of a premature beat and the beats either side of it are spaced by its short coupling
// interval and the long pause after it, which a blind answerer can read off the option values.
// Random beats spaced by whole stretches of rhythm carry no such mark. Every two options, the
// truth included, are kept at least as far apart as the truth is from any beat that could not be
// a decoy, so the truth is not the option with the emptiest neighbourhood either.

/** Indices (ascending) of the decoys, every two options more than `minApart` beats apart, or null when the pool has too few on either side. */
export function decoysAround(truth: number, pool: readonly number[], rank: number, below: (n: number) => number, minApart = 1): number[] | null {
  const apart = (a: number, b: number) => Math.abs(a - b) > minApart
  const pickFrom = (side: number[], n: number): number[] | null => {
    const out: number[] = []
    let left = side.filter((i) => apart(i, truth))
    while (out.length < n) {
      if (left.length === 0) return null
      const i = left[below(left.length)]
      out.push(i)
      left = left.filter((j) => apart(j, i))
    }
    return out
  }
  const before = pickFrom(pool.filter((i) => i < truth), rank)
  const after = pickFrom(pool.filter((i) => i > truth), 3 - rank)
  return before && after ? [...before, ...after].sort((a, b) => a - b) : null
}
