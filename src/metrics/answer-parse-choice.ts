// Which option a free answer to a closed question picks (rules in answer-parse.ts):
//   1. the whole answer is a letter form: "C", "(c)", "C)", "C.", "Option C: 366253", "C. 366253";
//   2. else the last explicit statement: "answer is C", "Answer: C", "C is correct", "I choose C",
//      "so C", a correction ("Actually, C"); a hedge in it ("answer is A or B") is ambiguous;
//   3. else the lines that are letter forms ("B" above its explanation), when they name one letter
//      (several are the options restated);
//   4. else the letters standing alone in the text ("B, because..."), not the article "A", not
//      letters inside words (Atrial, Bigeminy) or names (A-fib), not negated ones ("not A",
//      "B is too early", "neither A nor B"): one letter is the answer, two or more are ambiguous;
//   5. else the option's text (answer-parse-options.ts);
//   6. else a refusal or no answer.
// A letter followed by another option's exact text ("B. 366253" when C is 366253) is a conflict:
// unparsed, never guessed. Letters beyond the options ("E" of four) are not an option. Pure.
import { LETTERS } from '../holtercare/format.ts'
import { matchOptionText, optionEqual, type Ask } from './answer-parse-options.ts'
import { REFUSAL, cleanAnswer, unparsed, type Unparsed } from './answer-parse-text.ts'

/** Options for parseChoice: whether the question asks for the option that is absent. */
export interface ChoiceOptions {
  ask?: Ask
}

