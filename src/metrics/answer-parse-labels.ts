// Diagnosis names in free text (label-set F1 and closed diagnosis options). A name is
// found case-insensitively with hyphens or spaces between its words and an optional plural, or
// through a common synonym or abbreviation (PVC, VPB, PAC, AF, A-fib, AFL, VT, SVT, "1st degree
// AV block", Mobitz I / Wenckebach, complete heart block...). An alias counts only when the name
// it stands for is in the vocabulary given (so "Mobitz I" is "Second-degree AV Block Mobitz I"
// with the public names and "Second-degree AV Block" with ours). Overlaps keep the longest
// mention: "polymorphic ventricular tachycardia" is not also "ventricular tachycardia".
//
// Negation (a NegEx-style rule, documented in answer-parse.ts): a mention is negated when
//   - a negation cue (no, not, without, absence of, negative for, rules out, isn't, rather than...)
//     stands before it in the same clause with no other mention in between, or
//   - a post-cue follows it ("... is absent", "are not seen", "does not occur", "PVC: none"), or
//   - it continues a list of negated mentions joined only by commas / and / or / nor
//     ("no AF, VT or asystole"), unless ", and" and a positive predicate start a new subject
//     ("no pauses, and PVCs are frequent").
// Clauses end at sentence ends, semicolons, newlines and contrast words (but, however, whereas),
// so "not atrial fibrillation but atrial flutter" names atrial flutter. A mention in a question
// ("Ventricular tachycardia? No...") is not asserted and counts as negated. Pseudo-negations are not
// cues: "cannot rule out X" and "X is not excluded" name X; "not absent" is not a negation. Pure.
import { REFUSAL, clauses, cleanAnswer, unparsed, type Unparsed } from './answer-parse-text.ts'
import { escapeRegExp } from '../core/regexp.ts'

interface Alias {
  /** The names this stands for, the first one in the vocabulary wins. */
  to: string[]
  /** Pattern sources; a space stands for optional spaces or hyphens; plurals are written out. */
  re: string[]
  /** Match case exactly (abbreviations that are also English words: AT). */
  cs?: boolean
}

