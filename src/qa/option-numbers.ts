// Numbers in the options and answers of the public format: numeric options (a number or a list
// of numbers with an optional unit), the distance between two lists, and the gold number of an
// open answer sentence; the audit's answerers, the answer parsers and the baselines read them.
// Pure.
//
// Thousands: "7,396,010" is one number (a comma followed by exactly three digits and no space);
// list items are separated by a comma (the public lists write ", "). Time units are turned into
// ms so "1.2 s" and "900 ms" compare; any other unit (bpm, %...) must be the same in every option.

/** A numeric option: its numbers (at least one) in ms for time units, and its unit. */
export interface NumericOption {
  values: number[]
  unit: string
}

const TIME_UNITS: Record<string, number> = { ms: 1, msec: 1, millisecond: 1, milliseconds: 1, s: 1000, sec: 1000, second: 1000, seconds: 1000, min: 60_000, minute: 60_000, minutes: 60_000 }
const NUMBER = String.raw`[-+]?\d+(?:\.\d+)?`

/** Removes thousands separators: a comma between a digit and exactly three digits, no space. */
export function unGroup(text: string): string {
  return text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
}

/** The numbers of an option such as "3", "7396010 ms" or "51368192, 51369692", or null. */
export function parseNumericOption(text: string): NumericOption | null {
  const m = new RegExp(`^\\s*(${NUMBER}(?:\\s*,\\s*${NUMBER})*)\\s*([a-zA-Z%]*)\\s*$`).exec(unGroup(text))
  if (!m) return null
  const unit = m[2].toLowerCase()
  const scale = TIME_UNITS[unit] ?? 1
  return { values: m[1].split(',').map((v) => Number(v.trim()) * scale), unit: unit in TIME_UNITS ? 'ms' : unit }
}

/** Every option numeric with one unit (time units count as one), or null. */
export function parseNumericOptions(texts: readonly string[]): number[][] | null {
  const parsed = texts.map(parseNumericOption)
  if (parsed.some((p) => p === null)) return null
  return new Set(parsed.map((p) => p!.unit)).size === 1 ? parsed.map((p) => p!.values) : null
}

/**
 * Symmetric nearest-neighbour distance between two lists: each number's distance to the nearest
 * number of the other list, summed both ways and halved. For single numbers it is |a - b|;
 * lists of different lengths compare without padding; the order within a list does not matter.
 */
export function listDistance(a: readonly number[], b: readonly number[]): number {
  const oneWay = (x: readonly number[], y: readonly number[]) => x.reduce((s, v) => s + Math.min(...y.map((w) => Math.abs(v - w))), 0)
  return (oneWay(a, b) + oneWay(b, a)) / 2
}

/** Smallest gap between consecutive numbers of a sorted list; null for fewer than 2 numbers. */
export function smallestGap(list: readonly number[]): number | null {
  if (list.length < 2) return null
  const s = [...list].sort((x, y) => x - y)
  return Math.min(...s.slice(1).map((v, i) => v - s[i]))
}

/** Compares lists by their first (smallest) number, then the next ones; a prefix comes first. */
export function compareLists(a: readonly number[], b: readonly number[]): number {
  const x = [...a].sort((p, q) => p - q)
  const y = [...b].sort((p, q) => p - q)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i]
  return x.length - y.length
}

const WORDS: Record<string, number> = { no: 0, zero: 0, a: 1, an: 1, one: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 }
const COUNT_NOUN = String.raw`(?:occurrences?|episodes?|events?|times?|instances?|beats?|runs?|cases?)`
// Numbers that are not counts: ratios such as the 2:1 of "2:1 AV Conduction Block".
const NOT_A_COUNT = /\d+:\d+/g

/**
 * The count an open counting answer is about: the number (digits or a word up to twelve, "no"
 * for 0) written right before a count noun (occurrence, episode, event, time, instance...),
 * with at most one word between ("3 separate episodes"); else the only number in the sentence
 * that is not part of a ratio; else null.
 */
export function parseCountAnswer(answer: string): number | null {
  const text = unGroup(answer)
  const m = new RegExp(String.raw`\b(\d+|${Object.keys(WORDS).join('|')})\s+(?:[a-z-]+\s+)?${COUNT_NOUN}\b`, 'i').exec(text)
  if (m) return /^\d/.test(m[1]) ? Number(m[1]) : WORDS[m[1].toLowerCase()]
  const nums = text.replace(NOT_A_COUNT, ' ').match(/\b\d+\b/g) ?? []
  return nums.length === 1 ? Number(nums[0]) : null
}

/**
 * The timestamp an open HR-extremum answer gives: the number written right before "ms" or
 * "milliseconds" (the last one when there are several); else the only number in the sentence;
 * else null. "7,396,010 ms" is 7396010.
 */
export function parseTimestampAnswer(answer: string): number | null {
  const text = unGroup(answer)
  const withUnit = [...text.matchAll(/(\d+(?:\.\d+)?)\s*(?:ms|msec|milliseconds?)\b/gi)]
  if (withUnit.length) return Number(withUnit[withUnit.length - 1][1])
  const nums = text.match(/\b\d+(?:\.\d+)?\b/g) ?? []
  return nums.length === 1 ? Number(nums[0]) : null
}

/** Median of a non-empty list (mean of the middle two for an even length). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** Mean of a non-empty list. */
export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length
}
