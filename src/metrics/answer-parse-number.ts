// The number an open answer gives (open_event_counting, open_HR_extremum_timing) and the event
// times of an open_event_timing answer, from the number tokens of answer-parse-tokens.ts. Rules
// (also in answer-parse.ts):
//   count:     the whole answer as a number ("5", "five"); else the last explicit statement
//              ("answer: 5", "total of 5", "so there are 5 PVCs"); else the first count phrase
//              ("There are 5 PVCs", "1 beat of PAC", "no PVCs" = 0), generic nouns ("10 beats")
//              and "a"/"an" ones after the others; else "not ... any", "none" = 0; else the only
//              bare number. The chosen number as part of a range ("2-3 PVCs", "2 or 3") or a
//              bound ("at least 2") is ambiguous, and so is a quantity word alone ("several").
//   timestamp: times in ms, then in s or min (converted), then clocks, then bare numbers; within
//              the first kind present, the only value, else the first one after "at"/"is".
//   bpm:       the first rate in bpm, else the only bare number.
// Pure.
import { REFUSAL, WORD_NUMBERS, cleanAnswer, jsonObject, unparsed, wordNumber, type Unparsed } from './answer-parse-text.ts'
import { COUNT_NOUN, numberTokens, type NumberToken } from './answer-parse-tokens.ts'

export type NumberKind = 'count' | 'timestamp' | 'bpm'

