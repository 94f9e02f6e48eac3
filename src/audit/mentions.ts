// The findings a question names, found the way a reader skimming the text would: every known
// finding name (the default vocabulary's, and any option of a diagnosis item in the folders
// read) matched case-insensitively on word boundaries, longest names first so "ventricular
// couplet" is not also read as a bare "couplet". The audit's join answerers compare the names
// of one question with those of the other questions about the same excerpt. Pure.
import { escapeRegExp } from '../core/regexp.ts'
import { DEFAULT_VOCABULARY, NORMAL_SINUS_RHYTHM } from '../qa/vocabulary.ts'

export interface NameFinder {
  /** The names `text` mentions, lower-cased, in order of first appearance. */
  find(text: string): string[]
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ')

/** A finder over the vocabulary's names and `extra` ones (diagnosis options). */
export function createNameFinder(extra: Iterable<string> = []): NameFinder {
  const names = new Set([...DEFAULT_VOCABULARY.map((e) => e.name), NORMAL_SINUS_RHYTHM, ...extra].map(norm).filter((n) => n.length >= 3))
  const sorted = [...names].sort((a, b) => b.length - a.length)
  const re = sorted.length ? new RegExp(`\\b(?:${sorted.map(escapeRegExp).join('|')})\\b`, 'gi') : null
  return {
    find(text) {
      if (!re) return []
      const out: string[] = []
      for (const m of text.matchAll(re)) {
        const n = norm(m[0])
        if (!out.includes(n)) out.push(n)
      }
      return out
    },
  }
}

export { norm as normName }
