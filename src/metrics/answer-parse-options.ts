// An answer that gives an option's text instead of its letter (answer-parse-choice.ts, step 4):
// yes/no options through parseYesNo, numeric options through the answer's numbers, named
// options (diagnoses) through their mentions and negation (answer-parse-labels.ts). Pure.
import { parseNumericOption, parseNumericOptions, unGroup } from '../qa/option-numbers.ts'
import { findMentions, normName } from './answer-parse-labels.ts'
import { parseNumberAnswer } from './answer-parse-number.ts'
import { unparsed, type Unparsed } from './answer-parse-text.ts'
import { numberTokens } from './answer-parse-tokens.ts'
import { parseYesNo } from './answer-parse-yesno.ts'

/** What a closed question asks for: the option that is present (default) or the one that is absent. */
export type Ask = 'present' | 'absent'

const sameValues = (a: readonly number[], b: readonly number[]) => {
  const [x, y] = [[...a].sort((p, q) => p - q), [...b].sort((p, q) => p - q)]
  return x.length === y.length && x.every((v, i) => Math.abs(v - y[i]) < 1e-6)
}

/** The option a short text is exactly (case, spacing and a trailing dot aside; numbers by value), or -1. */
export function optionEqual(text: string, options: readonly string[]): number {
  const t = text.trim().replace(/[.!;,]+$/, '')
  const exact = options.findIndex((o) => normName(o) === normName(t))
  if (exact >= 0) return exact
  const v = parseNumericOption(unGroup(t))
  return v ? options.findIndex((o) => sameValues(parseNumericOption(unGroup(o))?.values ?? [], v.values)) : -1
}

/** The option whose text the answer gives, unparsed when it gives several or one that is not offered, null when none. */
export function matchOptionText(text: string, options: readonly string[], ask: Ask): { index: number } | Unparsed | null {
  const whole = optionEqual(text.replace(/^(?:(?:the |final )?answer\s*(?:is|:|=|-)?\s*)/i, ''), options)
  if (whole >= 0) return { index: whole }
  const lower = options.map((o) => o.trim().toLowerCase())
  if (lower.every((o) => o === 'yes' || o === 'no')) {
    const yn = parseYesNo(text)
    return typeof yn === 'string' ? (lower.includes(yn) ? { index: lower.indexOf(yn) } : unparsed('not-an-option', yn)) : yn.unparsed === 'no-answer' ? null : yn
  }
  const numeric = parseNumericOptions(options)
  return numeric ? matchNumbers(text, numeric) : matchNames(text, options, ask)
}

/** Options whose every number is in the answer; the fullest wins ("51368192, 51369692" over "51368192"). */
function matchNumbers(text: string, options: number[][]): { index: number } | Unparsed | null {
  const tokens = numberTokens(text).tokens.filter((t) => t.kind !== 'bpm' && t.kind !== 'percent')
  const said = tokens.map((t) => t.value)
  const has = (v: number) => said.some((s) => Math.abs(s - v) < 1e-6)
  let hits = options.map((o, i) => ({ o, i })).filter(({ o }) => o.every(has))
  hits = hits.filter((h) => !hits.some((g) => g !== h && g.o.length > h.o.length && h.o.every((v) => g.o.includes(v))))
  if (hits.length === 1) return { index: hits[0].i }
  const countLike = options.every((o) => o.length === 1 && Number.isInteger(o[0]) && o[0] < 1000)
  if (countLike) {
    const n = parseNumberAnswer(text, { kind: 'count' })
    if ('value' in n) {
      const i = options.findIndex((o) => o[0] === n.value)
      return i >= 0 ? { index: i } : unparsed('not-an-option', `count ${n.value}`)
    }
  }
  if (hits.length > 1) return unparsed('ambiguous', `options ${hits.map((h) => h.i).join(', ')} all given`)
  const times = tokens.filter((t) => t.kind === 'ms' || t.kind === 'bare' || t.kind === 'clock')
  return times.length ? unparsed('not-an-option', `numbers ${times.map((t) => t.value).join(', ')}`) : null
}

/** Named options by mention: the one asserted (or, for "which is absent", the one negated). */
function matchNames(text: string, options: readonly string[], ask: Ask): { index: number } | Unparsed | null {
  const mentions = findMentions(text, options)
  if (!mentions.length) return null
  const said = [...new Set(mentions.filter((m) => !m.negated).map((m) => m.name))]
  const denied = [...new Set(mentions.filter((m) => m.negated).map((m) => m.name))]
  const want = ask === 'absent' && denied.length ? denied : said
  if (want.length === 1) return { index: options.indexOf(want[0]) }
  return want.length ? unparsed('ambiguous', `options ${want.join(' / ')} all named`) : unparsed('no-answer', 'only negated options named')
}