const PREMATURE = String.raw`(?:contractions?|complex(?:es)?|beats?|depolari[sz]ations?|extrasystoles?)`
const AV = String.raw`(?:av|a-v|atrioventricular|heart) (?:conduction )?blocks?`
const ALIASES: Alias[] = [
  { to: ['Premature Atrial Contraction'], re: [`premature atrial ${PREMATURE}`, `atrial premature ${PREMATURE}`, `(?:supraventricular|atrial) (?:ectopic beats?|ectopics|extrasystoles?)`, `supraventricular premature ${PREMATURE}`, String.raw`pacs?|apcs?|apbs?|svpbs?|pac's`] },
  { to: ['Premature Ventricular Contraction'], re: [`premature ventricular ${PREMATURE}`, `ventricular premature ${PREMATURE}`, 'ventricular (?:ectopic beats?|ectopics|extrasystoles?)', String.raw`pvcs?|vpcs?|vpbs?|vebs?|pvc's`] },
  { to: ['Atrial Couplet'], re: ['(?:atrial|pac|supraventricular) couplets?'] },
  { to: ['Ventricular Couplet'], re: ['(?:ventricular|pvc) couplets?', 'paired pvcs'] },
  { to: ['Atrial Tachycardia'], re: ['(?:ectopic )?atrial tachycardias?', 'runs? of pacs'] },
  { to: ['Atrial Tachycardia'], re: ['AT'], cs: true },
  { to: ['Polymorphic Ventricular Tachycardia', 'Ventricular Tachycardia'], re: ['polymorphic (?:ventricular tachycardias?|vts?)', 'pmvt'] },
  { to: ['Torsades de Pointes', 'Polymorphic Ventricular Tachycardia', 'Ventricular Tachycardia'], re: ['torsades?(?: de pointes)?', 'tdp'] },
  { to: ['Ventricular Tachycardia'], re: ['ventricular tachycardias?', 'v-?tach', 'nsvt', 'vts?', 'runs? of pvcs'] },
  { to: ['Ventricular Bigeminy'], re: ['(?:ventricular )?bigeminy', 'bigeminal pvcs', 'pvc bigeminy'] },
  { to: ['Ventricular Trigeminy'], re: ['(?:ventricular )?trigeminy', 'trigeminal pvcs', 'pvc trigeminy'] },
  { to: ['Sinus Pause'], re: ['sinus pauses?', 'sinus arrests?'] },
  { to: ['Asystole'], re: ['asystoles?', 'asystolic (?:pauses?|episodes?)'] },
  { to: ['Sinus Tachycardia'], re: ['sinus tachycardia', 'sinus tachy?'] },
  { to: ['Sinus Bradycardia'], re: ['sinus bradycardia', 'sinus brady'] },
  { to: ['Atrial Fibrillation'], re: ['atrial fibrillation', 'a-?fib', 'af'] },
  { to: ['Atrial Flutter'], re: ['atrial flutter', 'a-flutter', 'afl'] },
  { to: ['Ventricular Flutter (Coarse)', 'Ventricular Flutter'], re: [String.raw`coarse ventricular flutter|ventricular flutter \(coarse\)`] },
  { to: ['Ventricular Flutter'], re: ['ventricular flutter', 'v-flutter', 'vfl'] },
  { to: ['Ventricular Fibrillation'], re: ['ventricular fibrillation', 'v-?fib', 'vf'] },
  { to: ['Supraventricular Tachyarrhythmia'], re: ['supraventricular tachy(?:arrhythmias?|cardias?)', 'p?svta?'] },
  { to: ['First-degree AV Block'], re: [`(?:first|1st|1) degree ${AV}`, `${AV},? (?:first|1st) degree`, `1° ${AV}`, String.raw`(?:avb|av block) (?:type )?I(?![I\d])`] },
  { to: ['Second-degree AV Block Mobitz I', 'Second-degree AV Block'], re: [`(?:(?:second|2nd|2) degree ${AV},? )?(?:mobitz|type) (?:type )?(?:I|1)(?![I\\d])(?: (?:second|2nd) degree ${AV})?`, 'wenckebach'] },
  { to: ['Second-degree AV Block Mobitz II', 'Second-degree AV Block'], re: [`(?:(?:second|2nd|2) degree ${AV},? )?(?:mobitz|type) (?:type )?(?:II|2)(?![I\\d])(?: (?:second|2nd) degree ${AV})?`] },
  { to: ['2:1 AV Conduction Block', 'Second-degree AV Block'], re: [String.raw`2:1 (?:av |a-v |atrioventricular )?(?:conduction )?(?:block|conduction)`] },
  { to: ['Second-degree AV Block'], re: [`(?:second|2nd|2) degree ${AV}`] },
  { to: ['Third-degree AV Block'], re: [`(?:third|3rd|3) degree ${AV}`, `complete ${AV}`, 'chb'] },
  { to: ['Junctional Escape Rhythm', 'Junctional Rhythm'], re: ['junctional escape(?: rhythm)?'] },
  { to: ['Junctional Rhythm', 'Junctional Escape Rhythm'], re: ['(?:accelerated )?(?:junctional|nodal) rhythm'] },
  { to: ['Ventricular Escape Rhythm'], re: ['ventricular escape(?: rhythm)?', 'idioventricular rhythm', 'ivr'] },
  { to: ['Paced Rhythm'], re: ['paced (?:rhythm|beats?|complex(?:es)?)', 'pacemaker rhythm', '(?:ventricular |atrial )?pacing'] },
  { to: ['Pre-excitation'], re: ['pre excitation', 'preexcitation', 'wpw', 'wolff parkinson white'] },
  { to: ['Normal Sinus Rhythm'], re: ['normal sinus rhythm', 'nsr', 'normal rhythm'] },
]

