// The numbers of a free answer with what they are (answer-parse-number.ts): a time in ms
// ("355792 ms", "355.8 s", "5.9 min", a clock "00:05:55.792" from the recording's start), a rate
// (bpm), a share (%), a count ("3 PVCs", "no PVCs") or a bare number. Pure.
//
// Thousands separators go first ("1,234" is 1234, unGroup of audit-numbers.ts). A list of bare
// numbers ending in a time unit takes that unit ("at 830.5, 832.4 and 850.9 s"). Ratios ("2:1"),
// ages ("69 years") and the echoed excerpt window ("from 313158 ms to 373158 ms", a clock range
// "00:05:13-00:06:13") are not answers and are dropped.
import { unGroup } from '../qa/option-numbers.ts'
import { WORD_NUMBERS } from './answer-parse-text.ts'

export type TokenKind = 'ms' | 'clock' | 'bpm' | 'percent' | 'count' | 'bare'

/** One number of an answer: its value (ms for times), kind, and where it is. */
export interface NumberToken {
  value: number
  kind: TokenKind
  /** The unit as written: ms, s, min... ('' for none); for a count, the number as written. */
  unit: string
  /** For a count: a generic noun ("10 beats", not "1 beat of PAC", "2 PVCs"). */
  generic?: boolean
  start: number
  end: number
}

const TIME_SCALE: Record<string, number> = { ms: 1, msec: 1, millisecond: 1, milliseconds: 1, millisec: 1, millisecs: 1, s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000 }
const UNIT = String.raw`ms|msec|millisec(?:ond)?s?|s|secs?|seconds?|min|mins|minutes?|bpm|beats?\s*(?:per|\/)\s*min(?:ute)?|\/min|%|percent`
// Not a number of the answer: part of a name ("V1", "12-lead") or an ordinal ("3rd").
const NUMBER = new RegExp(String.raw`(?<![\d.:A-Za-z])(\d+(?:\.\d+)?)(?![\d:]|-[A-Za-z]|(?:st|nd|rd|th)\b)(?:\s*(${UNIT})(?![A-Za-z]))?`, 'gi')
// "2 min 4.1 s" is one time.
const MIN_SEC = /(?<![\d.])(\d+)\s*(?:min|mins|minutes?)\s*(?:and\s*)?(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)(?![A-Za-z])/gi
const CLOCK = /(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.(\d{1,3}))?(?![\d:])/g
const RATIO = /(?<![\d:])\d+:\d(?![\d:])/g
const WORDS = Object.keys(WORD_NUMBERS).join('|')
/** What a count counts: events and beats by any common name. */
export const COUNT_NOUN = String.raw`(?:occurrences?|episodes?|events?|times|instances?|beats?|runs?|cases?|contractions?|complex(?:es)?|(?:pvc|pac|vpb|apb|vpc|apc|veb|sveb)(?:s|'s)?|ectopics?|ectopy|couplets?|pauses?|salvos?|extrasystoles?|ones|tachycardias?|bigeminy|trigeminy|arrests?|blocks?|flutters?|fibrillations?|asystoles?|findings?|rhythms?|periods?|depolari[sz]ations?|abnormalit(?:y|ies))`
// A count phrase: a number (digits, a word up to twenty, "no", "a"/"an") and, at most three
// words later, a count noun ("3 separate premature ventricular contractions").
const COUNT_PHRASE = new RegExp(String.raw`(?<![\w.,:])(\d+|${WORDS}|no|an?)\s+(?:(?!\d)(?!(?:${WORDS}|no)\b)[A-Za-z'-]+\s+){0,3}?${COUNT_NOUN}(?![A-Za-z])(?!\s*(?:per|\/)\s*min)`, 'gi')

