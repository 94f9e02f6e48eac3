// The checks of `pipeline qa validate` over what src/holtercare/folder.ts read (docs/qa-checks.md):
// each element of a task file, its gold line, and cases across splits. Pure: a problem is
// {file, index | line, message}, the message says what is wrong and how to fix it.
// Presence accepts both public shapes (the Holtercare-Bench paper and release, "Options"): free text
// starting "Yes"/"No", or exactly the options Yes and No. Option texts are compared trimmed and
// case-insensitively for duplicates, exactly for the answer (the answer repeats the option).
import { LETTERS, isTaskType, splitAnswer, splitOptions, tierOf, type HoltercareItem, type InlineOption, type TaskType } from './format.ts'

export interface Problem {
  file: string
  /** 0-based element index in a task file. */
  index?: number
  /** 1-based line of a gold file. */
  line?: number
  message: string
}

/** `file:index: message` (or `file:line`, or `file: message` for the whole file). */
export function formatProblem(p: Problem): string {
  const at = p.index ?? p.line
  return `${p.file}${at === undefined ? '' : `:${at}`}: ${p.message}`
}

/** The option counts a closed task allows ([min, max]); presence has its own rule. */
export const OPTION_COUNTS: Partial<Record<TaskType, [number, number]>> = {
  closed_event_counting: [4, 4],
  closed_event_timing: [4, 4],
  closed_HR_extremum_timing: [4, 4],
  closed_diagnosis: [2, 4],
  closed_presence: [2, 2],
}

const KEYS = ['id', 'task_type', 'qa_pair', 'tag']
const QA_KEYS = ['question', 'answer']
const SHAPE = 'an element is {id, task_type, qa_pair: {question, answer}, tag}'

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)
const filled = (x: unknown): x is string => typeof x === 'string' && x.trim() !== ''
const norm = (s: string) => s.trim().toLowerCase()

/** Whether a value has the public element's shape (exact keys, non-empty strings, a known task). */
export function isHoltercareItem(x: unknown): x is HoltercareItem {
  return isObject(x) && keysProblems(x, KEYS, '').length === 0 && isObject(x.qa_pair) && keysProblems(x.qa_pair, QA_KEYS, 'qa_pair.').length === 0 &&
    [x.id, x.task_type, x.tag, x.qa_pair.question, x.qa_pair.answer].every(filled) && isTaskType(x.task_type as string)
}

function keysProblems(o: Record<string, unknown>, keys: string[], prefix: string): string[] {
  const out = keys.filter((k) => !(k in o)).map((k) => `missing key "${prefix}${k}"; add it (${SHAPE})`)
  for (const k of Object.keys(o)) if (!keys.includes(k)) out.push(`unexpected key "${prefix}${k}"; remove it (${SHAPE})`)
  for (const k of keys) if (k in o && k !== 'qa_pair' && !filled(o[k])) out.push(`"${prefix}${k}" must be a non-empty string, found ${JSON.stringify(o[k])}; write the ${k === 'id' ? 'case id' : k}`)
  return out
}

/** The expected tag of a split's elements and why (shown when one differs). */
export interface TagRule {
  tag: string
  why: string
}

/** What is wrong with one element of `<task>.json` (messages; [] when nothing). */
export function validateItem(x: unknown, task: TaskType, tagRule?: TagRule): string[] {
  if (!isObject(x)) return [`not an object (${JSON.stringify(x)?.slice(0, 40)}); ${SHAPE}`]
  const out = keysProblems(x, KEYS, '')
  if ('qa_pair' in x) {
    if (isObject(x.qa_pair)) out.push(...keysProblems(x.qa_pair, QA_KEYS, 'qa_pair.'))
    else out.push(`"qa_pair" must be an object {question, answer}, found ${JSON.stringify(x.qa_pair)?.slice(0, 40)}; ${SHAPE}`)
  }
  if (filled(x.task_type) && x.task_type !== task) {
    const where = isTaskType(x.task_type) ? `move the element to ${tierOf(x.task_type)}/${x.task_type}.json or ` : ''
    out.push(`task_type "${x.task_type}" in the file of ${task}; ${where}set task_type to "${task}"`)
  }
  if (tagRule && filled(x.tag) && x.tag !== tagRule.tag) out.push(`tag "${x.tag}" differs from "${tagRule.tag}" (${tagRule.why}); set tag to "${tagRule.tag}" or move the case to that split`)
  const qa = isObject(x.qa_pair) ? x.qa_pair : {}
  if (filled(qa.question) && filled(qa.answer) && task.startsWith('closed_')) out.push(...closedProblems(task, qa.question, qa.answer))
  return out
}

