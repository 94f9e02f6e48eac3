// An exported QA folder (what `pipeline qa export <run> <out>` writes, src/commands/qa-export.ts)
// as the input of a run, with the interface of a run directory (input-run.ts; design.md "Phases
// are runs over runs"), so models are evaluated on a benchmark as it was handed out. It is told by
// inputs/manifest.json with no manifest.json beside it. Its records are the recordIds of its gold
// lines; each streams its QA items, rebuilt from the public element and the gold line beside it
// (same order, one line per element), by excerpt start then id, with the watermarks between
// excerpts, their input files relative to the new run (qa-folder-inputs.ts). The task files are
// small JSON arrays read whole once, when the folder is opened (src/holtercare/folder.ts);
// input files are stat'ed and their headers read as a record streams.
// A record's `at` is inputs/manifest.json's mtime (an export writes it last), and the file that
// stands for it on resume counts its gold lines' and input files' bytes: an export made again
// shows as a changed input.
import { readFile, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { AnyItem, Item, QaItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { watermark } from '../core/watermark.ts'
import { readHoltercareTree } from '../holtercare/folder.ts'
import { tierOf, type HoltercareItem } from '../holtercare/format.ts'
import { posixRelative } from '../sinks/posix-path.ts'
import type { InputRecord, InputRun } from './input-run.ts'
import type { Manifest } from './manifest.ts'
import { readQaGold, type QaEntry } from './qa-folder-gold.ts'
import { readQaInputs } from './qa-folder-inputs.ts'
import { reviveItem } from './revive-item.ts'

/** The export's list of its input files, which tells an exported folder. */
export const EXPORT_MANIFEST = 'inputs/manifest.json'

interface ExportManifest {
  run?: string
  configHash?: string
  inputs?: string
  files?: { path: string; bytes: number }[]
}

/** Opens `dir` (absolute, no manifest.json) as an exported QA folder; null when it is not one. */
export async function openQaFolder(dir: string): Promise<InputRun | null> {
  const file = path.join(dir, EXPORT_MANIFEST)
  const info = await stat(file).catch(() => null)
  if (!info) {
    const top = await readdir(dir).catch(() => [] as string[])
    if (!top.some((n) => ['train', 'valid', 'test'].includes(n))) return null
    throw new PipelineError('E_INPUT_RUN', `${dir} is an exported QA folder without its input files (no ${EXPORT_MANIFEST}: exported with --inputs none); export the run again with --inputs copy (or link) to evaluate models on it`, { file: dir, field: 'input.run' })
  }
  const exported = await readExportManifest(file)
  const read = await readHoltercareTree(dir)
  const byRecord = new Map<string, QaEntry[]>()
  for (const e of readQaGold(dir, read.files)) {
    const list = byRecord.get(e.recordId) ?? []
    byRecord.set(e.recordId, list)
    list.push(e)
  }
  if (byRecord.size === 0) throw new PipelineError('E_INPUT_RUN', `${dir} holds no QA item (no gold line under <split>/<tier>/); export a run with qa items into it again`, { file: dir, field: 'input.run' })
  // Input folders are numbered, not named after their records: the gold lines say whose each is.
  const recordOf = new Map<string, string>()
  for (const [id, list] of byRecord) for (const e of list) for (const p of inputPathsOf(e.gold.inputs)) recordOf.set(p.split('/')[1], id)
  const inputBytes = new Map<string, number>()
  for (const f of exported.files ?? []) {
    const folder = f.path.split('/')[1]
    const id = recordOf.get(folder) ?? folder
    inputBytes.set(id, (inputBytes.get(id) ?? 0) + (Number(f.bytes) || 0))
  }
  const at = info.mtime.toISOString()
  const byId = new Map<string, InputRecord>()
  for (const id of [...byRecord.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    const list = byRecord.get(id)!
    // No recording is read in a run over a run: the format is a placeholder; the case keeps the split.
    const spec: RecordSpec = { id, path: dir, format: 'wfdb', annotator: false, annotatorExplicit: false, patient: { id: list[0].gold.caseId as string } }
    const seconds = Math.max(...list.map((e) => e.excerpt.endMs)) / 1000
    const size = list.reduce((n, e) => n + e.bytes, inputBytes.get(id) ?? 0)
    byId.set(id, { spec, seconds, at, ranges: {}, counts: { qa: list.length }, probe: { path: `${file}#${id}`, size, mtimeMs: info.mtimeMs } })
  }
  const records = [...byId.values()]
  const manifest: Manifest = {
    tool: { name: 'pipeline qa export', version: '', node: '' },
    name: exported.run ?? path.basename(dir),
    datasetFile: '',
    configHash: exported.configHash ?? '',
    stages: [],
    inputs: records.map((r) => ({ recordId: r.spec.id, files: [r.probe!] })),
    records: records.map((r) => r.spec),
    config: { export: exported.run, inputs: exported.inputs },
    sessions: [],
  }
  return {
    dir,
    manifest,
    records,
    record: (id) => byId.get(id),
    locked: false,
    kinds: ['qa'],
    items: (record, kinds, toRunDir, signal) => replay(dir, byRecord.get(record.spec.id) ?? [], kinds, toRunDir, signal),
  }
}

async function* replay(dir: string, entries: QaEntry[], kinds: ReadonlySet<string>, toRunDir: string, signal?: AbortSignal): AsyncGenerator<Item | AnyItem> {
  const other = [...kinds].filter((k) => k !== 'qa')
  if (other.length) throw new PipelineError('E_INPUT_RUN', `${dir} is an exported QA folder: it holds qa items only, not ${other.join(', ')}; name kinds: [qa] in input, or the run it was exported from`, { file: dir, field: 'input.kinds' })
  if (!kinds.has('qa')) return
  const list = [...entries].sort((a, b) => a.excerpt.startSample - b.excerpt.startSample || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  // The items of an excerpt share its inputs: read once per distinct files and sizes.
  const inputs = new Map<string, QaItem['inputs']>()
  const revive = reviveItem(posixRelative(toRunDir, dir))
  // Nothing positioned (a qa item: at its end) before the lowest end still to come.
  const ends = list.map((e) => e.excerpt.endSample)
  for (let i = ends.length - 2; i >= 0; i--) ends[i] = Math.min(ends[i], ends[i + 1])
  let sent = -Infinity
  for (const [i, e] of list.entries()) {
    signal?.throwIfAborted()
    const key = JSON.stringify([e.gold.inputs, e.gold.inputSizes])
    let got = inputs.get(key)
    if (!got) inputs.set(key, (got = await readQaInputs(dir, e.gold.inputs, e.gold.inputSizes, e.place, signal)))
    yield revive(qaItem(e.element, e, got) as unknown as AnyItem)
    const next = list[i + 1]
    if (next && next.excerpt.id !== e.excerpt.id && ends[i + 1] > sent) yield watermark(e.recordId, (sent = ends[i + 1]))
  }
}

// The item as the qa stage wrote it (field order of QaItem); `from` is empty: the render items
// it was made from are not part of an export.
function qaItem(el: HoltercareItem, e: QaEntry, inputs: QaItem['inputs']): QaItem {
  const { id, caseId, recordId, split, task_type, excerpt, inputs: _files, inputSizes: _sizes, evidenceBeats, ...gold } = e.gold
  return {
    kind: 'qa', id: id as string, recordId: recordId as string, caseId: caseId as string, split: split as QaItem['split'],
    taskType: task_type as string, tier: tierOf(el.task_type), excerpt: excerpt as QaItem['excerpt'],
    question: el.qa_pair.question, answer: el.qa_pair.answer,
    gold: { ...gold, evidenceBeats: Array.isArray(evidenceBeats) ? (evidenceBeats as number[]) : [] },
    inputs, from: [], startSample: e.excerpt.startSample, endSample: e.excerpt.endSample,
  }
}

async function readExportManifest(file: string): Promise<ExportManifest> {
  try {
    const m = JSON.parse(await readFile(file, 'utf8')) as unknown
    if (typeof m === 'object' && m !== null && !Array.isArray(m)) return m as ExportManifest
  } catch (cause) {
    throw new PipelineError('E_INPUT_RUN', `${file} is not valid JSON (${(cause as Error).message}); export the run again with pipeline qa export`, { file }, { cause })
  }
  throw new PipelineError('E_INPUT_RUN', `${file} is not a JSON object {run, configHash, inputs, files}; export the run again with pipeline qa export`, { file })
}

function inputPathsOf(inputs: unknown): string[] {
  const i = (inputs ?? {}) as { text?: unknown; images?: unknown; video?: unknown }
  return [i.text, ...(Array.isArray(i.images) ? i.images : []), i.video].filter((p): p is string => typeof p === 'string')
}