const L = String.raw`\(?([A-Fa-f])\)?`
const WHOLE = new RegExp(String.raw`^(?:(?:final )?answer\s*[:=-]?\s*)?(?:option|choice)?\s*${L}\s*(?:[.):,\-–]\s*([^]*?))?\s*$`, 'i')
const EXPLICIT = [
  String.raw`\b(?:(?:the|my|final|correct|right|best|most likely|most appropriate|most consistent)\s+)*(?:answer\s*(?:is|would be|should be|will be|must be|seems to be|appears to be|=|:|-|→|=>)?|(?:choice|option|selection|response)\s*(?:is|would be|should be|=|:|→|=>))\s*(?:therefore\s+|likely\s+|probably\s+|clearly\s+|definitely\s+)?(?:option\s+|choice\s+|letter\s+)?${L}`,
  String.raw`(?:option\s+)?${L}\s+(?:is|would be|seems|appears|looks)\s+(?:to be\s+)?(?:the\s+)?(?:correct|right|best|most likely|most appropriate|most consistent|answer|true)\b`,
  String.raw`\b(?:choose|select|pick|go with|opt for|going with|choosing|selecting)\s+(?:option\s+|choice\s+)?${L}`,
  String.raw`\b(?:actually|correction|wait|on second thought|on reflection|I mean|rather|scratch that)\s*[,:;.-]?\s*(?:it(?:'s| is| should be| must be)\s+|the answer is\s+|I(?:'ll| will) (?:go with|choose)\s+)?(?:option\s+)?${L}`,
  String.raw`\b(?:therefore|thus|hence|so|overall|in conclusion|in summary|consequently)\s*[,:]?\s*(?:it(?:'s| is)\s+|the answer is\s+)?(?:option\s+)?${L}`,
].map((s) => new RegExp(s, 'gid'))
// After an uppercase "A" these words make it a letter, not the article.
const LETTER_WORDS = /^\s+(?:or|and|is|was|because|since|as|given|which|seems|would|appears|matches|fits|corresponds|looks|vs|versus|then|but|best)\b/
const HEDGE_AFTER = /^\)?\s*(?:or|and|\/|,\s*or|vs\.?|versus)\s*(?:option\s+)?\(?[A-Fa-f]\b/
const NEG_BEFORE = /\b(?:not|n't|neither|nor|rather than|instead of|except|excluding|eliminate|eliminating|rule out|ruling out|unlike|over)\s+(?:option\s+)?\(?$/i
const NEG_AFTER = /^\)?\s*(?:is|are|was|seems|looks)\s+(?:incorrect|wrong|unlikely|not|too|less|off|implausible|ruled out|excluded|eliminated)\b/i

/** The option an answer picks (by index), or why it could not be read. */
export function parseChoice(answer: string, options: readonly string[], opts: ChoiceOptions = {}): { index: number } | Unparsed {
  const text = cleanAnswer(answer)
  if (text === null) return unparsed('unfinished')
  if (text === '') return unparsed('empty')
  if (!options.length) return unparsed('no-answer', 'the question has no options')
  const whole = wholeForm(text, options)
  if (whole) return whole
  const explicit = explicitLetter(text)
  if (explicit) return explicit.hedged ? unparsed('ambiguous', 'hedged between letters') : pick(text, explicit.letter, explicit.end, options)
  const line = lineForm(text, options)
  if (line) return line
  const letters = plainLetters(text, options)
  if (letters.size === 1) {
    const [[letter, end]] = letters
    return pick(text, letter, end, options)
  }
  if (letters.size > 1) return unparsed('ambiguous', `letters ${[...letters.keys()].join(', ')}`)
  const byText = matchOptionText(text, options, opts.ask ?? 'present')
  if (byText) return byText
  return unparsed(REFUSAL.test(text) ? 'refusal' : 'no-answer')
}

/** The whole answer as a letter form, with nothing after but an option's text. */
function wholeForm(text: string, options: readonly string[]): { index: number } | Unparsed | null {
  const m = WHOLE.exec(text)
  const said = m?.[2] ? optionEqual(m[2], options) : -1
  return !m || (m[2] && said < 0) ? null : checked(m[1], said, options)
}

/** The one letter of the lines that are letter forms ("B" above an explanation), unless they list several (the options restated). */
function lineForm(text: string, options: readonly string[]): { index: number } | Unparsed | null {
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  if (lines.length < 2) return null
  const forms = lines.map((l) => wholeForm(l.trim(), options)).filter((r) => r !== null)
  const letters = new Set(forms.map((r) => ('index' in r ? r.index : -1)))
  return letters.size === 1 ? forms[0] : null
}

/** The letter as an option index, unless it is beyond the options or another option's text follows it. */
function checked(letter: string, said: number, options: readonly string[]): { index: number } | Unparsed {
  const index = LETTERS.indexOf(letter.toUpperCase() as (typeof LETTERS)[number])
  if (index < 0 || index >= options.length) return unparsed('not-an-option', `letter ${letter.toUpperCase()}`)
  return said >= 0 && said !== index ? unparsed('conflict', `letter ${letter.toUpperCase()} with the text of option ${LETTERS[said]}`) : { index }
}

/** checked() for a letter inside a text: the option text after it is the words up to the end of its sentence. */
function pick(text: string, letter: string, end: number, options: readonly string[]): { index: number } | Unparsed {
  const rest = /^\)?\s*[.):\-–]?\s*([^\n;(]*?)\s*(?:(?<!\d)\.(?:\s|$)|[\n;(]|$)/.exec(text.slice(end))?.[1] ?? ''
  return checked(letter, rest ? optionEqual(rest, options) : -1, options)
}

/** Whether a letter matched at `at` stands alone and, if lower case, is not a word. */
function standsAlone(text: string, at: number, letter: string): boolean {
  const after = text.slice(at + 1)
  if (/^\)?(?:[A-Za-z0-9]|-[A-Za-z]|'[a-z])/.test(after) || /[A-Za-z0-9]$/.test(text.slice(0, at).replace(/\($/, ''))) return false
  if (letter === letter.toLowerCase()) return !/^\)?\s+[A-Za-z]/.test(after)
  return letter !== 'A' || !/^\s+[a-z]/.test(after) || LETTER_WORDS.test(after)
}

/** The last explicit answer statement's letter, where it ends, and whether it is hedged. */
function explicitLetter(text: string): { letter: string; end: number; hedged: boolean } | null {
  let best: { letter: string; at: number; end: number } | null = null
  for (const re of EXPLICIT) {
    for (const m of text.matchAll(re)) {
      const at = m.indices![1]![0]
      if (!standsAlone(text, at, m[1]) || (best && best.at >= at)) continue
      best = { letter: m[1].toUpperCase(), at, end: at + 1 }
    }
  }
  return best && { letter: best.letter, end: best.end, hedged: HEDGE_AFTER.test(text.slice(best.end)) }
}

/** Upper-case letters standing alone, in range and not negated, with where each first ends. */
function plainLetters(text: string, options: readonly string[]): Map<string, number> {
  let masked = text
  for (const o of [...options].sort((a, b) => b.length - a.length)) masked = masked.split(o).join(' '.repeat(o.length))
  const found: Array<{ letter: string; at: number; negated: boolean }> = []
  const lead = /^\(?([a-f])[.)]\s/.exec(masked)
  if (lead) found.push({ letter: lead[1].toUpperCase(), at: lead[0].indexOf(lead[1]), negated: false })
  for (const m of masked.matchAll(/[A-F]/g)) {
    if (LETTERS.indexOf(m[0] as (typeof LETTERS)[number]) >= options.length || !standsAlone(masked, m.index, m[0])) continue
    const after = masked.slice(m.index + 1)
    found.push({ letter: m[0], at: m.index, negated: NEG_BEFORE.test(masked.slice(0, m.index)) || NEG_AFTER.test(after) })
  }
  // "Options A and D are too far": a negated letter negates the list joined to it.
  for (let i = found.length - 2; i >= 0; i--) {
    if (found[i + 1].negated && NEG_AFTER.test(masked.slice(found[i + 1].at + 1)) && /^\)?\s*(?:,|and|or|&)\s*(?:option\s+)?\(?$/i.test(masked.slice(found[i].at + 1, found[i + 1].at))) found[i].negated = true
  }
  const out = new Map<string, number>()
  for (const f of found) if (!f.negated && !out.has(f.letter)) out.set(f.letter, f.at + 1)
  return out
}