/** The problems of a closed item's inline options and answer. */
export function closedProblems(task: TaskType, question: string, answer: string): string[] {
  const split = splitOptions(question)
  const [min, max] = OPTION_COUNTS[task]!
  const need = min === max ? `exactly ${min}` : `${min} to ${max}`
  if (!split) {
    if (task === 'closed_presence') {
      return /^(Yes|No)\b/.test(answer) ? [] : [`answer of a presence item without options must start with "Yes" or "No", found "${answer.slice(0, 40)}"; start it with Yes or No, or add the options "A. Yes; B. No"`]
    }
    const letters = [...question.matchAll(/(?:^| |; )([A-F])\. /g)].map((m) => m[1])
    if (letters.length >= 2) return [`options are lettered ${letters.join(', ')}, not consecutively from A; letter them A, B, C... in order`]
    return [`no inline options ("A. ...; B. ...") at the end of the question; ${task} needs ${need}`]
  }
  const opts = split.options
  const out: string[] = []
  if (opts.length < min || opts.length > max) out.push(`${opts.length} options; ${task} needs ${need}: add or remove options`)
  if (task === 'closed_presence' && opts.map((o) => o.text).sort().join('/') !== 'No/Yes') {
    out.push(`presence options must be Yes and No (in any order), found ${opts.map((o) => `"${o.text}"`).join(', ')}; write "A. Yes; B. No" or "A. No; B. Yes"`)
  }
  out.push(...duplicates(opts))
  out.push(...answerProblems(opts, answer))
  return out
}

function duplicates(opts: InlineOption[]): string[] {
  const out: string[] = []
  opts.forEach((o, i) => {
    const first = opts.findIndex((p) => norm(p.text) === norm(o.text))
    if (first < i) out.push(`options ${opts[first].letter} and ${o.letter} have the same text "${o.text}"; make every option distinct`)
  })
  return out
}

function answerProblems(opts: InlineOption[], answer: string): string[] {
  const a = splitAnswer(answer)
  const range = `${opts[0].letter}-${opts[opts.length - 1].letter}`
  if (!a) return [`answer "${answer.slice(0, 40)}" does not start with an option letter and ". "; write "<letter>. <option text>"`]
  const opt = opts.find((o) => o.letter === a.letter)
  if (!opt) return [`answer names option ${a.letter}, but the options are ${range}; name one of them`]
  if (opt.text !== a.text) return [`answer text "${a.text}" differs from option ${a.letter}'s text "${opt.text}"; write "${a.letter}. ${opt.text}"`]
  return []
}

/** Cases found in more than one split: one problem at the first item of each split but the one holding most of the case. */
export function validateCaseSplits(seen: { split: string; file: string; index: number; id: string }[]): Problem[] {
  const byCase = new Map<string, Map<string, { file: string; index: number; n: number }>>()
  for (const s of seen) {
    const splits = byCase.get(s.id) ?? byCase.set(s.id, new Map()).get(s.id)!
    const at = splits.get(s.split)
    if (at) at.n++
    else splits.set(s.split, { file: s.file, index: s.index, n: 1 })
  }
  const out: Problem[] = []
  for (const [id, splits] of byCase) {
    if (splits.size < 2) continue
    const ranked = [...splits].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    const [keep, home] = ranked[0]
    for (const [split, at] of ranked.slice(1)) {
      out.push({ file: at.file, index: at.index, message: `case ${id} also occurs in split ${keep} (${home.file}:${home.index}, ${home.n} items); cases are split by case, never by item: move its ${at.n} item(s) in ${split} to ${keep}` })
    }
  }
  return out
}

