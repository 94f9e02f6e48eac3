// Answerers that read where each option lies inside the span the question states, and nothing
// else: options of one time each, seen as points in [start, end]. A generator whose decoys are
// drawn differently from the truth (a fixed number before and after it, uniformly between the
// truth and the edges; or decoys spread evenly while the truth sits where events happen) leaves
// the truth at a recognisable place among them, and one of these finds it:
//   span likelihood    the option whose rank r among n makes "r decoys drawn uniformly before
//                      it, n-1-r after it" most likely: r! (n-1-r)! (t - start)^-r (end - t)^-(n-1-r),
//                      the factorials counting the orders the unordered decoys could be drawn in;
//   nearest the middle, nearest an edge;
//   rank quantile      the option nearest where an option of its rank is expected among n
//                      uniform points ((r + 1) / (n + 1) of the span), and the one farthest;
//   widest / narrowest neighbourhood: the distance between its neighbours (edges included).
// Each abstains where options are not single numbers inside the stated span. Pure.
import { TASKS } from '../qa/tasks/index.ts'
import { statedSpan } from './excerpt-key.ts'
import { parseNumericOptions } from '../qa/option-numbers.ts'
import { argBest, type Answerer, type Pick } from './pick.ts'
import type { ClosedQuestion } from './priors.ts'

interface Placed {
  /** Option positions as fractions of the span, by option index. */
  pos: number[]
  /** Rank of each option in time order. */
  rank: number[]
}

// The tasks whose options are times; counts of a first excerpt starting at 0 ms also lie "in" its span.
const TIME_TASKS = new Set<string>(TASKS.filter((t) => t.options === 'times').map((t) => t.type))

function place(q: ClosedQuestion): Placed | null {
  if (!q.options || q.options.length < 3 || !TIME_TASKS.has(q.task)) return null
  const span = statedSpan(q.question)
  const lists = parseNumericOptions(q.options)
  if (!span || !lists || !lists.every((l) => l.length === 1)) return null
  const len = span.endMs - span.startMs
  const pos = lists.map((l) => (l[0] - span.startMs) / len)
  if (pos.some((p) => p < 0 || p > 1)) return null
  const order = pos.map((_, i) => i).sort((a, b) => pos[a] - pos[b])
  const rank = new Array<number>(pos.length)
  order.forEach((i, r) => (rank[i] = r))
  return { pos, rank }
}

const placed = (score: (p: Placed, i: number, n: number) => number) => (q: ClosedQuestion): Pick => {
  const p = place(q)
  return p ? argBest(p.pos.length, (i) => score(p, i, p.pos.length)) : null
}

const EPS = 1e-9
const logFactorial = (k: number) => { let s = 0; for (let j = 2; j <= k; j++) s += Math.log(j); return s }
// Smaller wins in argBest, so likelihoods are negated logs.
const spanLikelihood = placed((p, i, n) => {
  const [before, after] = [p.rank[i], n - 1 - p.rank[i]]
  return before * Math.log(p.pos[i] + EPS) + after * Math.log(1 - p.pos[i] + EPS) - logFactorial(before) - logFactorial(after)
})
const quantileGap = (p: Placed, i: number, n: number) => Math.abs(p.pos[i] - (p.rank[i] + 1) / (n + 1))
function neighbourhood(p: Placed, i: number): number {
  const sorted = [...p.pos].sort((a, b) => a - b)
  const r = p.rank[i]
  return (sorted[r + 1] ?? 1) - (sorted[r - 1] ?? 0)
}

/** The position answerers (no train split needed). */
export const POSITION_ANSWERERS: readonly Answerer[] = [
  { name: 'span likelihood', describe: 'options of one time inside the stated span: the one whose rank makes "the others drawn uniformly before and after it" most likely', pick: spanLikelihood },
  { name: 'nearest the middle', describe: 'the time option nearest the middle of the stated span', pick: placed((p, i) => Math.abs(p.pos[i] - 0.5)) },
  { name: 'nearest an edge', describe: 'the time option nearest the start or the end of the stated span', pick: placed((p, i) => Math.min(p.pos[i], 1 - p.pos[i])) },
  { name: 'rank quantile', describe: 'the time option nearest the place expected for its rank among uniform points', pick: placed(quantileGap) },
  { name: 'off its rank quantile', describe: 'the time option farthest from the place expected for its rank among uniform points', pick: placed((p, i, n) => -quantileGap(p, i, n)) },
  { name: 'widest neighbourhood', describe: 'the time option with the most room between its neighbours (span edges included)', pick: placed((p, i) => -neighbourhood(p, i)) },
  { name: 'narrowest neighbourhood', describe: 'the time option with the least room between its neighbours (span edges included)', pick: placed((p, i) => neighbourhood(p, i)) },
]
