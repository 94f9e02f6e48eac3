// Which findings of the vocabulary a text names, as whole words (case-insensitive, a plural "s"
// allowed): the event a question asks about, and the labels an option or an answer names. Pure.
import { NORMAL_SINUS_RHYTHM, type VocabularyEvent } from './vocabulary.ts'

/** The vocabulary event a question names (the one ending last, longest on a tie), or null. */
export function askedEvent(text: string, vocab: readonly VocabularyEvent[]): string | null {
  let best: { name: string; end: number; length: number } | null = null
  for (const e of vocab) {
    const at = lastMention(text, e.name)
    if (at < 0) continue
    const end = at + e.name.length
    if (!best || end > best.end || (end === best.end && e.name.length > best.length)) best = { name: e.name, end, length: e.name.length }
  }
  return best?.name ?? null
}

/** The vocabulary names (and Normal Sinus Rhythm) a text mentions, in vocabulary order. */
export function mentionedLabels(text: string, vocab: readonly VocabularyEvent[]): string[] {
  const found = [...vocab.map((e) => e.name), NORMAL_SINUS_RHYTHM].filter((n) => lastMention(text, n) >= 0)
  // A name met only inside a longer mentioned one ("Ventricular Flutter" in "Ventricular Flutter (Coarse)") is not mentioned by itself.
  const longer = (n: string) => found.filter((m) => m !== n && m.toLowerCase().includes(n.toLowerCase()))
  return found.filter((n) => lastMention(longer(n).reduce((t, m) => t.toLowerCase().replaceAll(m.toLowerCase(), ' '), text), n) >= 0)
}

// Where `name` last occurs in `text` as whole words (case-insensitive, a plural "s" allowed), or -1.
function lastMention(text: string, name: string): number {
  const hay = text.toLowerCase()
  const needle = name.toLowerCase()
  for (let at = hay.lastIndexOf(needle); at >= 0; at = at > 0 ? hay.lastIndexOf(needle, at - 1) : -1) {
    const before = hay[at - 1] ?? ' '
    let after = hay[at + needle.length] ?? ' '
    if (after === 's') after = hay[at + needle.length + 1] ?? ' '
    if (!/[a-z0-9-]/.test(before) && !/[a-z0-9]/.test(after)) return at
  }
  return -1
}
