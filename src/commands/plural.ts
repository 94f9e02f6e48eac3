// Counts in the commands' messages: "1 record", "2 records", "3 summaries". Item kinds come from
// plugins too, so the plural of a noun not seen before follows the English spelling rules.

/** The plural of an English noun: -y after a consonant becomes -ies, -s/-x/-ch/-sh take -es. */
export function pluralOf(noun: string): string {
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`
  if (/(s|x|ch|sh)$/i.test(noun)) return `${noun}es`
  return `${noun}s`
}

/** `n` and the noun, singular for 1. */
export function count(n: number, noun: string, plural = pluralOf(noun)): string {
  return `${n} ${n === 1 ? noun : plural}`
}