/**
 * A `<task>.gold.ndjson` beside a task file: one line per element, in order, with `id`, `caseId`
 * equal to the element's id and, for items with options, `choices` (the option texts) and
 * `correct` (the answer's 0-based index). Free-text presence items need no choices; when a line
 * has them, choices[correct] must say the answer's Yes or No.
 */
export function validateGold(file: string, elements: readonly unknown[], lines: readonly string[]): Problem[] {
  const out: Problem[] = []
  const ids = new Map<string, number>()
  const n = Math.max(lines.length, elements.length)
  for (let i = 0; i < n; i++) {
    const bad = (message: string) => out.push({ file, line: i + 1, message })
    if (i >= lines.length) {
      const id = isObject(elements[i]) ? ` (id ${(elements[i] as { id?: unknown }).id})` : ''
      bad(`missing line for element ${i}${id}; the gold file has one line per element of the task file, in the same order`)
      continue
    }
    if (i >= elements.length) {
      bad(`extra line: the task file has ${elements.length} elements; remove it, or add its element to the task file`)
      continue
    }
    let g: unknown
    try {
      g = JSON.parse(lines[i])
    } catch (err) {
      bad(`not JSON (${(err as Error).message}); write one JSON object per line`)
      continue
    }
    if (!isObject(g)) {
      bad(`not a JSON object; write {id, caseId, ...} per line`)
      continue
    }
    if (!filled(g.id)) bad(`"id" must be the item's own id (a non-empty string), found ${JSON.stringify(g.id)}`)
    else if (ids.has(g.id)) bad(`id "${g.id}" is also on line ${ids.get(g.id)}; give each item its own id`)
    else ids.set(g.id, i + 1)
    const el = elements[i]
    if (!isHoltercareItem(el)) continue // the element's own problems are reported on it
    if (g.caseId !== el.id) bad(`caseId ${JSON.stringify(g.caseId)} differs from element ${i}'s id "${el.id}"; the gold lines follow the task file's order`)
    if (el.task_type.startsWith('closed_')) goldAnswerProblems(g, el, i).forEach(bad)
  }
  return out
}

function goldAnswerProblems(g: Record<string, unknown>, el: HoltercareItem, i: number): string[] {
  const split = splitOptions(el.qa_pair.question)
  const { choices, correct } = g
  const validChoices = Array.isArray(choices) && choices.every((c) => typeof c === 'string')
  const validCorrect = Number.isInteger(correct) && validChoices && (correct as number) >= 0 && (correct as number) < choices.length
  if (!split) {
    if (choices === undefined && correct === undefined) return []
    const yes = /^Yes\b/.test(el.qa_pair.answer) ? 'yes' : 'no'
    if (!validCorrect || norm(choices[correct as number]) !== yes) return [`choices/correct (${JSON.stringify(choices)}, ${JSON.stringify(correct)}) do not say "${yes}" like element ${i}'s answer; fix them or leave them out`]
    return []
  }
  const texts = split.options.map((o) => o.text)
  if (!validChoices) return [`"choices" must be the array of option texts ${JSON.stringify(texts)}, found ${JSON.stringify(choices)?.slice(0, 60)}`]
  if (JSON.stringify(choices) !== JSON.stringify(texts)) return [`choices ${JSON.stringify(choices).slice(0, 80)} differ from element ${i}'s options ${JSON.stringify(texts).slice(0, 80)}; write the option texts in order`]
  const a = splitAnswer(el.qa_pair.answer)
  const want = a ? texts.findIndex((_, k) => split.options[k].letter === a.letter) : -1
  if (!validCorrect) return [`"correct" must be a 0-based index below ${texts.length}, found ${JSON.stringify(correct)}`]
  if (want >= 0 && correct !== want) return [`correct ${correct} (${LETTERS[correct as number]}) but element ${i}'s answer is ${a!.letter} (index ${want}); fix correct or the answer`]
  return []
}
