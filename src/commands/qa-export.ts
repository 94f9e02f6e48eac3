// `pipeline qa export <runDir> <outDir>`: a run's committed QA items in the public Holtercare
// layout (<split>/<tier>/<task_type>.json, JSON arrays like the public release's), each task file
// with its gold lines beside it (<task_type>.gold.ndjson, same order), and the items' inputs under
// inputs/ (text ranges cut into files of their own, strips and clips copied or linked) with
// inputs/manifest.json listing every file with its size and sha256. Items are read record by
// record from the committed ranges of the run (src/run/input-run.ts), so a run still going
// exports what it has finished; the output is the same bytes for the same run. Having seen every
// item, it warns of a split that is empty or lacks a task type or an event the others have
// (src/qa/split-coverage.ts), which the qa stage, one record at a time, cannot see.
// The ECG multi-task benchmark's items are not in the public layout: they go under multitask/
// in that benchmark's own record format (qa-export-multitask.ts).
import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import { openInputRun } from '../run/input-run.ts'
import { TIERS, tierOf, type TaskType } from '../holtercare/format.ts'
import { exportedFolder, exportedPath, exportedTextPath, goldLine, publicElement, type ExportedInputs } from '../holtercare/layout.ts'
import { createSplitCoverage, goldEvents } from '../qa/split-coverage.ts'
import { taskModule } from '../qa/tasks/index.ts'
import { count } from './plural.ts'
import { createMultitaskExport } from './qa-export-multitask.ts'

export interface QaExportArgs {
  runDir: string
  outDir: string
  inputs: 'copy' | 'link' | 'none'
  out: NodeJS.WritableStream
  /** Where the warnings go (default: out). */
  err?: NodeJS.WritableStream
  signal: AbortSignal
}

/** Exports a run's QA; resolves with the exit code. */
export async function qaExportCommand(a: QaExportArgs): Promise<number> {
  const run = await openInputRun(path.resolve(a.runDir))
  const out = path.resolve(a.outDir)
  if (out === run.dir || out.startsWith(run.dir + path.sep)) throw new PipelineError('E_USAGE', `the export folder ${a.outDir} is inside the run ${a.runDir}; export to a folder of its own`)
  const files = new Map<string, { elements: string[]; gold: string[] }>()
  const written = new Map<string, { bytes: number; sha256: string; of: string }>()
  for (const split of ['train', 'valid', 'test', 'inputs']) await rm(path.join(out, split), { recursive: true, force: true })
  let items = 0
  const coverage = createSplitCoverage(['train', 'valid', 'test'])
  const warn = (w: string) => (a.err ?? a.out).write(`warning: ${w}\n`)
  const multitask = await createMultitaskExport({ out, signals: a.inputs !== 'none', signal: a.signal, warn })
  const folders = new Map<string, string>()
  for (const record of run.records) {
    for await (const it of run.items(record, new Set(['qa']), run.dir, a.signal)) {
      if (it.kind !== 'qa') continue
      const q = it as QaItem
      if (taskModule(q.taskType)?.tier === 'Multitask') {
        multitask.add(q)
        coverage.add(q.split, q.taskType, [])
        items++
        continue
      }
      const key = `${q.split}/${tierOf(q.taskType as TaskType)}/${q.taskType}`
      const f = files.get(key) ?? { elements: [], gold: [] }
      files.set(key, f)
      if (!folders.has(q.recordId)) folders.set(q.recordId, exportedFolder(folders.size + 1))
      const inputs = a.inputs === 'none' ? null : await exportInputs(q, folders.get(q.recordId)!, run.dir, out, a.inputs, written)
      f.elements.push(JSON.stringify(publicElement(q), null, 2).replace(/^/gm, '  '))
      f.gold.push(JSON.stringify(goldLine(q, inputs)))
      coverage.add(q.split, q.taskType, goldEvents(q.gold))
      items++
    }
    await multitask.endRecord(record.spec)
  }
  if (items === 0) throw new PipelineError('E_USAGE', `${a.runDir} has no committed qa items; run a dataset whose stages end with qa (pipelines/bench-mitdb.yaml) first`, { file: run.dir })
  for (const [key, f] of [...files].sort(([x], [y]) => order(x) - order(y) || (x < y ? -1 : 1))) {
    await mkdir(path.dirname(path.join(out, key)), { recursive: true })
    await writeFile(path.join(out, `${key}.json`), `[\n${f.elements.join(',\n')}\n]\n`)
    await writeFile(path.join(out, `${key}.gold.ndjson`), f.gold.join('\n') + '\n')
  }
  if (written.size) {
    const list = [...written].sort(([x], [y]) => (x < y ? -1 : 1)).map(([p, w]) => ({ path: p, ...w }))
    const manifest = { run: path.basename(run.dir), configHash: run.manifest.configHash, inputs: a.inputs, files: list }
    await writeFile(path.join(out, 'inputs', 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  }
  const mt = await multitask.finish()
  const mtSaid = mt.items ? `; ${count(mt.items, 'ECG multi-task item')} of ${count(mt.excerpts, 'excerpt')} under multitask/ (${count(mt.files, 'file')})` : ''
  a.out.write(`exported ${count(items, 'item')} of ${count(run.records.length, 'record')} to ${a.outDir}: ${files.size} task files${written.size ? `, ${count(written.size, 'input file')} under inputs/` : ''}${mtSaid}\n`)
  for (const w of coverage.warnings()) warn(w)
  return 0
}

// Splits in the order train, valid, test; tiers in the paper's order.
function order(key: string): number {
  const [split, tier] = key.split('/')
  return ['train', 'valid', 'test'].indexOf(split) * 10 + TIERS.indexOf(tier as (typeof TIERS)[number])
}

async function exportInputs(q: QaItem, folder: string, runDir: string, out: string, how: 'copy' | 'link', written: Map<string, { bytes: number; sha256: string; of: string }>): Promise<ExportedInputs> {
  const files: ExportedInputs = {}
  const t = q.inputs.text
  if (t) {
    files.text = exportedTextPath(q, folder)
    if (!written.has(files.text)) {
      const fh = await open(path.join(runDir, t.path), 'r')
      try {
        const buf = Buffer.alloc(t.bytes)
        await fh.read(buf, 0, t.bytes, t.offset)
        await place(out, files.text, buf)
        written.set(files.text, { bytes: buf.length, sha256: sha(buf), of: q.excerpt.id })
      } finally {
        await fh.close()
      }
    }
  }
  const media = async (p: string) => {
    const rel = exportedPath(p, q.recordId, folder)
    if (!written.has(rel)) {
      const src = path.join(runDir, p)
      const buf = await readFile(src)
      await mkdir(path.dirname(path.join(out, rel)), { recursive: true })
      if (how === 'link') await symlink(path.relative(path.dirname(path.join(out, rel)), src), path.join(out, rel))
      else await writeFile(path.join(out, rel), buf) // the bytes just read for the hash
      written.set(rel, { bytes: buf.length, sha256: sha(buf), of: q.excerpt.id })
    }
    return rel
  }
  if (q.inputs.images) files.images = await Promise.all(q.inputs.images.paths.map(media))
  if (q.inputs.video) files.video = await media(q.inputs.video.path)
  return files
}

async function place(out: string, rel: string, buf: Buffer): Promise<void> {
  await mkdir(path.dirname(path.join(out, rel)), { recursive: true })
  await writeFile(path.join(out, rel), buf)
}

function sha(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex')
}
