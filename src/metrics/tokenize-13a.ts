// sacrebleu's default "13a" tokenizer (the one of mteval-v13a.pl, used by WMT), reproduced
// step by step so BLEU matches sacrebleu 2.x to the token (benchmark-spec "Metrics"):
//   1. strip trailing whitespace (sacrebleu does this before tokenizing, so a trailing "-\n" is
//      no longer a line-break hyphen), drop "<skipped>", join "-\n" line breaks, "\n" -> " ",
//      unescape &quot; &amp; &lt; &gt; (in that order, once each);
//   2. pad with a space, then four regex passes: space out every ASCII symbol except ' , - .;
//      space out . and , unless preceded by a digit, then unless followed by a digit; space out
//      a dash preceded by a digit;
//   3. split on whitespace and rejoin with single spaces.
// "Whitespace" is Python's (str.split / str.isspace), which differs from JS `\s`: it includes
// U+001C-U+001F and U+0085 and excludes U+FEFF. The passes use the same left-to-right,
// non-overlapping matching as Python's re.sub, so "a.." and "1.,x" split as in sacrebleu.

/** Python's str.isspace() set, as a character class body. */
const PY_SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, 'u')
const PY_TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`, 'u')

// The symbols of 13a's first pass: { | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  /
const SYMBOL = /([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/gu
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/gu
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/gu
const DASH_AFTER_DIGIT = /([0-9])(-)/gu

/** Splits on Python whitespace, dropping empty pieces (Python's `str.split()` without arguments). */
export function splitPythonWhitespace(text: string): string[] {
  return text.split(PY_SPACE_RUN).filter((t) => t !== '')
}

/** Python's `str.rstrip()` without arguments. */
export function rstripPython(text: string): string {
  return text.replace(PY_TRAILING_SPACE, '')
}

/** The 13a tokens of one segment, exactly as sacrebleu's BLEU sees them (rstrip included). */
export function tokenize13a(segment: string): string[] {
  let line = rstripPython(segment)
  line = line.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ')
  if (line.includes('&')) {
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  }
  line = ` ${line} `
  line = line.replace(SYMBOL, ' $1 ')
  line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ')
  line = line.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2')
  line = line.replace(DASH_AFTER_DIGIT, '$1 $2 ')
  return splitPythonWhitespace(line)
}

/** The 13a tokenization as sacrebleu prints it: tokens joined by single spaces. */
export function tokenize13aLine(segment: string): string {
  return tokenize13a(segment).join(' ')
}
