// Closed-task options as the public release writes them: inline at the end of the question
// ("... A. 2; B. 0; C. 3; D. 1") and repeated by the answer ("D. 1"). Pure; kept apart from the
// layout so that the task modules, which the layout lists, can write options without importing it.

export const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'] as const

export interface InlineOption {
  letter: string
  text: string
}

/**
 * The options written at the end of a question, or null when it has none: the last " A. " from
 * which the rest splits on "; B. ", "; C. "... into consecutive letters (at least two options).
 */
export function splitOptions(question: string): { stem: string; options: InlineOption[] } | null {
  for (let at = question.lastIndexOf(' A. '); at >= 0; at = question.lastIndexOf(' A. ', at - 1)) {
    const parts = question.slice(at + 1).split(/; (?=[B-F]\. )/)
    if (parts.length < 2) continue
    const options = parts.map((p, i) => ({ letter: p.slice(0, 1), text: p.slice(3), ok: p.startsWith(`${LETTERS[i]}. `) }))
    if (options.every((o) => o.ok && o.text.trim() !== '')) return { stem: question.slice(0, at), options: options.map(({ letter, text }) => ({ letter, text })) }
    if (at === 0) break
  }
  return null
}

/** Options written inline: "A. x; B. y; ...". */
export function formatOptions(texts: readonly string[]): string {
  return texts.map((t, i) => `${LETTERS[i]}. ${t}`).join('; ')
}

/** A closed answer "C. text" split into its letter and text, or null when it does not start with one. */
export function splitAnswer(answer: string): InlineOption | null {
  const m = /^([A-F])\. (.*)$/s.exec(answer)
  return m ? { letter: m[1], text: m[2] } : null
}
