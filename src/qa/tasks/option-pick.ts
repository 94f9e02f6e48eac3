// How a measure picks a closed option (the holter-dsp baseline's way, and any baseline's that
// measures instead of guessing): the numeric option nearest the measured values (list distance,
// ties to the earlier), the Yes or No option, or the diagnosis option whose findings best match
// the measured ones. Pure.
import { argBest } from '../../audit/pick.ts'
import { listDistance, parseNumericOptions } from '../option-numbers.ts'

/** The numeric option nearest to `values`, or null when options or values are missing. */
export function nearestOption(options: readonly string[], values: readonly number[] | null): number | null {
  const lists = parseNumericOptions(options)
  return lists && values?.length ? argBest(lists.length, (i) => listDistance(lists[i], values)) : null
}

/** The option reading Yes (or No), or null when `yes` is unknown or no option says it. */
export function yesNoOption(options: readonly string[], yes: boolean | null): number | null {
  if (yes === null) return null
  const i = options.findIndex((o) => new RegExp(`^${yes ? 'yes' : 'no'}\\b`, 'i').test(o.trim()))
  return i < 0 ? null : i
}

/** The option whose labels best match the detected ones (Jaccard; `absent`: the least overlap), ties to the earlier; null when no option names a label. */
export function diagnosisOption(detected: readonly string[], options: readonly string[][], absent: boolean): number | null {
  if (options.every((o) => o.length === 0)) return null
  const have = new Set(detected)
  return argBest(options.length, (i) => {
    const o = options[i]
    if (o.length === 0) return null
    const both = o.filter((l) => have.has(l)).length
    return absent ? both / o.length : -both / (o.length + have.size - both)
  })
}

// A question asking which option is absent rather than present, read in its last sentence only
// (the patient sentence may say "the sex is not recorded").
const ASKS_ABSENT = /\b(absent|missing|not present|not seen|not shown|not contain|does not show|doesn't show|NOT)\b/

/** Whether a diagnosis question asks for the finding that is absent. */
export function asksAbsent(stem: string): boolean {
  return ASKS_ABSENT.test(stem.trim().split(/(?<=[.?!])\s+/).at(-1) ?? '')
}
