// How many tokens a GPT-style model will read for render-text's output, without its
// tokenizer. The estimate counts the pre-tokens that cl100k_base's split pattern cuts text into
// (o200k_base's differs only around letters), scanning the bytes once:
//   digit runs in groups of at most 3 (`\p{N}{1,3}`), punctuation runs with an optional space
//   before and line breaks after (` ?[^\s\p{L}\p{N}]+[\r\n]*`), letter runs with an optional
//   space before, white space ending in line breaks, and white space runs that leave their last
//   space to the token after them.
// On numeric text such as `-0.145,0.150` every pre-token is a single token (1-3 digit groups and
// short punctuation runs are all in both vocabularies), so the count is exact there. Estimated,
// not exact: the BPE merges inside letter runs (a run of capitals as one token per 2 letters:
// "MLII" is ML|II; any other run as 1 + one per 8 letters), a punctuation mark before letters
// (counted on its own), long punctuation runs (one per 4 marks); bytes >= 0x80 count as
// lower-case letters (non-ASCII text is estimated roughly); contractions ('s) are not split off.
// Measured against js-tiktoken 1.0.21 (a dev dependency) on record 100 (samples/mitdb/100,
// 180 windows of 10 s, both leads) as render-text writes it: equal to the cl100k_base and the
// o200k_base count on every window, at 3 decimals with "," (5,189,400 tokens), at 2 with ", ",
// 4 with " ", 0 with ";", and resampled to 100 Hz (test/render/estimate-tokens.test.ts checks a
// sample of windows). On three sentences of clinical prose it was off by -2..+3 tokens of 43-55
// (up to 6 %). Speed on the 2-core development machine: 3 ns a byte on a synthetic window, 5-6 ns
// (about 40 ns a value at 3 decimals) over record 100's windows; the per-byte automaton is a chain
// of dependent table reads.

// Byte classes (digits and punctuation first: the automaton below indexes by them).
const DIGIT = 0
const PUNCT = 1
const LETTER = 2
const BREAK = 3 // \r \n
const SPACE = 4 // other white space

const CLASS = new Uint8Array(256).fill(LETTER) // bytes >= 0x80: parts of non-ASCII letters, mostly
for (let b = 0; b < 128; b++) {
  const c = String.fromCharCode(b)
  CLASS[b] = /[A-Za-z]/.test(c) ? LETTER : /[0-9]/.test(c) ? DIGIT : c === '\r' || c === '\n' ? BREAK : /\s/.test(c) ? SPACE : PUNCT
}

const isUpper = (b: number) => b >= 65 && b <= 90

// STEP[state * 2 + class]: the next state after a digit (class 0) or punctuation (class 1).
const STEP = Uint8Array.from({ length: 16 }, (_, n) => {
  const [state, k] = [n >> 1, n & 1]
  if (k === DIGIT) return state >= 1 && state <= 2 ? state + 1 : 1
  return state >= 4 && state <= 6 ? state + 1 : 4
})
const STARTS = Uint8Array.of(0, 1, 0, 0, 1, 0, 0, 0)

/** Estimated GPT-style (cl100k_base / o200k_base) token count of the ASCII text in bytes[start, end). */
export function estimateTokens(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const cls = CLASS
  let count = 0
  let i = start
  while (i < end) {
    const c = cls[bytes[i]]
    if (c === DIGIT || c === PUNCT) {
      // Digits and punctuation, the bulk of the text: a new token where the class changes, and
      // every 3 digits or 4 punctuation marks within a run. A punctuation mark right before
      // letters would be their prefix in the split pattern; it is counted here instead, as the
      // BPE mostly keeps it apart (",NaN" is ,|NaN).
      // A small automaton, no branches per byte: state 1-3 is the position in a digit token,
      // 4-7 in a punctuation token; a byte that starts a token lands in state 1 or 4.
      let state = 0
      let j = i
      for (; j < end; j++) {
        const k = cls[bytes[j]]
        if (k > PUNCT) break
        state = STEP[state * 2 + k]
        count += STARTS[state]
      }
      const prev = state >= 4 ? PUNCT : DIGIT
      // Line breaks right after punctuation belong to its token.
      if (prev === PUNCT) while (j < end && cls[bytes[j]] === BREAK) j++
      i = j
    } else if (c === LETTER || (c === SPACE && i + 1 < end && cls[bytes[i + 1]] === LETTER)) {
      // Capitals (MLII, ECG, QRS) split about every 2 letters, words about every 8.
      const from = c === LETTER ? i : i + 1
      let upper = true
      let j = from
      for (; j < end && cls[bytes[j]] === LETTER; j++) if (!isUpper(bytes[j])) upper = false
      count += upper ? Math.ceil((j - from) / 2) : 1 + Math.floor((j - from) / 8)
      i = j
    } else if (bytes[i] === 32 && i + 1 < end && cls[bytes[i + 1]] === PUNCT) {
      i++ // a space before punctuation is part of its token
    } else {
      // White space: up to its last line break; else all but a last space that a token follows.
      let j = i
      let lastBreak = -1
      for (; j < end; j++) {
        const k = cls[bytes[j]]
        if (k === BREAK) lastBreak = j
        else if (k !== SPACE) break
      }
      count++
      if (lastBreak >= 0) i = lastBreak + 1
      else if (j === end || j - i === 1) i = j
      else i = j - 1
    }
  }
  return count
}
