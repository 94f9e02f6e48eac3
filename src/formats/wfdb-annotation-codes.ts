// MIT annotation codes (WFDB's ecgcodes.h) and their mnemonics as the WFDB library's
// ecgstr()/annstr() give them (annot.c): undefined codes print as "[n]", code 0 (NOTQRS) as
// " ". isBeatCode copies the isqrs() table of ecgmap.h, where FLWAV (!) counts as a QRS and
// NAPC (x, a blocked P wave) does not.

/** Largest code that denotes an annotation; 59-63 are pseudo-codes of the file format. */
export const ACMAX = 49

const MNEMONICS = [
  ' ', 'N', 'L', 'R', 'a', 'V', 'F', 'J', 'A', 'S', // 0-9
  'E', 'j', '/', 'Q', '~', '[15]', '|', '[17]', 's', 'T', // 10-19
  '*', 'D', '"', '=', 'p', 'B', '^', 't', '+', 'u', // 20-29
  '?', '!', '[', ']', 'e', 'n', '@', 'x', 'f', '(', // 30-39
  ')', 'r', // 40-41; 42-49 are unused
]

/** Codes for which WFDB's isqrs() is true. */
const BEAT_CODES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25, 30, 31, 34, 35, 38, 41])

/** The standard mnemonic of an annotation code ("[n]" for codes without one). */
export function wfdbAnnotationSymbol(code: number): string {
  return MNEMONICS[code] ?? `[${code}]`
}

/** True when the code denotes a QRS complex (WFDB's isqrs). */
export function isBeatCode(code: number): boolean {
  return BEAT_CODES.has(code)
}

/** Named codes of ecgcodes.h that the pipeline refers to. */
export const WFDB_CODE = {
  NOTQRS: 0,
  NORMAL: 1,
  PVC: 5,
  FUSION: 6,
  APC: 8,
  SVPB: 9,
  UNKNOWN: 13,
  NOISE: 14,
  ARFCT: 16,
  NOTE: 22,
  RHYTHM: 28,
} as const

/** True when a mnemonic denotes a QRS complex (isqrs of the code the mnemonic stands for). */
export function isBeatSymbol(symbol: string): boolean {
  const code = MNEMONICS.indexOf(symbol)
  return code > 0 && BEAT_CODES.has(code)
}