/** The answer's text with separators removed, and its number tokens in text order. */
export function numberTokens(answer: string): { text: string; tokens: NumberToken[] } {
  const text = unGroup(answer)
  const tokens: NumberToken[] = []
  const taken: Array<[number, number]> = []
  const free = (s: number, e: number) => !taken.some(([a, b]) => s < b && a < e)
  for (const m of text.matchAll(RATIO)) taken.push([m.index, m.index + m[0].length])
  for (const m of text.matchAll(MIN_SEC)) {
    tokens.push({ value: round((Number(m[1]) * 60 + Number(m[2])) * 1000), kind: 'ms', unit: 's', start: m.index, end: m.index + m[0].length })
    taken.push([m.index, m.index + m[0].length])
  }
  for (const m of text.matchAll(CLOCK)) {
    if (!free(m.index, m.index + m[0].length)) continue
    const [h, mi, s] = m[3] === undefined ? [0, Number(m[1]), Number(m[2])] : [Number(m[1]), Number(m[2]), Number(m[3])]
    const frac = m[4] === undefined ? 0 : Number(m[4].padEnd(3, '0'))
    tokens.push({ value: ((h * 60 + mi) * 60 + s) * 1000 + frac, kind: 'clock', unit: 'clock', start: m.index, end: m.index + m[0].length })
    taken.push([m.index, m.index + m[0].length])
  }
  for (const m of text.matchAll(COUNT_PHRASE)) {
    const n = /^\d+$/.test(m[1]) ? Number(m[1]) : (WORD_NUMBERS[m[1].toLowerCase()] ?? (/^no$/i.test(m[1]) ? 0 : 1))
    const end = m.index + m[1].length
    const generic = /(?:beats?|times|rhythms?|periods?|findings?)$/i.test(m[0]) && !/^\s+of\b/i.test(text.slice(m.index + m[0].length))
    if (free(m.index, end)) tokens.push({ value: n, kind: 'count', unit: m[1].toLowerCase(), generic, start: m.index, end })
    taken.push([m.index, end])
  }
  for (const m of text.matchAll(NUMBER)) {
    if (!free(m.index, m.index + m[1].length)) continue
    const unit = (m[2] ?? '').toLowerCase().replace(/\s+/g, '')
    const kind: TokenKind = unit in TIME_SCALE ? 'ms' : unit === '' ? 'bare' : unit === '%' || unit === 'percent' ? 'percent' : 'bpm'
    tokens.push({ value: round(Number(m[1]) * (TIME_SCALE[unit] ?? 1)), kind, unit, start: m.index, end: m.index + m[0].length })
  }
  tokens.sort((a, b) => a.start - b.start)
  return { text, tokens: dropNonAnswers(text, inheritUnits(text, tokens)) }
}

const round = (v: number) => Math.round(v * 1e6) / 1e6

/** Bare numbers of a list ending in a time unit take that unit. */
function inheritUnits(text: string, tokens: NumberToken[]): NumberToken[] {
  const out = tokens.map((t) => ({ ...t }))
  for (let i = out.length - 2; i >= 0; i--) {
    const [t, next] = [out[i], out[i + 1]]
    const sep = text.slice(t.end, next.start)
    if (t.kind === 'bare' && next.kind === 'ms' && next.unit in TIME_SCALE && /^\s*(?:,|;|&|and|,\s*and|or|\/)\s*$/i.test(sep)) {
      const scale = TIME_SCALE[next.unit]
      Object.assign(t, { kind: 'ms', unit: next.unit, value: round(t.value * scale) })
    }
  }
  return out
}

// A duration, not a time: "2 s apart", "536 ms after the beat before", "an interval of 800 ms".
const DURATION_AFTER = /^\s*(?:apart|later|earlier|long|in duration|in length|of (?:pause|coupling)|(?:after|before) (?:the |a |its |it\b)?(?:previous |preceding |prior |next |normal |sinus )?(?:beat|qrs|complex|one|r wave))/i
const DURATION_BEFORE = /(?:\b(?:interval|intervals|duration|lasting|lasts|coupling|cycle length|pause|apart by|every|rr|spanning|spans|of about)\s*(?:of\s*|is\s*|was\s*|=\s*|:\s*)?(?:about\s*|~\s*|approximately\s*)?|\b(?:rr|interval|coupling)\b[^.;,)(\d]{0,20}|\b(?:before|after) it\s*)$/i

/** Drops ages, durations and the echoed excerpt window (a "from A to B" range, a clock range). */
function dropNonAnswers(text: string, tokens: NumberToken[]): NumberToken[] {
  const drop = new Set<number>()
  tokens.forEach((t, i) => {
    if (/^\s*-?\s*(?:years?|yrs?|y\/o|year-old)\b/i.test(text.slice(t.end, t.end + 12))) drop.add(i)
    if (t.kind === 'ms' && (DURATION_AFTER.test(text.slice(t.end)) || DURATION_BEFORE.test(text.slice(Math.max(0, t.start - 30), t.start)))) drop.add(i)
    const next = tokens[i + 1]
    if (!next || next.kind === 'count') return
    const sep = text.slice(t.end, next.start)
    const fromTo = /\b(?:from|covering|covers|spanning|window|excerpt|segment)\s*$/i.test(text.slice(Math.max(0, t.start - 12), t.start)) && /^\s*(?:ms)?\s*(?:to|until|through|-|–|—)\s*$/i.test(sep)
    const clockRange = t.kind === 'clock' && next.kind === 'clock' && /^\s*(?:to|-|–|—)\s*$/i.test(sep)
    if (fromTo || clockRange) drop.add(i).add(i + 1)
  })
  return tokens.filter((_, i) => !drop.has(i))
}