/** A vocabulary entry: a name or an object with one (src/qa/vocabulary.ts's events). */
export type LabelName = string | { name: string }

/** A name as compared: lower case, one space for any run of spaces or hyphens. */
export function normName(s: string): string {
  return s.toLowerCase().replace(/[\s-]+/g, ' ').trim()
}

const spaced = (src: string) => src.replace(/ /g, String.raw`[\s-]*`)
const bounded = (src: string, plural: boolean, flags: string) => new RegExp(String.raw`(?<![A-Za-z0-9])(?:${src})${plural ? "(?:e?s|'s)?" : ''}(?![A-Za-z0-9])`, flags)

// The aliases' patterns, compiled once: compiling them on every call was a large share of scoring.
const ALIAS_PATTERNS = ALIASES.map((a) => ({ to: a.to, res: a.re.map((src) => bounded(spaced(src), false, a.cs ? 'g' : 'gi')) }))

/** One mention of a name: where it is and whether it is negated. */
export interface Mention {
  name: string
  start: number
  end: number
  negated: boolean
}

/** Every non-overlapping mention of the given names (or their aliases) in a text, with negation. */
export function findMentions(text: string, names: readonly string[]): Mention[] {
  const byNorm = new Map(names.map((n) => [normName(n), n]))
  const found: Array<{ name: string; start: number; end: number }> = []
  const scan = (re: RegExp, name: string) => {
    for (const m of text.matchAll(re)) found.push({ name, start: m.index, end: m.index + m[0].length })
  }
  for (const n of names) scan(bounded(spaced(escapeRegExp(normName(n))), /[a-z0-9]$/i.test(n), 'gi'), n)
  for (const a of ALIAS_PATTERNS) {
    const to = a.to.map((c) => byNorm.get(normName(c))).find((c) => c !== undefined)
    if (to !== undefined) for (const re of a.res) scan(re, to)
  }
  found.sort((x, y) => x.start - y.start || y.end - x.end)
  const kept: Mention[] = []
  for (const f of found) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push({ ...f, negated: false })
  markNegated(text, kept)
  return kept
}

