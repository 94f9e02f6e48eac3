// The sentences every question shares: the patient (several phrasings of age and sex, as the
// public release opens each question) and the span of the recording the excerpt shows, which a
// model needs to state times in record milliseconds. Our own wording throughout.
import type { SeededRandom } from '../excerpts/seeded-random.ts'

export interface Patient {
  age?: number
  sex?: 'M' | 'F'
}

/** One of the phrasings of `list`, chosen by `rng`. */
export function pick<T>(list: readonly T[], rng: SeededRandom): T {
  return list[rng.below(list.length)]
}

// Each phrasing in two forms, one with the noun ("a 43-year-old man"), one with the adjective
// ("a male patient aged 43"), so neither is ever put where only the other reads as English.
const BOTH: readonly [(a: number, noun: string) => string, (a: number, adjective: string) => string][] = [
  [(a, n) => `The patient is a ${a}-year-old ${n}.`, (a, j) => `The patient is ${j}, aged ${a}.`],
  [(a, n) => `This ECG comes from a ${n} aged ${a}.`, (a, j) => `This ECG comes from a ${j} patient aged ${a}.`],
  [(a, n) => `Patient: a ${a}-year-old ${n}.`, (a, j) => `Patient: ${j}, ${a} years old.`],
  [(a, n) => `The recording comes from a ${a}-year-old ${n}.`, (a, j) => `The recording comes from a ${a}-year-old ${j} patient.`],
  [(a, n) => `We are looking at the Holter ECG of a ${n} aged ${a}.`, (a, j) => `We are looking at the Holter ECG of a ${j} patient aged ${a}.`],
]
const AGE_ONLY = [(a: number) => `The patient is ${a} years old; the sex is not recorded.`, (a: number) => `This ECG comes from a patient aged ${a}.`]
const SEX_ONLY = [(n: 'man' | 'woman') => `The patient is a ${n} whose age is not recorded.`, (n: 'man' | 'woman') => `This ECG comes from a ${n === 'man' ? 'male' : 'female'} patient whose age is not given.`]
const NONE = ['The patient\'s age and sex are not recorded.', 'No age or sex is given for this patient.']

/** The opening sentence about the patient. */
export function patientSentence(p: Patient | undefined, rng: SeededRandom): string {
  const noun = p?.sex === 'M' ? 'man' : p?.sex === 'F' ? 'woman' : undefined
  const adjective = p?.sex === 'M' ? 'male' : 'female'
  if (p?.age !== undefined && noun) {
    const [withNoun, withAdjective] = pick(BOTH, rng)
    return rng.below(2) ? withNoun(p.age, noun) : withAdjective(p.age, adjective)
  }
  if (p?.age !== undefined) return pick(AGE_ONLY, rng)(p.age)
  if (noun) return pick(SEX_ONLY, rng)(noun)
  return pick(NONE, rng)
}

/** hh:mm:ss from milliseconds. */
export function clock(ms: number): string {
  const s = Math.floor(ms / 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`
}

/** How long the excerpt is, in words: "1 minute", "2 hours", "30 min 6 s". */
export function lengthWords(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s % 3600 === 0) return `${s / 3600} hour${s === 3600 ? '' : 's'}`
  if (s % 60 === 0 && s < 3600) return `${s / 60} minute${s === 60 ? '' : 's'}`
  if (s < 60) return `${s} seconds`
  const [h, m, r] = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60]
  return [h ? `${h} h` : '', m ? `${m} min` : '', r ? `${r} s` : ''].filter(Boolean).join(' ')
}

const SPAN = [
  (a: number, b: number) => `The excerpt shown covers ${a} ms to ${b} ms of the recording (${clock(a)} to ${clock(b)}).`,
  (a: number, b: number) => `You are shown the part of the recording from ${a} ms to ${b} ms (${clock(a)}-${clock(b)}).`,
  (a: number, b: number) => `The ECG excerpt runs from ${a} ms to ${b} ms after the recording started (${clock(a)}-${clock(b)}).`,
]

/** The sentence that says which span of the recording the model sees. */
export function spanSentence(startMs: number, endMs: number, rng: SeededRandom): string {
  return pick(SPAN, rng)(startMs, endMs)
}

/** "1 beat", "3 beats", "1,308 beats". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}

/** A count as reports write it: a thousands separator from 1,000 ("1,308"). Times in ms are identifiers, never written this way. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 20 })
}

/** A share in percent as reports write it: at most one decimal ("7.8%", "12%"), "<0.1%" and ">99.9%" for what would round to 0 or 100 but is not. */
export function formatPercent(x: number): string {
  if (x > 0 && x < 0.05) return '<0.1%'
  if (x < 100 && x >= 99.95) return '>99.9%'
  return `${Number(x.toFixed(1))}%`
}

/** A list in prose: "a", "a and b", "a, b and c". */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
