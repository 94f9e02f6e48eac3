// What a counting or timing question counts, said in the question itself (the public items say
// "documented events"): a beat event counts every beat of its kind, a pattern or rhythm counts
// episodes, and each kind of episode says what makes one, from the event's source in the
// vocabulary, so a reader knows that a couplet is two premature beats but one couplet.
import type { VocabularyEvent } from './vocabulary.ts'
import { inText } from './vocabulary.ts'

export interface CountWords {
  /** The counted thing, plural: "premature ventricular contraction beats", "episodes of atrial fibrillation". */
  plural: string
  /** The same, singular. */
  singular: string
  /** What makes one, in a parenthesis ("every such beat counts, those in couplets and runs too"). */
  rule: string
  /** Where an occurrence is timed, for episodes: " (timed at its first beat)"; empty for a beat. */
  timedAt: string
}

const CLASS: Record<'S' | 'V', string> = { S: 'supraventricular', V: 'ventricular' }

/** The counting words of an event (by its vocabulary entry; a name alone counts episodes). */
export function countWords(name: string, vocab: readonly VocabularyEvent[]): CountWords {
  const e = vocab.find((v) => v.name === name)
  const n = inText(name)
  const episodes = (rule: string, timedAt = ' (timed at its first beat)'): CountWords => ({ plural: `episodes of ${n}`, singular: `episode of ${n}`, rule, timedAt })
  if (!e) return episodes('each onset is one episode', ' (timed at its onset)')
  const s = e.source
  if ('beats' in s) return { plural: `${n} beats`, singular: `${n} beat`, rule: 'every such beat counts, those in couplets and runs too', timedAt: '' }
  if ('run' in s) return episodes(s.run.max === s.run.min ? `${s.run.min} consecutive ${CLASS[s.run.of]} beats make one` : `a run of ${s.run.min} or more consecutive ${CLASS[s.run.of]} beats is one episode`)
  if ('geminy' in s) return episodes(`${s.geminy.minCycles} or more cycles in a row make one episode`)
  if ('rr' in s) {
    const rule = `each RR interval over ${s.rr.aboveMs / 1000} s${s.rr.belowMs ? ` and up to ${s.rr.belowMs / 1000} s` : ''} is one`
    const timedAt = ' (timed at the beat before the interval)'
    return n.endsWith('pause') ? { plural: `${n}s`, singular: n, rule, timedAt } : episodes(rule, timedAt)
  }
  if ('hr' in s) return episodes(`the heart rate staying ${s.hr.aboveBpm !== undefined ? `above ${s.hr.aboveBpm}` : `below ${s.hr.belowBpm}`} bpm for ${s.hr.sustainSec} s or more is one episode`)
  return episodes('each onset is one episode', ' (timed at its onset)')
}

/** "a" or "an" before a phrase, by its first letter. */
export function withArticle(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`
}

/** Whether an event is a sustained rate, whose onset no reader can place to the millisecond. */
export function isRateEvent(name: string, vocab: readonly VocabularyEvent[]): boolean {
  const e = vocab.find((v) => v.name === name)
  return e !== undefined && 'hr' in e.source
}
