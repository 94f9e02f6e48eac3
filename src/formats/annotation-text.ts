// EDF+ carries an annotation as free text; MIT-style converters (wfdb2edf, our `convert`) write
// a beat as its symbol ("N", "V") and a rhythm change as the symbol followed by the aux string
// ("+(AFIB"). This splits such text back into symbol and aux so EDF+ and WFDB inputs give the
// same annotation items; any other text is kept whole as the symbol.

/** Splits an annotation text into MIT symbol and aux (e.g. "+(N" -> ["+", "(N"]). */
export function splitAnnotationText(text: string): { symbol: string; aux: string } {
  if (text.length > 1 && text[1] === '(' && !/\s/.test(text[0])) return { symbol: text[0], aux: text.slice(1) }
  return { symbol: text, aux: '' }
}

/** The inverse: the EDF+ text for an MIT symbol and aux string. */
export function joinAnnotationText(symbol: string, aux: string): string {
  return aux ? `${symbol}${aux}` : symbol
}
