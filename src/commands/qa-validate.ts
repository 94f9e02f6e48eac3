// `pipeline qa validate <dir>`: checks a Holtercare-format folder (a folder of splits or one
// split) and prints one line per problem, `file:index: what is wrong; how to fix`, then
// `N files, N items: N problems`. The checks are docs/qa-checks.md; the reading is
// src/holtercare/folder.ts and the rules src/holtercare/validate.ts. In a folder of splits
// it then warns, without failing, of a split lacking a task type the others have, or an event
// where gold files say what items are about (src/qa/split-coverage.ts): a public folder has task
// types only. The multitask folder an export writes beside the splits is checked too
// (qa-validate-multitask.ts).
import { readHoltercareTree, type FolderRead } from '../holtercare/folder.ts'
import { createSplitCoverage, goldEvents } from '../qa/split-coverage.ts'
import { formatProblem, validateCaseSplits, validateGold, validateItem, type Problem, type TagRule } from '../holtercare/validate.ts'
import { count } from './plural.ts'
import { validateMultitaskFolder } from './qa-validate-multitask.ts'

export interface QaValidateOptions {
  dir: string
  out: NodeJS.WritableStream
  /** Where the warnings go (default: out). */
  err?: NodeJS.WritableStream
}

/** What validation found: the problems in file order, and how much was checked. */
export interface ValidationResult {
  files: number
  items: number
  problems: Problem[]
}

/** Prints the problems of a folder and the summary; resolves with 0 when there is none, else 1. */
export async function qaValidateCommand(opts: QaValidateOptions): Promise<number> {
  const read = await readHoltercareTree(opts.dir)
  const result = validateFolder(read)
  if (read.multitask) {
    const mt = await validateMultitaskFolder(read.dir)
    result.files += mt.files
    result.items += mt.items
    result.problems.push(...mt.problems)
  }
  for (const p of result.problems) opts.out.write(formatProblem(p) + '\n')
  opts.out.write(`${count(result.files, 'file')}, ${count(result.items, 'item')}: ${count(result.problems.length, 'problem')}\n`)
  for (const w of splitWarnings(read)) (opts.err ?? opts.out).write(`warning: ${w}\n`)
  return result.problems.length ? 1 : 0
}

/** What the splits of a folder of splits lack that the others have (pure); none for one split alone. */
export function splitWarnings(read: FolderRead): string[] {
  if (read.layout !== 'splits' || read.splits.length < 2) return []
  // Splits join as their items come: an empty split folder is already a problem (readHoltercareTree's).
  const coverage = createSplitCoverage([])
  for (const f of read.files) {
    if (!Array.isArray(f.data)) continue
    // A gold line is read only when it is an object; a bad one is already a problem of its own.
    const gold = f.gold?.lines.map(lineObject) ?? []
    f.data.forEach((_, i) => coverage.add(f.split, f.task, gold[i] ? goldEvents(gold[i]) : []))
  }
  return coverage.warnings()
}

/** Applies every rule to a folder already read (pure). */
export function validateFolder(read: FolderRead): ValidationResult {
  const problems: Problem[] = [...read.problems]
  const seen: { split: string; file: string; index: number; id: string }[] = []
  let items = 0
  let files = 0
  const tags = tagRules(read)
  for (const f of read.files) {
    files++
    if (f.jsonError !== undefined || !Array.isArray(f.data)) {
      const found = f.jsonError !== undefined ? `not JSON (${f.jsonError})` : `JSON ${typeName(f.data)}, not an array`
      problems.push({ file: f.file, message: `${found}; a task file is one JSON array of elements {id, task_type, qa_pair: {question, answer}, tag}` })
      if (f.gold) files++
      continue
    }
    items += f.data.length
    f.data.forEach((x, index) => {
      for (const message of validateItem(x, f.task, tags.get(f.split))) problems.push({ file: f.file, index, message })
      const id = (x as { id?: unknown } | null)?.id
      if (typeof id === 'string' && id.trim()) seen.push({ split: f.split, file: f.file, index, id })
    })
    if (f.gold) {
      files++
      problems.push(...validateGold(f.gold.file, f.data, f.gold.lines))
    }
  }
  if (read.layout === 'splits') problems.push(...validateCaseSplits(seen))
  return { files, items, problems }
}

// In a folder of splits the tag is the split folder's name; a split given alone has no name to
// trust (any folder can hold one), so its elements must share one tag: the most common one.
function tagRules(read: FolderRead): Map<string, TagRule> {
  const rules = new Map<string, TagRule>()
  if (read.layout === 'splits') {
    for (const s of read.splits) rules.set(s, { tag: s, why: `the split folder's name` })
    return rules
  }
  const counts = new Map<string, number>()
  for (const f of read.files) {
    if (!Array.isArray(f.data)) continue
    for (const x of f.data) {
      const tag = (x as { tag?: unknown } | null)?.tag
      if (typeof tag === 'string' && tag.trim()) counts.set(tag, (counts.get(tag) ?? 0) + 1)
    }
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]
  if (top && read.splits[0] !== undefined) rules.set(read.splits[0], { tag: top[0], why: `the tag of ${top[1]} of this split's elements; a split has one tag` })
  return rules
}

function lineObject(line: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(line) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const typeName = (x: unknown) => (x === null ? 'null' : typeof x === 'object' ? 'object' : typeof x)