const WORDS = Object.keys(WORD_NUMBERS).join('|')
// A count that is one end of a range ("2-3 PVCs", "2 or 3") or a bound ("at least 2").
const RANGE_BEFORE = new RegExp(String.raw`(?:\b(?:\d+|${WORDS})\s*(?:-|–|to|or)|\b(?:at least|more than|fewer than|less than|up to|over|under|nearly|almost|at most))\s*$`, 'i')
const RANGE_AFTER = new RegExp(String.raw`^\s*(?:-|–|to|or)\s*(?:\d+|${WORDS})\b`, 'i')
// "There are two.", "It occurs twice.": a word number with no noun, when there is no digit.
const WORD_ALONE = new RegExp(String.raw`\b(${WORDS}|once|twice)\b(?!\s+of\b)`, 'gi')
const ONCE: Record<string, number> = { once: 1, twice: 2 }
const VAGUE = /\b(?:several|multiple|a few|many|numerous|frequent|some|occasional)\b/i
const EXPLICIT_COUNT = /\b(?:final (?:answer|count)|answer|total(?: count| number)?|count|number of [a-z' -]{1,40}?)\s*(?:is|was|would be|:|=|of|-)\s*(?:about |approximately |around |~)?(\d+|[a-z]+)\b/gi
const CONCLUSION = /\b(?:so|therefore|thus|hence|in total|overall|altogether|in summary|in conclusion)\b/i
const AT = /\b(?:at|is|occurs?|reached|around|approximately|about|near|was)\s*[~≈]?\s*$/i

/** The number an open answer gives, by kind (rules at the top of this file). */
export function parseNumberAnswer(answer: string, opts: { kind: NumberKind }): { value: number } | Unparsed {
  const text = cleanAnswer(answer)
  if (text === null) return unparsed('unfinished')
  if (text === '') return unparsed('empty')
  const whole = /^(?:answer\s*[:=]\s*)?(?:about |approximately |~)?(\d+(?:\.\d+)?|[a-z]+)\.?$/i.exec(text.replace(/,(?=\d{3}\b)/g, ''))
  if (whole && opts.kind === 'count' && wordNumber(whole[1]) !== null) return { value: wordNumber(whole[1])! }
  if (whole && opts.kind !== 'count' && /^\d/.test(whole[1])) return { value: Number(whole[1]) }
  const { text: plain, tokens } = numberTokens(text)
  const value = opts.kind === 'count' ? countOf(plain, tokens) : opts.kind === 'timestamp' ? timeOf(plain, tokens) : rateOf(tokens)
  if (typeof value === 'number') return { value }
  return value ?? unparsed(REFUSAL.test(text) ? 'refusal' : 'no-answer')
}

function countOf(text: string, tokens: NumberToken[]): number | Unparsed | null {
  const hedged = (start: number, end: number) => RANGE_BEFORE.test(text.slice(0, start)) || RANGE_AFTER.test(text.slice(end))
  const explicit = [...text.matchAll(EXPLICIT_COUNT)].filter((m) => wordNumber(m[1]) !== null)
  const counts = tokens.filter((t) => t.kind === 'count')
  const concluding = counts.filter((t) => CONCLUSION.test(sentenceBefore(text, t.start)))
  const rank = (t: NumberToken) => (t.unit === 'a' || t.unit === 'an' ? 2 : t.generic ? 1 : 0)
  const last = explicit[explicit.length - 1]
  const chosen = last ? { value: wordNumber(last[1])!, start: last.index + last[0].length - last[1].length, end: last.index + last[0].length } : (concluding[concluding.length - 1] ?? [...counts].sort((x, y) => rank(x) - rank(y) || x.start - y.start)[0])
  if (chosen) return hedged(chosen.start, chosen.end) ? unparsed('ambiguous', 'a range or a bound, not a count') : chosen.value
  if (/(?:\bnot|n't)\s+(?:\w+\s+){0,2}any\b|\bnone\b|\bzero\b/i.test(text)) return 0
  const bare = distinct(tokens.filter((t) => t.kind === 'bare' && Number.isInteger(t.value)))
  if (bare.length === 1) return hedged(text.indexOf(String(bare[0])), text.indexOf(String(bare[0])) + String(bare[0]).length) ? unparsed('ambiguous', 'a bound, not a count') : bare[0]
  if (bare.length > 1) return unparsed('ambiguous', `numbers ${bare.join(', ')}`)
  const words = [...new Set([...text.matchAll(WORD_ALONE)].map((m) => ONCE[m[1].toLowerCase()] ?? wordNumber(m[1])!))]
  if (words.length === 1) return words[0]
  return VAGUE.test(text) ? unparsed('ambiguous', 'no number, only a quantity word') : null
}

function timeOf(text: string, tokens: NumberToken[]): number | Unparsed | null {
  for (const kind of ['ms', 'clock', 'bare'] as const) {
    const ofKind = tokens.filter((t) => t.kind === kind)
    const values = distinct(ofKind)
    if (values.length === 1) return values[0]
    if (values.length > 1) {
      const at = ofKind.find((t) => AT.test(text.slice(Math.max(0, t.start - 20), t.start)))
      return at ? at.value : unparsed('ambiguous', `times ${values.join(', ')}`)
    }
  }
  return null
}

function rateOf(tokens: NumberToken[]): number | Unparsed | null {
  const rates = tokens.filter((t) => t.kind === 'bpm')
  if (rates.length) return rates[0].value
  const bare = distinct(tokens.filter((t) => t.kind === 'bare'))
  return bare.length === 1 ? bare[0] : bare.length > 1 ? unparsed('ambiguous', `numbers ${bare.join(', ')}`) : null
}

const distinct = (tokens: NumberToken[]) => [...new Set(tokens.map((t) => t.value))]
const sentenceBefore = (text: string, at: number) => text.slice(0, at).split(/(?<!\d)[.!?;\n](?=\s|$)/).pop() ?? ''

/**
 * Every event time an open event-timing answer gives, in ms, in text order, duplicates dropped:
 * times with a unit (and the bare numbers of their list), else clocks; bare numbers that are
 * not counts count as ms. No time and a statement of none ("no occurrence", "0 PVCs") is the
 * empty list; a JSON answer's time-like field ({"timestamps_ms": [...]}) is read directly.
 */
export function parseTimestampList(answer: string): { values: number[] } | Unparsed {
  const obj = jsonObject(String(answer ?? '').replace(/<think>[^]*?<\/think>/gi, ''))
  const key = obj ? Object.keys(obj).find((k) => /time|stamp|onset|occurrence|ms$/i.test(k)) : undefined
  const field = obj && key !== undefined ? obj[key] : undefined
  if (Array.isArray(field)) return { values: [...new Set(field.map(Number).filter(Number.isFinite))] }
  if (typeof field === 'string') return parseTimestampList(field)
  const text = cleanAnswer(answer)
  if (text === null) return unparsed('unfinished')
  if (text === '') return unparsed('empty')
  const { text: plain, tokens } = numberTokens(text)
  const times = tokens.filter((t) => t.kind === 'ms' || t.kind === 'bare')
  const chosen = times.length ? times : tokens.filter((t) => t.kind === 'clock')
  if (chosen.length) return { values: distinct(chosen) }
  const none = tokens.some((t) => t.kind === 'count' && t.value === 0) || /\b(?:none|no (?:\w+ ){0,3}(?:occurr\w*|events?|episodes?)|not (?:present|seen|observed|found|detected)|does not occur|did not occur)\b/i.test(plain)
  if (none) return { values: [] }
  return unparsed(REFUSAL.test(text) ? 'refusal' : 'no-answer')
}
