// Reads a Holtercare-format folder (for `pipeline qa validate` and `qa audit`, and for an exported
// folder as the input of a run, src/run/input-qa-folder.ts), either a folder of splits
// (<dir>/<split>/<tier>/<task_type>.json) or one split (<dir>/<tier>/...): it is one split when it holds a tier folder. Task files are small JSON arrays (a few MB), read
// whole. What does not belong to the layout is returned as problems, with how to fix them; an
// `inputs` folder (the export's input files) is left alone at the top and in a split, and a
// `multitask` folder (the ECG multi-task benchmark's records an export writes beside the splits)
// at the top.
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { TIERS, isTaskType, tierOf, type HoltercareItem, type TaskType, type Tier } from './format.ts'
import { isHoltercareItem, type Problem } from './validate.ts'

const IGNORED = 'inputs'
const MULTITASK = 'multitask'
const TIER_LIST = TIERS.join(', ')

/** One task file: its parsed JSON (undefined when it is not JSON) and its gold lines, if any. */
export interface TaskFileRead {
  /** Path relative to the folder given, `/`-separated. */
  file: string
  split: string
  task: TaskType
  data?: unknown
  jsonError?: string
  gold?: { file: string; lines: string[] }
}

export interface FolderRead {
  dir: string
  layout: 'splits' | 'split'
  splits: string[]
  files: TaskFileRead[]
  /** Layout problems: unknown files and folders, task files in the wrong tier, empty splits. */
  problems: Problem[]
  /** Whether a folder of splits has a multitask folder at the top. */
  multitask?: boolean
}

/** Reads every task and gold file under `dir`; E_FILE_MISSING when there is no such folder. */
export async function readHoltercareTree(dir: string): Promise<FolderRead> {
  const st = await stat(dir).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code === 'ENOENT') throw new PipelineError('E_FILE_MISSING', `no folder ${dir}; give a Holtercare-format folder (<split>/<tier>/<task_type>.json, or one split's <tier>/<task_type>.json)`, { file: dir }, { cause })
    throw new PipelineError('E_IO', `cannot read ${dir}: ${cause.message}`, { file: dir }, { cause })
  })
  if (!st.isDirectory()) throw new PipelineError('E_USAGE', `${dir} is a file; give a Holtercare-format folder`, { file: dir })
  const top = await entries(dir)
  const read: FolderRead = { dir, layout: top.some((e) => e.dir && isTier(e.name)) ? 'split' : 'splits', splits: [], files: [], problems: [] }
  if (read.layout === 'split') {
    await readSplit(read, path.basename(path.resolve(dir)), '')
    return read
  }
  for (const e of top) {
    if (e.name === IGNORED && e.dir) continue
    if (e.name === MULTITASK && e.dir) {
      read.multitask = true
      continue
    }
    if (e.dir) await readSplit(read, e.name, `${e.name}/`)
    else read.problems.push({ file: e.name, message: `not a split folder; a folder of splits holds only <split>/<tier>/<task_type>.json (tiers ${TIER_LIST}): move or remove it` })
  }
  if (!read.splits.length && !read.multitask) read.problems.push({ file: '.', message: `no split folder and no tier folder (${TIER_LIST}); give a folder of splits or one split's folder` })
  return read
}

async function readSplit(read: FolderRead, split: string, rel: string): Promise<void> {
  read.splits.push(split)
  const before = read.files.length
  for (const e of await entries(path.join(read.dir, rel))) {
    const at = `${rel}${e.name}`
    if (e.dir && isTier(e.name)) await readTier(read, split, e.name, `${at}/`)
    else if (!(e.dir && e.name === IGNORED)) read.problems.push({ file: at, message: `unknown ${e.dir ? 'folder' : 'file'} in a split; a split holds the tier folders ${TIER_LIST}: move or remove it` })
  }
  if (read.files.length === before) read.problems.push({ file: rel.slice(0, -1) || '.', message: `split ${split} has no task file; add <tier>/<task_type>.json files or remove the folder` })
}

async function readTier(read: FolderRead, split: string, tier: Tier, rel: string): Promise<void> {
  const list = await entries(path.join(read.dir, rel))
  const names = new Set(list.map((e) => e.name))
  for (const e of list) {
    const at = `${rel}${e.name}`
    const task = /^(.*?)(\.gold\.ndjson|\.json)$/.exec(e.name)
    const known = !e.dir && task && isTaskType(task[1]) ? (task[1] as TaskType) : null
    if (!known) {
      read.problems.push({ file: at, message: `unknown ${e.dir ? 'folder' : 'file'}; ${tier} holds only <task_type>.json (and <task_type>.gold.ndjson) of its tasks: rename, move or remove it` })
    } else if (tierOf(known) !== tier) {
      read.problems.push({ file: at, message: `${known} belongs to ${tierOf(known)}, not ${tier}; move it to ${rel.slice(0, -tier.length - 1)}${tierOf(known)}/${e.name}` })
    } else if (task![2] === '.json') {
      read.files.push(await readTask(read.dir, at, split, known, names.has(`${known}.gold.ndjson`)))
    } else if (!names.has(`${known}.json`)) {
      read.problems.push({ file: at, message: `gold file without its task file ${known}.json; add the task file or remove the gold file` })
    }
  }
}

async function readTask(dir: string, file: string, split: string, task: TaskType, hasGold: boolean): Promise<TaskFileRead> {
  const out: TaskFileRead = { file, split, task }
  const text = await readText(dir, file)
  try {
    out.data = JSON.parse(text)
  } catch (err) {
    out.jsonError = (err as Error).message
  }
  if (hasGold) {
    const gold = file.replace(/\.json$/, '.gold.ndjson')
    const lines = (await readText(dir, gold)).split('\n')
    if (lines[lines.length - 1] === '') lines.pop()
    out.gold = { file: gold, lines }
  }
  return out
}

async function readText(dir: string, rel: string): Promise<string> {
  return readFile(path.join(dir, rel), 'utf8').catch((cause: Error) => {
    throw new PipelineError('E_IO', `cannot read ${rel}: ${cause.message}`, { file: path.join(dir, rel) }, { cause })
  })
}

async function entries(dir: string): Promise<{ name: string; dir: boolean }[]> {
  const list = await readdir(dir, { withFileTypes: true }).catch((cause: Error) => {
    throw new PipelineError('E_IO', `cannot list ${dir}: ${cause.message}`, { file: dir }, { cause })
  })
  return list.map((e) => ({ name: e.name, dir: e.isDirectory() })).sort((a, b) => a.name.localeCompare(b.name))
}

const isTier = (name: string): name is Tier => (TIERS as readonly string[]).includes(name)

/** One well-formed element with where it came from. */
export interface FolderItem {
  split: string
  file: string
  index: number
  item: HoltercareItem
}

/** The well-formed elements under `dir` (the audit's input), with how many elements were not. */
export async function readHoltercareFolder(dir: string): Promise<{ layout: FolderRead['layout']; splits: string[]; files: number; items: FolderItem[]; skipped: number }> {
  const read = await readHoltercareTree(dir)
  const items: FolderItem[] = []
  let skipped = 0
  for (const f of read.files) {
    if (!Array.isArray(f.data)) continue
    f.data.forEach((item: unknown, index) => {
      if (isHoltercareItem(item) && item.task_type === f.task) items.push({ split: f.split, file: f.file, index, item })
      else skipped++
    })
  }
  return { layout: read.layout, splits: read.splits, files: read.files.length, items, skipped }
}
