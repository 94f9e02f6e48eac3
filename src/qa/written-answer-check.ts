// The check a model-written answer must pass before it replaces the template's (pure
// "LLM-written QA text"): it may say the facts in other words, never other facts. Rejected when
// it is not the JSON asked for, changes the yes/no of the template, states a number that is not
// one of the facts' (a count, a time, a rate; rounding of a fact's decimals is allowed) or a
// clock time the facts do not hold, spells a number out, leaves out a number the template states,
// names an event of the vocabulary (or a clinical finding) that the template does not, leaves
// out one it names, or negates an event the template affirms (or the reverse). What it cannot
// see: two of the facts' numbers swapped between roles.
import { inText, type VocabularyEvent } from './vocabulary.ts'
import { escapeRegExp } from '../core/regexp.ts'

export type WrittenVerdict = { ok: true; answer: string } | { ok: false; reason: string }

const MAX_CHARS = 2000

/** Judges `raw` (the model's reply) against the template answer and the structured facts. */
export function checkWrittenAnswer(raw: string, template: string, facts: unknown, vocab: readonly VocabularyEvent[]): WrittenVerdict {
  let answer: unknown
  try {
    answer = (JSON.parse(stripFence(raw)) as { answer?: unknown }).answer
  } catch {
    return { ok: false, reason: 'the reply is not the JSON object {"answer": "..."} asked for' }
  }
  if (typeof answer !== 'string' || !answer.trim()) return { ok: false, reason: 'the reply has no "answer" text' }
  const text = answer.trim()
  if (text.length > MAX_CHARS) return { ok: false, reason: `the answer is ${text.length} characters long (at most ${MAX_CHARS})` }
  const yesNo = /^(yes|no)\b/i.exec(template)?.[1].toLowerCase()
  if (yesNo && /^(yes|no)\b/i.exec(text)?.[1].toLowerCase() !== yesNo) return { ok: false, reason: `the template answers "${yesNo}" first; the written answer does not` }
  const clocks = (t: string) => t.match(CLOCK) ?? []
  const factText = `${template} ${JSON.stringify(facts)}`
  const strayClock = clocks(text).find((c) => !factText.includes(c))
  if (strayClock) return { ok: false, reason: `the answer states the time ${strayClock}, which the facts do not` }
  const spelled = SPELLED.exec(text)?.[0]
  if (spelled && !new RegExp(`\\b${spelled}\\b`, 'i').test(template)) return { ok: false, reason: `the answer spells a number out ("${spelled}"): write numbers as digits, as the facts give them` }
  const allowed = allowedNumbers(template.replace(CLOCK, ' '), facts)
  const written = numbersIn(text.replace(CLOCK, ' '))
  const stray = written.find((n) => !allowed.has(key(n)))
  if (stray !== undefined) return { ok: false, reason: `the answer states ${stray}, which is not one of the facts' numbers` }
  const named = (s: string) => new Set(vocab.filter((e) => mentions(s, e.name)).map((e) => e.name))
  const inTemplate = named(template)
  const inWritten = named(text)
  const added = [...inWritten].filter((e) => !inTemplate.has(e))
  if (added.length) return { ok: false, reason: `the answer names ${added.join(', ')}, which the facts do not` }
  const dropped = [...inTemplate].filter((e) => !inWritten.has(e))
  if (dropped.length) return { ok: false, reason: `the answer leaves out ${dropped.join(', ')}` }
  const turned = [...inWritten].find((e) => negated(text, e) !== negated(template, e))
  if (turned) return { ok: false, reason: `the answer ${negated(text, turned) ? 'negates' : 'affirms'} ${turned}, which the template ${negated(template, turned) ? 'negates' : 'affirms'}` }
  const term = CLINICAL.find((t) => t.test(text) && !t.test(template))
  if (term) return { ok: false, reason: `the answer names a finding the facts do not (${term.exec(text)![0]})` }
  const kept = new Set(written.flatMap((n) => [key(n), key(Math.round(n))]))
  const lost = numbersIn(template.replace(CLOCK, ' ')).find((n) => !kept.has(key(n)) && !kept.has(key(Math.round(n))))
  if (lost !== undefined) return { ok: false, reason: `the answer leaves out ${lost}, which the template states` }
  return { ok: true, answer: text }
}

// The numbers a text states: digit groups with thousands separators and decimals ("2,273", "1.45").
export function numbersIn(text: string): number[] {
  return [...text.matchAll(/(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.,])\d+(?:\.\d+)?/g)].map((m) => Number(m[0].replaceAll(',', '')))
}

// Every number of the template and the facts, with each rounded to 1 and 2 decimals, and to a
// whole number from 10 up (75.5 bpm as 76; but 1.84 times is not "2", which reads as a count).
function allowedNumbers(template: string, facts: unknown): Set<string> {
  const out = new Set<string>()
  const add = (n: number) => {
    for (const d of Math.abs(n) >= 10 ? [0, 1, 2] : [1, 2]) out.add(key(Number(n.toFixed(d))))
    out.add(key(n))
  }
  numbersIn(template).forEach(add)
  const walk = (v: unknown): void => {
    if (typeof v === 'number' && Number.isFinite(v)) add(v)
    else if (typeof v === 'string') numbersIn(v).forEach(add)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(facts)
  return out
}

const key = (n: number) => String(n)

// Clock times (00:12:05, 00:12:05.250): one token, never three numbers.
const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g
const SPELLED = /\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|hundred|thousand|dozen|single|couple|several)\b/i
// Findings a report may add that no vocabulary event names.
const CLINICAL = [/\binfarct\w*/i, /\bischemi\w*|\bischaemi\w*/i, /\bST[- ](?:segment|elevation|depression)/i, /\bheart block\b|\bAV block\b|\bbundle branch block\b/i, /\bfibrillation\b/i, /\bflutter\b/i, /\btachycardia\b/i, /\bbradycardia\b/i, /\bpause\w*\b/i, /\bQT\b/i, /\bhypertroph\w*/i, /\bpericardi\w*/i, /\bpacemaker|\bpaced\b/i]

// Whether the mention of `name` in `text` is negated: "no", "not", "without", "absent", "neither" or "nor" in the few words before it.
function negated(text: string, name: string): boolean {
  const t = text.toLowerCase()
  const at = t.search(new RegExp(`(^|[^a-z])${escapeRegExp(inText(name).toLowerCase())}`))
  if (at < 0) return false
  const before = t.slice(Math.max(0, at - 40), at + 1)
  return /\b(no|not|without|absent|neither|nor|none)\b[^.;:]*$/.test(before)
}

function mentions(text: string, name: string): boolean {
  const words = inText(name).toLowerCase()
  const t = text.toLowerCase()
  // A longer name containing this one ("polymorphic ventricular tachycardia") mentions it too:
  // the template then names both, and so must the written answer.
  return new RegExp(`(^|[^a-z])${escapeRegExp(words)}s?([^a-z]|$)`).test(t)
}

// A reply wrapped in a Markdown code fence, as chat models often send JSON.
function stripFence(raw: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(raw)
  return m ? m[1] : raw
}
