// Problems with what a flag asked for, told in the flag's terms. The one-recording commands turn
// their flags into stage options and a record's `leads` (render's --window becomes the segment
// stage's `window`), so the stages' own errors would speak of `stages[4].options.window` or of a
// dataset's `leads: [...]`, which the user never wrote. What can be checked before the run is
// checked here (--lead against the header); what only a stage finds out (a window that rounds
// to no sample) is translated when it comes back (inFlagTerms).
import { PipelineError } from '../core/errors.ts'

/** A lead a flag may name: the index it is named by, and its label. */
export interface LeadChoice {
  index: number
  label: string
}

/** Refuses a --lead value (index or label) that names none of `choices`, listing them. */
export function checkLeadFlag(lead: string | number, choices: LeadChoice[], opts: { file: string; caseSensitive: boolean; among?: string }): void {
  if (choices.length === 0) return
  const same = (a: string, b: string) => (opts.caseSensitive ? a === b : a.trim().toLowerCase() === b.trim().toLowerCase())
  const found = typeof lead === 'number' ? choices.some((c) => c.index === lead) : choices.some((c) => same(c.label, lead))
  if (found) return
  const what = typeof lead === 'number' ? `${opts.among ?? 'signal'} ${lead}` : `${opts.among ?? 'signal'} labelled ${JSON.stringify(lead)}`
  const list = choices.map((c) => `${c.index} ${JSON.stringify(c.label)}`).join(', ')
  throw new PipelineError('E_USAGE', `--lead ${lead}: ${opts.file} has no ${what}; expected ${indexRange(choices.map((c) => c.index))} or a label (${list}); give for example --lead ${choices[0].index} or --lead ${JSON.stringify(choices[0].label)}`, { file: opts.file, field: '--lead' })
}

/** "an index from 0 to 3", or the indices one by one when they have holes. */
function indexRange(indices: number[]): string {
  const [lo, hi] = [Math.min(...indices), Math.max(...indices)]
  if (indices.length === 1) return `the index ${lo}`
  return hi - lo + 1 === indices.length ? `an index from ${lo} to ${hi}` : `one of the indices ${indices.join(', ')}`
}

/** A stage option (or a record's `leads`, stage read) that a flag set. */
export interface FlagOrigin {
  flag: string
  value: unknown
  stage: string
  /** The stage's place in the command's stage list (for errors raised while parsing options). */
  index: number
  option: string
}

const TRANSLATED = new Set(['E_CONFIG_VALUE', 'E_CONFIG_KEY', 'E_NO_ECG'])

/** `err` as an E_USAGE about the flag that set the option it is about; any other error unchanged. */
export function inFlagTerms(err: unknown, origins: FlagOrigin[]): unknown {
  if (!(err instanceof PipelineError) || !TRANSLATED.has(err.code)) return err
  const c = err.context
  const hit = origins.find((o) => {
    // While the options are parsed, the error names their path; while the record runs, the
    // runner names the stage and the stage names the option as the field.
    const parsed = `stages[${o.index}].options.${o.option}`
    return c.yamlPath === parsed || c.yamlPath?.startsWith(`${parsed}.`) || (c.stage === o.stage && c.field === o.option)
  })
  if (!hit) return err
  const context = { ...(c.recordId ? { recordId: c.recordId } : {}), field: hit.flag }
  return new PipelineError('E_USAGE', `${hit.flag} ${hit.value}: ${flagWords(err.message, hit)}`, context, { cause: err })
}

/**
 * A stage's message in the flag's words: without the stage and option it opens with
 * ("segment option window: ", "render-text: option \"leads\": "), and the option's bare name,
 * where it is the flag's name, written as the flag ("set window to 0.003 s" -> "set --window to").
 */
function flagWords(message: string, o: FlagOrigin): string {
  const opening = new RegExp(`^(${o.stage}: )?(${o.stage} )?(option "?${o.option}"?: )?`)
  const bare = message.replace(opening, '')
  if (o.flag !== `--${o.option}`) return bare
  return bare.replace(new RegExp(`(?<![-\\w"])${o.option}(?![\\w"])`, 'g'), o.flag)
}