// Pseudo-negations are blanked (same length) before the cues are looked for; so is a "No" that
// answers a question ("No, these are PVCs").
const PSEUDO = /\b(?:cannot|can't|can ?not|could not|couldn't) (?:rule out|exclude|be excluded|be ruled out)|\bnot (?:excluded|ruled out|only|absent)\b|\bno (?:doubt|question|longer)\b|\bwithout (?:a )?doubt\b|(?<![:=-]\s*)\bno\b(?=\s*[—–,:;.!-])/gi
const PRE = /\b(?:no|not|without|absent|absence of|negative for|free of|rules? out|ruled out|excludes?|excluding|neither|nor|never|lack(?:s|ing)?(?: of)?|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|cannot see|can't see|rather than|instead of|other than|none of|nothing (?:to suggest|suggest\w*))\b/i
const POST_NEG = /^\s*\)?\s*(?:(?:(?:is|are|was|were|has been|have been|being|seems|appears)\s+)?(?:not\s+(?:seen|present|observed|evident|visible|identified|detected|found|noted|shown|demonstrated|apparent|recorded|supported|there)|absent|excluded|ruled out|unlikely)|(?:does|do|did)\s*(?:not|n't)\s+(?:occur|appear|show|exist|happen)|(?:isn't|aren't|wasn't|weren't)\b|[:=-]\s*(?:no|none|absent|not (?:seen|present|detected)|0|negative)\b)/i
const POST_POS = /^\s*\)?\s*(?:(?:is|are|was|were)\s+(?:clearly\s+)?(?:present|seen|noted|frequent|observed|visible|evident|identified|detected|common|occasional)|(?:occurs?|appears?)\b|[:=-]\s*(?:yes|present)\b)/i
const CHAIN = /^[\s,/]*(?:(?:,|and|or|nor|and\/or|as well as|any|other|signs of|evidence of)[\s,/]*)*$/i

/** Sets `negated` on mentions (in text order) by the rule at the top of this file. */
function markNegated(text: string, mentions: Mention[]): void {
  const plain = text.replace(PSEUDO, (s) => ' '.repeat(s.length))
  const spans = clauses(plain).map((c) => ({ start: c.start, end: c.start + c.text.length }))
  const clauseOf = (at: number) => spans.findIndex((c) => at >= c.start && at < c.end)
  for (let i = 0; i < mentions.length; i++) {
    const m = mentions[i]
    const c = clauseOf(m.start)
    const prev = i > 0 && clauseOf(mentions[i - 1].start) === c ? mentions[i - 1] : null
    const next = i + 1 < mentions.length && clauseOf(mentions[i + 1].start) === c ? mentions[i + 1] : null
    const before = plain.slice(prev ? prev.end : (spans[c]?.start ?? 0), m.start).split(':').pop()!
    const after = plain.slice(m.end, next ? next.start : (spans[c]?.end ?? plain.length))
    if (plain[spans[c]?.end ?? -1] === '?') {
      m.negated = true // asked, not asserted: "Ventricular tachycardia? No, isolated PVCs."
      continue
    }
    // "No pauses, and PVCs are frequent": a new subject with a positive predicate ends the list.
    const chained = prev !== null && prev.negated && CHAIN.test(before) && !(POST_POS.test(after) && /,\s*and\b/i.test(before))
    m.negated = preNegated(before) || POST_NEG.test(after) || chained
    // A post-cue negates the list before it: "AF and VT are not seen".
    if (POST_NEG.test(after)) {
      for (let j = i - 1; j >= 0 && clauseOf(mentions[j].start) === c && CHAIN.test(plain.slice(mentions[j].end, mentions[j + 1].start)); j--) mentions[j].negated = true
    }
  }
}

/** A cue at most four words before the mention, with no positive word or new subject after it ("absent P waves consistent with AF" names AF). */
function preNegated(before: string): boolean {
  const cues = [...before.matchAll(new RegExp(PRE.source, 'gi'))]
  if (!cues.length) return false
  const last = cues[cues.length - 1]
  const rest = before.slice(last.index + last[0].length)
  if (/,\s*(?:and|with|while|plus)\b/i.test(rest)) return false // "no pauses, and PVCs ...": a new subject
  return rest.split(/\s+/).filter(Boolean).length <= 4 && !/consistent|suggest|indicat|compatible|show|represent|diagnos|confirm/i.test(rest)
}

// An answer that names no finding on purpose: the empty set, not an unparsed answer.
const NONE = /\b(?:normal sinus rhythm|nsr|sinus rhythm|normal (?:ecg|rhythm|tracing|findings?)|no (?:\w+ ){0,3}(?:arrhythmias?|abnormalit(?:y|ies)|findings?|ectop\w*|abnormal\w*|events?|rhythm disturbances?)|none|nothing abnormal|unremarkable|within normal limits)\b/i

/**
 * The vocabulary names an answer asserts (vocabulary order): mentions that are not negated. An
 * answer that names none but says so ("no arrhythmia", "normal sinus rhythm", only negated
 * mentions) is the empty set; one that names nothing it knows is unparsed.
 */
export function parseLabels(answer: string, vocabulary: readonly LabelName[]): { labels: string[] } | Unparsed {
  const text = cleanAnswer(answer)
  if (text === null) return unparsed('unfinished')
  if (text === '') return unparsed('empty')
  const names = vocabulary.map((v) => (typeof v === 'string' ? v : v.name))
  const mentions = findMentions(text, names)
  const said = new Set(mentions.filter((m) => !m.negated).map((m) => m.name))
  if (said.size) return { labels: names.filter((n) => said.has(n)) }
  if (mentions.length || NONE.test(text)) return { labels: [] }
  return unparsed(REFUSAL.test(text) ? 'refusal' : 'no-answer')
}
