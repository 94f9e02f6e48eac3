// Where a record's excerpts fall, by rule (pure: samples in, spans out). Each plan gives the
// spans it has decided once the watermark passes a sample, and the lowest start any span still
// to come may have, which the excerpt stage passes on as its own watermark (an excerpt is
// positioned at its start and emitted once its whole span has passed).
//   every:  a span of `length` every `step` samples from `offset`
//   random: `count` spans of `length` at seeded random places of the record, not overlapping
//   around: a span of `before` + `after` around each chosen event (a beat label, a rhythm change),
//           events at least `minGap` apart, at most `max`
import type { ExcerptReason } from '../core/items.ts'
import { createSeededRandom } from './seeded-random.ts'

export interface Span {
  startSample: number
  endSample: number
  reason: ExcerptReason
  /** The last part of the excerpt's id when its start alone does not tell it apart (a span clipped at the record's start); else the start. */
  name?: string
}

export interface ExcerptEvent {
  sample: number
  timeMs: number
  label: string
  source: string
  kind: 'beat' | 'rhythm'
}

export interface ExcerptPlan {
  /** An event seen in the stream (the around rule's; others ignore it). */
  event(e: ExcerptEvent): void
  /** The spans decided now that nothing before `w` is still to come, in start order. */
  due(w: number): Span[]
  /** The lowest start a span not yet returned by due() may have, given watermark `w`. */
  lowest(w: number): number
  /** The spans still undecided at the end of the record (the signal ends at `end`). */
  end(end: number): Span[]
}

/** A span every `step` samples. */
export function everyPlan(step: number, length: number, offset: number): ExcerptPlan {
  let k = 0
  const start = () => offset + k * step
  return {
    event() {},
    due(w) {
      const out: Span[] = []
      while (start() + length <= w) {
        out.push({ startSample: start(), endSample: start() + length, reason: { rule: 'every', index: k } })
        k++
      }
      return out
    },
    lowest: () => start(),
    end(end) {
      return this.due(end)
    },
  }
}

/** `count` spans of `length` placed at random (seeded) in a record of `total` samples. */
export function randomPlan(count: number, length: number, total: number, seed: string): ExcerptPlan {
  const rng = createSeededRandom(seed)
  const starts: number[] = [] // kept sorted, so a candidate is checked against its two neighbours only
  const room = total - length
  // Rejection sampling keeps the spans apart; a record too short for them all gets fewer.
  for (let tries = 0; room >= 0 && starts.length < count && tries < count * 50; tries++) {
    const s = rng.below(room + 1)
    let lo = 0
    let hi = starts.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (starts[mid] < s) lo = mid + 1
      else hi = mid
    }
    if ((lo === 0 || starts[lo - 1] + length <= s) && (lo === starts.length || s + length <= starts[lo])) starts.splice(lo, 0, s)
  }
  let next = 0
  return {
    event() {},
    due(w) {
      const out: Span[] = []
      while (next < starts.length && starts[next] + length <= w) {
        out.push({ startSample: starts[next], endSample: starts[next] + length, reason: { rule: 'random', seed } })
        next++
      }
      return out
    },
    lowest: () => starts[next] ?? Infinity,
    end(end) {
      return this.due(end)
    },
  }
}

/** A span from `before` samples before each chosen event to `after` samples after it. */
export function aroundPlan(before: number, after: number, minGap: number, max: number): ExcerptPlan {
  const events: ExcerptEvent[] = [] // not yet decided, in sample order
  const chosen: Span[] = [] // decided, waiting for their span to pass
  let last = -Infinity
  let taken = 0
  // Events are decided in sample order, once none before them can still come.
  const decide = (w: number, all: boolean) => {
    while (events.length && (all || events[0].sample < w)) {
      const e = events.shift()!
      if (taken >= max || e.sample - last < minGap || e.sample === last) continue
      last = e.sample
      taken++
      // Spans of events near the record's start are clipped to start 0, all of them: each is
      // named by its event too, so their ids stay apart.
      const start = Math.max(0, e.sample - before)
      chosen.push({ startSample: start, endSample: e.sample + after, reason: { rule: 'around', event: e }, ...(start > e.sample - before ? { name: `0@${e.sample}` } : {}) })
    }
  }
  return {
    event(e) {
      // Events arrive nearly in order (a detector beat a chunk after its samples).
      let i = events.length
      while (i > 0 && events[i - 1].sample > e.sample) i--
      events.splice(i, 0, e)
    },
    due(w) {
      decide(w, false)
      let n = 0
      while (n < chosen.length && chosen[n].endSample <= w) n++
      return chosen.splice(0, n)
    },
    lowest(w) {
      const pending = Math.min(chosen[0]?.startSample ?? Infinity, events[0] ? events[0].sample - before : Infinity)
      return taken >= max ? pending : Math.min(pending, w - before)
    },
    end(end) {
      decide(Infinity, true)
      return chosen.splice(0).map((s) => ({ ...s, endSample: Math.min(s.endSample, end) })).filter((s) => s.endSample > s.startSample)
    },
  }
}

/** The whole record (`total` samples, Infinity when unknown until its end) as one span, when it is at most `max` samples long. */
export function wholePlan(max: number, total: number, tooLong: () => void): ExcerptPlan {
  let done = false
  const take = (end: number): Span[] => {
    if (done) return []
    done = true
    if (end > max) {
      tooLong()
      return []
    }
    return end > 0 ? [{ startSample: 0, endSample: end, reason: { rule: 'whole' } }] : []
  }
  return {
    event() {},
    due: (w) => (Number.isFinite(total) && w >= total ? take(total) : []),
    lowest: () => (done ? Infinity : 0),
    end: (end) => take(Number.isFinite(total) ? Math.min(total, end) : end),
  }
}
