// Decoy beats for the closed timing tasks, drawn so the four options are exchangeable: seen only
// as times inside the excerpt, the truth is no likelier to be any one of them. A decoy is placed
// where a truth of the same question lies in another excerpt of the record (its position as a
// fraction of that excerpt), snapped to the nearest beat that may be a decoy; so decoys follow
// wherever truths fall (events spread over a tile, rate extremes crowding its edges) instead of
// a rule of their own that an answerer could tell from the truth's (a fixed number before and
// after the truth, uniform between it and the edges, left the truth recognisable half the time).
// No two options (the truth included) are within `minApart` beats of each other, a rule that
// treats every option alike: neighbouring beats would show a premature beat's short coupling
// interval and the pause after it. The truth's rank in time order is whatever the draw gives;
// fixing it in advance would make the decoys depend on the truth again.

export interface DecoyInput {
  /** Index of the true beat. */
  truth: number
  /** Indices (ascending) of the beats that may be decoys. */
  pool: readonly number[]
  /** Position of a beat in the excerpt, 0 at its start and 1 at its end. */
  position: (index: number) => number
  /** Positions of the truths of the same question in the record's other excerpts. */
  references: readonly number[]
  minApart: number
}

const TRIES = 40

/** Indices of 3 decoys (ascending), or null when no draw fits within a few tries (or fewer than 3 references). */
export function exchangeableDecoys(d: DecoyInput, below: (n: number) => number): number[] | null {
  if (d.references.length < 3 || d.pool.length < 3) return null
  const positions = d.pool.map(d.position)
  const nearest = (p: number) => {
    let lo = 0
    let hi = positions.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (positions[mid] < p) lo = mid + 1
      else hi = mid
    }
    return lo > 0 && Math.abs(positions[lo - 1] - p) <= Math.abs(positions[lo] - p) ? d.pool[lo - 1] : d.pool[lo]
  }
  for (let t = 0; t < TRIES; t++) {
    const chosen = [d.truth]
    for (let k = 0; k < 3; k++) {
      const beat = nearest(d.references[below(d.references.length)])
      if (chosen.some((c) => Math.abs(c - beat) <= d.minApart)) break
      chosen.push(beat)
    }
    if (chosen.length === 4) return chosen.slice(1).sort((a, b) => a - b)
  }
  return null
}
