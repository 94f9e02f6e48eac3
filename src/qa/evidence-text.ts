// The measured evidence behind an event's presence or absence in an excerpt, in words, by what
// the event's kind lets the tracing show: the coupling interval and the pause after an early beat
// (and the detector's QRS measures when detector beats matched them), a run's or pattern's beats
// and rate, a long interval's length, the averaged rate a sustained rate holds, and for a rhythm
// the ventricular rate and how irregular its RR intervals are. Every number is computed here
// from the excerpt's beats, so the text is as traceable as the gold; none of it cites the
// annotation the gold comes from as its own evidence.
import type { EventFacts, EventOccurrence, ExcerptFacts } from './excerpt-facts.ts'
import { inText } from './vocabulary.ts'
import { andList, formatPercent, plural } from './phrasing.ts'

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

function indexOf(facts: ExcerptFacts, sample: number): number {
  return facts.beats.findIndex((b) => b.sample === sample)
}

// The intervals between consecutive beats with both ends in [startMs, endMs).
function intervalsIn(facts: ExcerptFacts, startMs: number, endMs: number): number[] {
  const out: number[] = []
  for (let k = 1; k < facts.beats.length; k++) if (facts.beats[k - 1].timeMs >= startMs && facts.beats[k].timeMs < endMs && Number.isFinite(rr(facts, k))) out.push(rr(facts, k))
  return out
}

// Rate and regularity of a list of RR intervals: the measures that tell an irregular rhythm.
function rhythmMeasures(rrs: number[]): string | null {
  if (rrs.length < 3) return null
  const mean = rrs.reduce((a, b) => a + b, 0) / rrs.length
  const cv = Math.sqrt(rrs.reduce((a, b) => a + (b - mean) ** 2, 0) / rrs.length) / mean
  let differ = 0
  for (let k = 1; k < rrs.length; k++) if (Math.abs(rrs[k] - rrs[k - 1]) > 50) differ++
  const share = (100 * differ) / (rrs.length - 1)
  return `over ${plural(rrs.length, 'interval')} the ventricular rate is ${r0(60_000 / mean)} bpm and the RR intervals vary with a coefficient of variation of ${formatPercent(100 * cv)}, ${formatPercent(share)} of successive intervals differing by more than 50 ms`
}

// Where a rhythm is in the excerpt, in words.
function stretch(facts: ExcerptFacts, s: { startMs: number; endMs: number }): string {
  const from = s.startMs <= facts.startMs ? 'the start of the excerpt' : `${s.startMs} ms`
  const to = s.endMs >= facts.endMs ? 'the end of the excerpt' : `${s.endMs} ms`
  return s.startMs <= facts.startMs && s.endMs >= facts.endMs ? 'throughout the excerpt' : `from ${from} to ${to}`
}

// Early beats: how early they come, the pause after them, the detector's QRS measure.
function beatEvidence(facts: ExcerptFacts, e: EventFacts, at: number[]): string[] {
  const one = at.length === 1
  const before = median(at.map((i) => rr(facts, i)).filter(Number.isFinite))
  const prior = median(at.map((i) => rr(facts, i - 1)).filter(Number.isFinite))
  const after = median(at.map((i) => rr(facts, i + 1)).filter(Number.isFinite))
  const parts = [`${plural(e.occurrences.length, 'beat')} of this kind, ${one ? 'at' : 'the first at'} ${e.occurrences[0].timeMs} ms`]
  const them = one ? 'it' : 'them'
  const ofIt = one ? '' : 'a median of '
  if (Number.isFinite(before) && Number.isFinite(prior) && prior > 0) {
    parts.push(before < prior
      ? `${one ? 'it comes' : 'they come'} early: ${ofIt}${r0(before)} ms after the beat before, against ${r0(prior)} ms for the interval before that (${r0((100 * (prior - before)) / prior)}% early)`
      : `${one ? 'it comes' : 'they come'} no earlier than the rhythm around ${them}: ${ofIt}${r0(before)} ms after the beat before, against ${r0(prior)} ms for the interval before that`)
    if (Number.isFinite(after)) parts.push(`the interval after ${them} is ${ofIt}${r0(after)} ms, so ${one ? 'the beat' : 'each'} and the pause after it span ${((before + after) / prior).toFixed(2)} times the interval before`)
  }
  const spans = at.map((i) => facts.beats[i].qrsSpanMs).filter((x): x is number => typeof x === 'number')
  const normal = facts.beats.filter((b) => b.label === 'N').map((b) => b.qrsSpanMs).filter((x): x is number => typeof x === 'number')
  if (spans.length && normal.length) parts.push(`the detector measured a QRS energy span of ${r0(median(spans))} ms on ${them} against ${r0(median(normal))} ms on normal beats`)
  return parts
}

