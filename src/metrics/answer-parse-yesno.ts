// Yes/no answers of closed_presence items without options (rules in answer-parse.ts). The
// prompt asks for "Yes" or "No" first, so the first word decides when it is one; otherwise an
// explicit "answer: yes/no" (the last one); otherwise the polarity of the sentences that say
// whether something is present: about the event when it is given and named (its mention's
// negation, answer-parse-labels.ts), else by counting negations ("It is not absent": yes). Pure.
import { findMentions } from './answer-parse-labels.ts'
import { REFUSAL, clauses, cleanAnswer, unparsed, type Unparsed } from './answer-parse-text.ts'

export type YesNo = 'yes' | 'no'

const HEDGE_LEAD = /^(?:yes\s*(?:and|or|\/)\s*no|no\s*(?:and|or|\/)\s*yes|maybe|possibly|perhaps|uncertain|unclear|not sure|not certain|hard to (?:say|tell)|difficult to (?:say|tell|determine)|it depends|it is unclear|it's unclear|inconclusive|indeterminate|equivocal|borderline)\b/i
// Yes/no words lead an answer anywhere; the other words only standing alone ("Absent." but not
// "Absent P waves and ...").
const ALONE = String.raw`(?=\s*(?:[.,;:!)(—–-]|$))`
const LEAD_YES = new RegExp(String.raw`^(?:(?:yes|yeah|yep|yup|positive for|i (?:think|believe) so)\b|(?:true|present|positive|affirmative|correct|indeed|definitely|certainly|absolutely|confirmed)${ALONE})`, 'i')
const LEAD_NO = new RegExp(String.raw`^(?:(?:no|nope|negative for|i (?:don't|do not) (?:think|believe) so|not really)\b|(?:false|absent|negative|none|not|not present|not seen|not observed|not detected)${ALONE})`, 'i')
// Words that make a leading "No"/"Not" not an answer.
const NOT_A_NO = /^(?:no (?:doubt|question)|not only)\b/i
const SOFTENER = /^(?:(?:final )?answer\s*[:=-]\s*|(?:most |very )?(?:likely|probably)[,:]?\s+|(?:I (?:think|believe|would say)|based on (?:the|this) (?:ecg|tracing|strip)),?\s+)+/i
const EXPLICIT = /\b(?:(?:answer|conclusion|verdict|final answer)\s*(?:is|would be|:|=|-)|(?:so|therefore|thus|hence|overall|in conclusion|in summary),?)\s*["'(]?(yes|no)\b/gi
// A sentence that says whether something is there.
const PREDICATE = /\b(?:present|presence|seen|see|shows?|showing|shown|evidence|observed?|identified|identify|detected|detect|noted|visible|evident|consistent with|suggestive of|there (?:is|are|were|was|may be|might be|could be)|occurs?|occurring|occurred|appears?|demonstrates?|contains?|absent|absence|none|features? of|found|captured|confirms?|confirmed|ruled out|rule out|excluded)\b/i
const NEGATION = /\b(?:no|not|none|never|without|absent|absence|neither|nor|lacks?|lacking|cannot|can ?not|free of|negative for|rules? out|ruled out)\b|n't\b/gi
const HEDGE = /\b(?:cannot|can't|can not|could not|couldn't) (?:rule out|exclude|be excluded|be ruled out)|\bnot (?:excluded|ruled out)\b|\b(?:possibl[ey]|maybe|perhaps|might|may be|uncertain|unclear|equivocal|borderline|questionable)\b/i
const CONCLUSION = /^\s*(?:so|therefore|thus|hence|overall|in conclusion|in summary|to conclude|in short|conclusion|impression|interpretation)\b/i

/** Options for parseYesNo: the event asked about, to read only the sentences about it. */
export interface YesNoOptions {
  event?: string
}

/**
 * Yes, no, or unparsed: the first word when it is a yes/no word ("Yes: present", "No, there is
 * none", "Y"/"N" only as the whole answer); a hedge ("Yes and no", "Possibly") is unparsed;
 * else the last "answer is yes/no"; else the polarity of the sentences that say whether
 * something (the event, when given and named) is present, which must agree or end in a
 * conclusion ("so", "therefore"); a refusal is unparsed.
 */
export function parseYesNo(answer: string, opts: YesNoOptions = {}): YesNo | Unparsed {
  const text = cleanAnswer(answer)
  if (text === null) return unparsed('unfinished')
  if (text === '') return unparsed('empty')
  if (/^\(?[yn]\)?[.!]?$/i.test(text)) return text.replace(/\W/g, '').toLowerCase() === 'y' ? 'yes' : 'no'
  // An echoed question first ("Is AF present? Yes.") is skipped.
  const lead = text.replace(/^[^?.!\n]{0,300}\?\s*/, '').replace(SOFTENER, '')
  if (HEDGE_LEAD.test(lead)) return unparsed('ambiguous', 'hedged yes/no')
  if (/^(?:definitely|certainly|absolutely|surely)\s+not\b/i.test(lead)) return 'no'
  if (LEAD_YES.test(lead)) return 'yes'
  if (LEAD_NO.test(lead) && !NOT_A_NO.test(lead)) return 'no'
  const explicit = [...text.matchAll(EXPLICIT)]
  if (explicit.length) return explicit[explicit.length - 1][1].toLowerCase() as YesNo
  return polarity(text, opts.event)
}

/** The polarity of the presence sentences (see parseYesNo). */
function polarity(text: string, event: string | undefined): YesNo | Unparsed {
  const plain = text.replace(/\b(?:no (?:doubt|question)|not only|without (?:a )?doubt)\b/gi, ' ')
  let said = clauses(plain).filter((c) => PREDICATE.test(c.text) && plain[c.start + c.text.length] !== '?')
  let vote = (c: string): YesNo | null => (HEDGE.test(c) ? null : (c.match(NEGATION)?.length ?? 0) % 2 === 0 ? 'yes' : 'no')
  const about = event === undefined ? [] : said.filter((c) => findMentions(c.text, [event]).length > 0)
  if (about.length) {
    // Sentences that name the event: its mention's negation decides.
    if (about.every((c) => REFUSAL.test(c.text))) return unparsed('refusal')
    said = about
    vote = (c) => (HEDGE.test(c) ? null : findMentions(c, [event!]).some((m) => m.negated) ? 'no' : 'yes')
  }
  said = said.filter((c) => !REFUSAL.test(c.text))
  if (!said.length) return unparsed(REFUSAL.test(text) ? 'refusal' : 'no-answer')
  const votes = said.map((c) => vote(c.text))
  const last = [...said].reverse().findIndex((c) => CONCLUSION.test(c.text))
  if (last >= 0) return votes[said.length - 1 - last] ?? unparsed('ambiguous', 'hedged conclusion')
  if (votes.some((v) => v === null)) return unparsed('ambiguous', 'hedged')
  return new Set(votes).size === 1 ? votes[0]! : unparsed('ambiguous', 'sentences disagree')
}
