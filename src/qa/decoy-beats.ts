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
// fixing it in advance would make the decoys depend on the truth again. For the same reason a
// draw that puts a decoy too near another option is not drawn again: redrawing until the decoys
// clear a truth in a crowded stretch pushes them out of it, leaving the truth the option nearest
// the crowd. One draw, kept only when all four options stand apart (a rule the same for each of
// them), keeps them exchangeable; the item is not asked otherwise.
// One rule is not the same for every option: a decoy may not be a beat the truth excludes (a
// moment as fast as the fastest). A rate extreme inside an excerpt sits where the rate is flat, so
// it excludes a wide stretch and its draws are often dropped; one at an edge, ending a trend,
// excludes little and is kept more often, so kept truths crowd the edges more than the truths of
// the record's excerpts that decoys follow. Weighting each reference by how often its own
// excerpt's draw is kept (`keepRate`) makes decoys follow the truths that are kept.

export interface DecoyInput {
  /** Index of the true beat. */
  truth: number
  /** Indices (ascending) of the beats a drawn position snaps to. */
  pool: readonly number[]
  /** Whether a snapped beat may be a decoy (default: any); a draw landing on another is not kept, rather than moved to the nearest that may, which would pile decoys at the edges of the stretches they may not use. */
  allowed?: (index: number) => boolean
  /** Position of a beat in the excerpt, 0 at its start and 1 at its end. */
  position: (index: number) => number
  /** Positions of the truths of the same question in the record's other excerpts. */
  references: readonly number[]
  /** Weight of each reference (default: equal), drawn in proportion to it. */
  weights?: readonly number[]
  minApart: number
}

const UNIT = 2 ** 30

/**
 * The draw for `d`, made ready once (the pool's positions, the references with their weights) so
 * that drawing it many times (`keepRate`) does not redo that: each call makes one draw of 3
 * decoys from `below`, returning them ascending, or null when they are too near another option or
 * may not be decoys, or there are fewer than 3 references.
 */
export function decoyDraw(d: DecoyInput): (below: (n: number) => number) => number[] | null {
  const all = d.references.map((p, i) => ({ p, w: d.weights?.[i] ?? 1 })).filter((r) => r.w > 0)
  if (d.references.length < 3 || d.pool.length < 3 || all.length < 3) return () => null
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
  return (below) => {
    // Three different references: a reference drawn twice lands on one beat and would always be
    // dropped, so drawing without replacement keeps the same draws, only more often. With weights
    // a uniform draw (from `below`) picks among those left in proportion to their weights.
    const refs = [...all]
    const chosen = [d.truth]
    for (let k = 0; k < 3; k++) {
      let j = k
      if (d.weights) {
        let total = 0
        for (let m = k; m < refs.length; m++) total += refs[m].w
        let u = (below(UNIT) / UNIT) * total
        while (j < refs.length - 1 && u >= refs[j].w) u -= refs[j++].w
      } else j = k + below(refs.length - k)
      ;[refs[k], refs[j]] = [refs[j], refs[k]]
      chosen.push(nearest(refs[k].p))
    }
    const apart = chosen.every((a, i) => chosen.every((b, j) => i === j || Math.abs(a - b) > d.minApart))
    return apart && chosen.slice(1).every((i) => d.allowed?.(i) ?? true) ? chosen.slice(1).sort((a, b) => a - b) : null
  }
}

/** Indices of 3 decoys (ascending), or null when the draw puts two options too near (or there are fewer than 3 references). */
export function exchangeableDecoys(d: DecoyInput, below: (n: number) => number): number[] | null {
  return decoyDraw(d)(below)
}

/** The share of `trials` draws (from `below`) that `exchangeableDecoys` keeps for `d`. */
export function keepRate(d: DecoyInput, below: (n: number) => number, trials = 64): number {
  const draw = decoyDraw(d)
  let kept = 0
  for (let t = 0; t < trials; t++) if (draw(below)) kept++
  return kept / trials
}