// A run, pattern, long interval or sustained rate: its beats, span and rate.
function episodeEvidence(facts: ExcerptFacts, e: EventFacts): string[] {
  const beatsOf = (o: EventOccurrence) => o.beats.map((s) => indexOf(facts, s)).filter((i) => i >= 0)
  const spanMs = (idx: number[]) => r0(facts.beats[idx.at(-1)!].timeMs - facts.beats[idx[0]].timeMs)
  if (e.kind === 'rr') {
    const gaps = e.occurrences.map((o) => beatsOf(o)).filter((idx) => idx.length === 2)
    if (!gaps.length) return [`${plural(e.occurrences.length, 'long interval')}, the first from ${e.occurrences[0].timeMs} ms`]
    const normal = gaps.every((idx) => idx.every((i) => facts.beats[i].label === 'N')) ? ' between two normal beats' : ''
    const longest = Math.max(...gaps.map(spanMs))
    return gaps.length === 1 ? [`an interval of ${longest} ms without a beat${normal}, from ${e.occurrences[0].timeMs} ms`] : [`${gaps.length} intervals like it${normal}, the longest ${longest} ms, the first from ${e.occurrences[0].timeMs} ms`]
  }
  const describe = (o: EventOccurrence) => {
    const idx = beatsOf(o)
    if (idx.length < 2) return `a beat at ${o.timeMs} ms`
    const span = spanMs(idx)
    if (e.kind === 'hr') {
      const rates = idx.map((i) => facts.hrAvg[i]).filter(Number.isFinite)
      return `${plural(idx.length, 'beat')} over ${(span / 1000).toFixed(1)} s, their ${facts.avgBeats}-beat average rate at a median of ${r0(median(rates))} bpm (from ${r0(Math.min(...rates))} to ${r0(Math.max(...rates))} bpm)`
    }
    return `${plural(idx.length, 'beat')} over ${span} ms${idx.length > 2 ? ` (about ${r0((60_000 * (idx.length - 1)) / span)} bpm)` : ''}`
  }
  const parts: string[] = []
  const [first, n] = [e.occurrences[0], e.occurrences.length]
  if (n) parts.push(n === 1 ? `one episode begins at ${first.timeMs} ms: ${describe(first)}` : `${n} episodes begin in the excerpt, the first at ${first.timeMs} ms: ${describe(first)}`)
  const on = e.ongoing[0]
  if (on) {
    const resumed = facts.beats.some((b) => b.afterBreak && b.timeMs <= on.timeMs)
    parts.push(`${n ? 'another episode' : 'an episode'} is already under way when ${resumed ? 'the readable signal resumes' : 'the excerpt starts'} (from ${on.timeMs} ms): ${describe(on)}`)
  }
  return parts
}

// A rhythm: where it is, then the rate and regularity of the beats in it.
function rhythmEvidence(facts: ExcerptFacts, e: EventFacts): string[] {
  const spans = e.spans ?? []
  const where = spans.map((s) => stretch(facts, s))
  const rrs = spans.flatMap((s) => intervalsIn(facts, s.startMs, s.endMs))
  const measures = rhythmMeasures(rrs)
  return [`it runs ${andList(where) || 'in the excerpt'}`, measures ?? 'too few beats fall in it to measure its rate or regularity']
}

/** Why the excerpt shows `e`, from its measures. */
export function presentEvidence(facts: ExcerptFacts, e: EventFacts): string {
  if (e.kind === 'rhythm') return rhythmEvidence(facts, e).join('; ')
  const at = e.occurrences.flatMap((o) => o.beats).map((s) => indexOf(facts, s)).filter((i) => i >= 0)
  if (e.counts === 'beats' && at.length) return beatEvidence(facts, e, at).join('; ')
  return episodeEvidence(facts, e).join('; ')
}

/** Why the excerpt does not show `event`, from its measures. */
export function absentEvidence(facts: ExcerptFacts, event: string): string {
  const rrs = intervalsIn(facts, -Infinity, Infinity)
  const mean = facts.hr.meanHrBpm
  const others = facts.events.map((e) => inText(e.name))
  const rate = facts.sustainedRates.find((r) => r.event === event)
  const held = rate && (rate.bpm === null
    ? `no ${rate.sustainSec} s stretch in sinus rhythm has an averaged rate to measure`
    : `held for ${rate.sustainSec} s, the ${facts.avgBeats}-beat average rate ${rate.above ? 'reaches at most' : 'goes down to'} ${r0(rate.bpm)} bpm, ${rate.above ? 'not above' : 'not below'} ${rate.thresholdBpm} bpm`)
  return [
    `the excerpt's ${plural(facts.beats.length, 'beat')}${mean !== null ? ` at a mean rate of ${r0(mean)} bpm` : ''} show no ${inText(event)}`,
    rrs.length ? `their RR intervals range from ${r0(Math.min(...rrs))} to ${r0(Math.max(...rrs))} ms` : 'there are too few beats to measure intervals',
    ...(held ? [held] : []),
    others.length ? `what it does show is ${others.join(', ')}` : 'no other finding is present either',
  ].join('; ')
}
