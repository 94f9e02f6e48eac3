// EDF+ carries an annotation as free text; MIT-style converters (wfdb2edf, our `convert`) write
// a beat as its symbol ("N", "V") and a rhythm change as the symbol followed by the aux string
// ("+(AFIB", "+)"). Any other aux string (Icentia11k writes "None" on every beat) is written after
// a space ("N None"), so that it can be told from the symbol. This splits such text back into
// symbol and aux so EDF+ and WFDB inputs give the same annotation items; any other text is kept
// whole as the symbol.

// MIT mnemonics (wfdb-annotation-codes.ts) that may start "symbol aux" text.
const MIT_SYMBOLS = new Set('NLRaVFJASEj/Q~|sT*D"=pB^t+u?![]enx@f()r')

/** Splits an annotation text into MIT symbol and aux (e.g. "+(N" -> ["+", "(N"], "N None" -> ["N", "None"]). */
export function splitAnnotationText(text: string): { symbol: string; aux: string } {
  if (text.length > 1 && (text[1] === '(' || text[1] === ')') && !/\s/.test(text[0])) return { symbol: text[0], aux: text.slice(1) }
  if (text.length > 2 && text[1] === ' ' && MIT_SYMBOLS.has(text[0])) return { symbol: text[0], aux: text.slice(2) }
  return { symbol: text, aux: '' }
}

/** The inverse: the EDF+ text for an MIT symbol and aux string. */
export function joinAnnotationText(symbol: string, aux: string): string {
  if (!aux) return symbol
  return aux[0] === '(' || aux[0] === ')' ? `${symbol}${aux}` : `${symbol} ${aux}`
}

/** The rhythm an annotation starts, or null: MIT writes a rhythm change as "+" with aux "(NAME". */
export function rhythmOf(a: { symbol: string; aux: string }): string | null {
  if (a.symbol !== '+' || !a.aux.startsWith('(')) return null
  const name = a.aux.slice(1).trim()
  return name === '' ? null : name
}

/**
 * Whether an annotation ends the rhythm episode in progress: "+" with aux ")". MIT-BIH never
 * writes it (an episode runs to the next change); Icentia11k closes every rhythm interval so,
 * and the time up to the next "(NAME" belongs to no episode.
 */
export function endsRhythm(a: { symbol: string; aux: string }): boolean {
  return a.symbol === '+' && a.aux.trim() === ')'
}
