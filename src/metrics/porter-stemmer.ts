// The Porter stemmer as Google's rouge-score uses it: `nltk.stem.porter.PorterStemmer()`, whose
// default mode is NLTK_EXTENSIONS (not ORIGINAL_ALGORITHM, not MARTIN_EXTENSIONS). ROUGE-L with
// stemming matches rouge-score only if every departure of that mode is kept:
//   - a table of irregular forms (skies -> sky, dying -> die, news, proceed, ...) looked up first;
//   - words of 1-2 letters are returned unchanged;
//   - step 1a: 4-letter "-ies" words keep "ie" (dies -> die); step 1b: "-ied" -> "ie" for 4-letter
//     words, else "i" (spied -> spi), and nothing more is done in that step;
//   - *o (ends consonant-vowel-consonant) is also true for a 2-letter vowel-consonant word;
//   - step 1c: y -> i only after a consonant that is not the whole stem (happy -> happi, enjoy);
//   - step 2: "-alli" -> "-al" is tried first and step 2 rerun; "-bli" -> "-ble" (not "-abli");
//     extra rules "-fulli" -> "-ful" and "-logi" -> "-log" (measured with the "l" kept).
// Within a step the first rule whose suffix matches decides, even when its condition fails
// (nltk's _apply_rule_list). Words are expected in lower case ASCII, as rouge-score passes them.

type Condition = (stem: string) => boolean
/** [suffix, replacement, condition on the word without the suffix]; DOUBLE (*d) takes off one of the two letters. */
type Rule = [suffix: string, replacement: string, condition: Condition | null]

const DOUBLE = '*d'
const IRREGULAR = new Map<string, string>([
  ['sky', 'sky'], ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'],
  ['news', 'news'], ['innings', 'inning'], ['inning', 'inning'], ['outings', 'outing'],
  ['outing', 'outing'], ['cannings', 'canning'], ['canning', 'canning'], ['howe', 'howe'],
  ['proceed', 'proceed'], ['exceed', 'exceed'], ['succeed', 'succeed'],
])

function isVowelLetter(ch: string): boolean {
  return ch === 'a' || ch === 'e' || ch === 'i' || ch === 'o' || ch === 'u'
}

/** Porter's consonant: not a e i o u, and y only when it follows a vowel (or starts the word). */
function isConsonant(word: string, i: number): boolean {
  const ch = word[i]
  if (isVowelLetter(ch)) return false
  if (ch === 'y') return i === 0 ? true : !isConsonant(word, i - 1)
  return true
}

/** m in [C](VC)^m[V]: the number of vowel-to-consonant transitions. */
function measure(stem: string): number {
  let m = 0
  for (let i = 1; i < stem.length; i++) {
    if (!isConsonant(stem, i - 1) && isConsonant(stem, i)) m++
  }
  return m
}

const positive: Condition = (stem) => measure(stem) > 0
const aboveOne: Condition = (stem) => measure(stem) > 1

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true
  return false
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1)
}

/** *o: ends c-v-c with the last not w, x or y; or (nltk) is a 2-letter vowel-consonant word. */
function endsCvc(word: string): boolean {
  const n = word.length
  if (n >= 3 && isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1)) {
    return !'wxy'.includes(word[n - 1])
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1)
}

/** Applies the first rule whose suffix matches; a failed condition stops the step. */
function applyRules(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === DOUBLE) {
      if (!endsDoubleConsonant(word)) continue
      const stem = word.slice(0, -1)
      return condition === null || condition(stem) ? stem + replacement : word
    }
    if (!word.endsWith(suffix)) continue
    const stem = word.slice(0, word.length - suffix.length)
    return condition === null || condition(stem) ? stem + replacement : word
  }
  return word
}

const STEP1A: Rule[] = [['sses', 'ss', null], ['ies', 'i', null], ['ss', 'ss', null], ['s', '', null]]

function step1a(word: string): string {
  if (word.length === 4 && word.endsWith('ies')) return `${word.slice(0, -3)}ie`
  return applyRules(word, STEP1A)
}

const STEP1B_AFTER_ED_ING: Rule[] = [
  ['at', 'ate', null],
  ['bl', 'ble', null],
  ['iz', 'ize', null],
  // *d and not (*l or *s or *z): drop one of the two letters.
  [DOUBLE, '', (stem) => !/[lsz]$/.test(stem)],
  ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
]

function step1b(word: string): string {
  if (word.endsWith('ied')) return `${word.slice(0, -3)}${word.length === 4 ? 'ie' : 'i'}`
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3)
    return measure(stem) > 0 ? `${stem}ee` : word
  }
  for (const suffix of ['ed', 'ing']) {
    const stem = word.slice(0, -suffix.length)
    if (word.endsWith(suffix) && containsVowel(stem)) return applyRules(stem, STEP1B_AFTER_ED_ING)
  }
  return word
}

const STEP1C: Rule[] = [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]

const STEP2: Rule[] = [
  ['ational', 'ate', positive], ['tional', 'tion', positive], ['enci', 'ence', positive],
  ['anci', 'ance', positive], ['izer', 'ize', positive], ['bli', 'ble', positive],
  ['alli', 'al', positive], ['entli', 'ent', positive], ['eli', 'e', positive],
  ['ousli', 'ous', positive], ['ization', 'ize', positive], ['ation', 'ate', positive],
  ['ator', 'ate', positive], ['alism', 'al', positive], ['iveness', 'ive', positive],
  ['fulness', 'ful', positive], ['ousness', 'ous', positive], ['aliti', 'al', positive],
  ['iviti', 'ive', positive], ['biliti', 'ble', positive], ['fulli', 'ful', positive],
  // The "l" of "-logi" is measured with the stem (geo-logi), so short stems still qualify.
  ['logi', 'log', (stem) => positive(`${stem}l`)],
]

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`)
  return applyRules(word, STEP2)
}

const STEP3: Rule[] = [
  ['icate', 'ic', positive], ['ative', '', positive], ['alize', 'al', positive],
  ['iciti', 'ic', positive], ['ical', 'ic', positive], ['ful', '', positive], ['ness', '', positive],
]

const STEP4: Rule[] = [
  ...['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'].map((s): Rule => [s, '', aboveOne]),
  ['ion', '', (stem) => aboveOne(stem) && /[st]$/.test(stem)],
  ...['ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map((s): Rule => [s, '', aboveOne]),
]

function step5a(word: string): string {
  if (!word.endsWith('e')) return word
  const stem = word.slice(0, -1)
  const m = measure(stem)
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word
}

// -ll -> -l when the word without its last letter has m > 1.
const STEP5B: Rule[] = [['ll', 'l', (stem) => measure(`${stem}l`) > 1]]

/** The stem of one word, equal to nltk's `PorterStemmer().stem(word)` (NLTK_EXTENSIONS mode). */
export function porterStem(word: string): string {
  const lower = word.toLowerCase()
  const irregular = IRREGULAR.get(word)
  if (irregular !== undefined) return irregular
  if (word.length <= 2) return lower
  let stem = step2(applyRules(step1b(step1a(lower)), STEP1C))
  stem = applyRules(applyRules(stem, STEP3), STEP4)
  return applyRules(step5a(stem), STEP5B)
}
