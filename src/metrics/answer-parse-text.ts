// What every answer parser does first (answer-parse.ts): cut reasoning blocks, markdown and JSON
// wrappers down to the answer's text, and the shared vocabulary of refusals, hedges, word numbers
// and clauses. Pure.

/** Why an answer could not be read; counted beside the metric ("unparsed"). */
export type UnparsedReason = 'empty' | 'unfinished' | 'refusal' | 'ambiguous' | 'not-an-option' | 'conflict' | 'no-answer'

/** An answer the parser could not read, with why (and what it saw, for the report). */
export interface Unparsed {
  unparsed: UnparsedReason
  detail?: string
}

/** An unparsed result. */
export function unparsed(reason: UnparsedReason, detail?: string): Unparsed {
  return detail === undefined ? { unparsed: reason } : { unparsed: reason, detail }
}

/** Whether a parse result is unparsed. */
export function isUnparsed(r: unknown): r is Unparsed {
  return typeof r === 'object' && r !== null && 'unparsed' in r
}

const ANSWER_KEYS = ['answer', 'final_answer', 'finalanswer', 'choice', 'option', 'selected_option', 'prediction', 'label', 'labels', 'diagnosis', 'diagnoses', 'findings', 'arrhythmias', 'present', 'result', 'response', 'output', 'count', 'value']

/** A JSON object the whole answer is (optionally in a code fence), or null. */
export function jsonObject(text: string): Record<string, unknown> | null {
  const body = text.trim().replace(/^```[a-z]*\s*/i, '').replace(/\s*```$/, '')
  if (!body.startsWith('{')) return null
  try {
    const v: unknown = JSON.parse(body)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null // not JSON after all: the caller reads it as text
  }
}

/** A JSON value as answer text: strings as they are, numbers as digits, booleans as yes/no, lists joined. */
function valueText(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  if (Array.isArray(v)) return v.map(valueText).join(', ')
  return typeof v === 'string' || typeof v === 'number' ? String(v) : ''
}

/** The value of the first answer-like key of a JSON answer ({"answer": "C"}), or null. */
function jsonAnswer(text: string): string | null {
  const obj = jsonObject(text)
  if (obj) {
    const keys = Object.keys(obj)
    for (const k of ANSWER_KEYS) {
      const key = keys.find((x) => x.toLowerCase() === k)
      if (key !== undefined) return valueText(obj[key])
    }
    return null
  }
  // Not valid JSON (single quotes, a trailing comma, cut off): read the answer field by pattern.
  const m = /^\s*\{[^]*?["']?(?:final_)?answer["']?\s*:\s*(?:"([^"]*)"|'([^']*)'|(-?[\d.,]+|true|false))/i.exec(text)
  return m ? (m[1] ?? m[2] ?? m[3]) : null
}

/**
 * The answer's text with reasoning and formatting removed, or null for a reasoning block that
 * never closed (the model ran out of tokens before answering): <think>...</think> cut, a JSON
 * answer field taken, \boxed{X} read as "Answer: X", markdown emphasis, headings, bullets,
 * list numbers (two numbered lines or more), quotes and code fences dropped.
 */
export function cleanAnswer(raw: string): string | null {
  let t = String(raw ?? '').replace(/<think>[^]*?<\/think>/gi, ' ')
  if (/<think>/i.test(t)) return null
  t = t.replace(/<\/?(?:answer|final)>/gi, ' ')
  const fromJson = jsonAnswer(t)
  if (fromJson !== null) t = fromJson
  // A numbered list ("1. 830522 ms\n2. 832461 ms"): the numbers are not part of the answer.
  if ((t.match(/^[ \t]*\d{1,2}[.)][ \t]+\S/gm) ?? []).length >= 2) t = t.replace(/^[ \t]*\d{1,2}[.)][ \t]+/gm, '')
  return t
    .replace(/\\boxed\{([^}]*)\}/g, '\nAnswer: $1\n')
    .replace(/```[a-z]*/gi, ' ')
    .replace(/\*\*|__|`/g, '')
    .replace(/(^|\s)\*(\S[^*\n]*?)\*(?=\s|[.,;:]|$)/g, '$1$2')
    .replace(/^[ \t]*(?:#{1,6}[ \t]*|>[ \t]*|[-*•][ \t]+)/gm, '')
    .replace(/[ \t]+/g, ' ')
    .trim()
}

/** Refusals and "cannot tell" answers: a reason, not a wrong answer, when nothing else is read. */
export const REFUSAL = /\b(?:I\s*(?:cannot|can't|can ?not|am unable to|'m unable to|am not able to|'m not able to|do not have|don't have)\s+(?:definitively\s+|reliably\s+|accurately\s+|confidently\s+)?(?:determine|count|tell|assess|answer|provide|interpret|analy[sz]e|say|access|reliably|accurately|be certain|(?:view|see|read|open) (?:the |this |any |an )?(?:ecg )?(?:images?|pictures?|attachments?|files?|videos?|signal|data))|unable to (?:determine|tell|assess|answer|provide|count)|(?:cannot|can't|could not|couldn't) be (?:determined|assessed|answered)|(?:not|im)possible to (?:determine|tell|say|assess)|insufficient (?:information|data|resolution)|not enough (?:information|data)|as an AI|I'?m sorry|I am sorry|I apologi[sz]e|consult a (?:cardiologist|physician|doctor))/i

/** Word numbers up to twenty (counts are written as digits or as these words). */
export const WORD_NUMBERS: Record<string, number> = {
  zero: 0, none: 0, one: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
}

/** A word number or digits as a number, or null. */
export function wordNumber(s: string): number | null {
  if (/^\d+$/.test(s)) return Number(s)
  return WORD_NUMBERS[s.toLowerCase()] ?? null
}

/**
 * Clauses of a text with their offsets: split at sentence ends (a dot not inside a number),
 * semicolons, newlines and contrast words (but, however, although, whereas, while,
 * except), so a negation never reaches over them.
 */
export function clauses(text: string): Array<{ text: string; start: number }> {
  const out: Array<{ text: string; start: number }> = []
  const cut = /(?<!\d)[.!?](?=\s|$)|[;\n]|,?\s+\b(?:but|however|although|though|whereas|while|except|yet)\b/gi
  let from = 0
  for (const m of text.matchAll(cut)) {
    out.push({ text: text.slice(from, m.index), start: from })
    from = m.index + m[0].length
  }
  out.push({ text: text.slice(from), start: from })
  return out.filter((c) => c.text.trim() !== '')
}
