// The measured evidence behind an event's presence or absence in an excerpt, in words: interval
// timing of the beats involved (prematurity, the pause after, run rates, long intervals, the
// averaged rate) and, when detector beats matched them, the detector's QRS measures. Every
// number is computed here from the excerpt's beats, so the text is as traceable as the gold.
import type { EventFacts, ExcerptFacts } from './excerpt-facts.ts'
import { inText } from './vocabulary.ts'
import { plural } from './phrasing.ts'

const median = (xs: number[]) => {
  if (!xs.length) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const r0 = (x: number) => Math.round(x)

// The interval ending at beat k (NaN past either end or across a break: an artifact or a gap).
function rr(facts: ExcerptFacts, k: number): number {
  const [a, b] = [facts.beats[k - 1], facts.beats[k]]
  return a && b && !b.afterBreak ? b.timeMs - a.timeMs : NaN
}

function rrAround(facts: ExcerptFacts, i: number): { before: number; prior: number; after: number } {
  return { before: rr(facts, i), prior: rr(facts, i - 1), after: rr(facts, i + 1) }
}

function indexOf(facts: ExcerptFacts, sample: number): number {
  return facts.beats.findIndex((b) => b.sample === sample)
}

/** Why the excerpt shows `e`, from its measures. */
export function presentEvidence(facts: ExcerptFacts, e: EventFacts): string {
  const n = e.occurrences.length
  const beats = e.occurrences.flatMap((o) => o.beats).map((s) => indexOf(facts, s)).filter((i) => i >= 0)
  const parts: string[] = []
  if (e.counts === 'beats' && beats.length) {
    const rr = beats.map((i) => rrAround(facts, i))
    const before = median(rr.map((x) => x.before).filter(Number.isFinite))
    const prior = median(rr.map((x) => x.prior).filter(Number.isFinite))
    const after = median(rr.map((x) => x.after).filter(Number.isFinite))
    parts.push(`${plural(n, 'beat')} of this kind, the first at ${e.occurrences[0].timeMs} ms`)
    if (Number.isFinite(before) && Number.isFinite(prior) && prior > 0) parts.push(`they come early: a median of ${r0(before)} ms after the beat before, against ${r0(prior)} ms for the interval before that (${r0((100 * (prior - before)) / prior)} % premature)`)
    if (Number.isFinite(after) && Number.isFinite(before) && Number.isFinite(prior) && prior > 0) parts.push(`the interval after them is ${r0(after)} ms, so the early beat and the pause after it span ${((before + after) / prior).toFixed(2)} times the preceding interval`)
    const spans = beats.map((i) => facts.beats[i].qrsSpanMs).filter((x): x is number => typeof x === 'number')
    const normal = facts.beats.filter((b) => b.label === 'N').map((b) => b.qrsSpanMs).filter((x): x is number => typeof x === 'number')
    if (spans.length && normal.length) parts.push(`the detector measured a QRS energy span of ${r0(median(spans))} ms on them against ${r0(median(normal))} ms on normal beats`)
  } else if (e.counts === 'episodes' && beats.length) {
    const first = e.occurrences[0]
    const k = first.beats.length
    if (k >= 2) {
      const span = facts.beats[indexOf(facts, first.beats[k - 1])]?.timeMs - facts.beats[indexOf(facts, first.beats[0])]?.timeMs
      parts.push(`${plural(n, 'episode')}; the first starts at ${first.timeMs} ms and spans ${plural(k, 'beat')} over ${r0(span)} ms${k > 2 ? ` (about ${r0((60_000 * (k - 1)) / span)} bpm)` : ''}`)
    } else parts.push(`${plural(n, 'episode')}, the first at ${first.timeMs} ms`)
  } else if (e.occurrences.length) {
    parts.push(`the reference annotation marks ${plural(n, 'onset')} of it, the first at ${e.occurrences[0].timeMs} ms`)
  } else {
    parts.push('the reference annotation marks it from before the excerpt starts and throughout')
  }
  return parts.join('; ')
}

/** Why the excerpt does not show `event`, from its measures. */
export function absentEvidence(facts: ExcerptFacts, event: string): string {
  const rr: number[] = []
  for (let i = 1; i < facts.beats.length; i++) if (!facts.beats[i].afterBreak) rr.push(facts.beats[i].timeMs - facts.beats[i - 1].timeMs)
  const lo = rr.length ? r0(Math.min(...rr)) : null
  const hi = rr.length ? r0(Math.max(...rr)) : null
  const mean = facts.hr.meanHrBpm
  const others = facts.events.map((e) => inText(e.name))
  return [
    `the excerpt's ${plural(facts.beats.length, 'beat')}${mean !== null ? ` at a mean of ${r0(mean)} bpm` : ''} include none that makes ${inText(event)}`,
    lo !== null ? `their intervals range from ${lo} to ${hi} ms` : 'there are too few beats to measure intervals',
    others.length ? `what it does show is ${others.join(', ')}` : 'no other finding is present either',
  ].join('; ')
}
