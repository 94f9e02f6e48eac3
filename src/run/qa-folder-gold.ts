// The QA items of an exported folder (src/run/input-qa-folder.ts), one per element of each task
// file paired with the line of the same number in the gold file beside it: the export writes them
// together, so a count or a case that differs means the two were edited apart, and the item cannot
// be rebuilt; that is an error naming the file and line (`pipeline qa validate` lists them all).
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import type { TaskFileRead } from '../holtercare/folder.ts'
import type { HoltercareItem } from '../holtercare/format.ts'
import { isHoltercareItem } from '../holtercare/validate.ts'
import type { GoldPlace } from './qa-folder-inputs.ts'

/** One item of the folder: its public element, its parsed gold line and where that line is. */
export interface QaEntry {
  id: string
  recordId: string
  excerpt: QaItem['excerpt']
  element: HoltercareItem
  gold: Record<string, unknown>
  place: GoldPlace
  /** Bytes of the gold line (with its line break). */
  bytes: number
}

// A record id names folders of the new run (.parts/<id>, media/<id>): as a dataset's ids.
const RECORD_ID = /^(?!\.+$)[A-Za-z0-9._-]+$/

/** The items of the task files read from `dir`, in file order. */
export function readQaGold(dir: string, files: readonly TaskFileRead[]): QaEntry[] {
  const out: QaEntry[] = []
  const seen = new Map<string, string>()
  const fix = `export the run again with pipeline qa export (pipeline qa validate ${dir} lists every such problem)`
  for (const f of files) {
    const taskFile = path.join(dir, f.file)
    if (!Array.isArray(f.data)) throw new PipelineError('E_INPUT_RUN', `${taskFile} is not a JSON array of elements${f.jsonError ? ` (${f.jsonError})` : ''}; ${fix}`, { file: taskFile })
    if (!f.gold) throw new PipelineError('E_INPUT_RUN', `${taskFile} has no gold file ${path.basename(f.file, '.json')}.gold.ndjson beside it: an exported folder's items are rebuilt from their gold lines (ids, excerpts, inputs); ${fix}`, { file: taskFile })
    const goldFile = path.join(dir, f.gold.file)
    const lines = f.gold.lines
    if (lines.length !== f.data.length) {
      const line = Math.min(lines.length, f.data.length) + 1
      const what = lines.length > f.data.length ? `line ${line} has no element: the task file has ${f.data.length} elements, the gold file ${lines.length} lines` : `element ${line - 1} of ${f.file} has no gold line: the task file has ${f.data.length} elements, the gold file ${lines.length} lines`
      throw new PipelineError('E_INPUT_RUN', `${goldFile}:${line}: ${what}; the two were edited apart and the items cannot be rebuilt: ${fix}`, { file: goldFile, line })
    }
    for (const [i, el] of f.data.entries()) {
      const line = i + 1
      const place = { file: goldFile, line }
      const bad = (message: string) => new PipelineError('E_INPUT_RUN', `${goldFile}:${line}: ${message}; ${fix}`, { file: goldFile, line })
      if (!isHoltercareItem(el) || el.task_type !== f.task) throw new PipelineError('E_INPUT_RUN', `${taskFile}: element ${i} is not {id, task_type: "${f.task}", qa_pair: {question, answer}, tag}; ${fix}`, { file: taskFile, index: i })
      let gold: unknown
      try {
        gold = JSON.parse(lines[i])
      } catch (cause) {
        throw new PipelineError('E_INPUT_RUN', `${goldFile}:${line} is not JSON (${(cause as Error).message}); ${fix}`, { file: goldFile, line }, { cause })
      }
      if (typeof gold !== 'object' || gold === null || Array.isArray(gold)) throw bad('not a JSON object {id, caseId, recordId, split, task_type, excerpt, ...}')
      const g = gold as Record<string, unknown>
      if (g.caseId !== el.id || g.split !== el.tag || g.task_type !== f.task) {
        throw bad(`the gold line (case ${JSON.stringify(g.caseId)}, split ${JSON.stringify(g.split)}, task ${JSON.stringify(g.task_type)}) is not element ${i}'s of ${f.file} (case "${el.id}", split "${el.tag}", task "${f.task}"): the two files were edited apart`)
      }
      if (typeof g.id !== 'string' || g.id === '') throw bad(`"id" must be the item's id, found ${JSON.stringify(g.id)}`)
      if (typeof g.recordId !== 'string' || !RECORD_ID.test(g.recordId)) throw bad(`"recordId" must be a record id (letters, digits, ".", "_" and "-"), found ${JSON.stringify(g.recordId)}`)
      if (!isExcerpt(g.excerpt)) throw bad(`"excerpt" must be {id, set, startSample, endSample, startMs, endMs}, found ${JSON.stringify(g.excerpt)?.slice(0, 80)}`)
      const first = seen.get(g.id)
      if (first) throw bad(`item ${g.id} is also at ${first}; give each item its own id`)
      seen.set(g.id, `${goldFile}:${line}`)
      out.push({ id: g.id, recordId: g.recordId, excerpt: g.excerpt, element: el, gold: g, place, bytes: Buffer.byteLength(lines[i]) + 1 })
    }
  }
  return out
}

function isExcerpt(x: unknown): x is QaItem['excerpt'] {
  const e = x as Record<string, unknown>
  return typeof x === 'object' && x !== null && typeof e.id === 'string' && ['startSample', 'endSample', 'startMs', 'endMs'].every((k) => Number.isFinite(e[k]))
}
