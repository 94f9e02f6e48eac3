// Which items of a benchmark are about the same stretch of signal, read from their text alone as
// a blind answerer would: the case id and the span a question states ("... 120000 ms to 180000
// ms ..."), or the case alone where no span is stated (the public release asks about whole
// records). The span is also what the position answerers measure options against. Pure.
import { unGroup } from '../qa/option-numbers.ts'

const SPAN = /(\d+)\s*ms\s*(?:to|until|-|–)\s*(\d+)\s*ms/i

/** The first span "<a> ms to <b> ms" a question states, or null. */
export function statedSpan(question: string): { startMs: number; endMs: number } | null {
  const m = SPAN.exec(unGroup(question))
  if (!m) return null
  const [a, b] = [Number(m[1]), Number(m[2])]
  return b > a ? { startMs: a, endMs: b } : null
}

/** The key that items about one excerpt share: the case and the stated span. */
export function excerptKey(caseId: string, question: string): string {
  const s = statedSpan(question)
  return s ? `${caseId}|${s.startMs}-${s.endMs}` : caseId
}
