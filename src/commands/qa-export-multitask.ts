// The ECG multi-task benchmark's part of `pipeline qa export` (layout: src/ecg-multitask/layout.ts):
// its items' label lines per split and task, and each of their excerpts as a WFDB record of its
// own, every lead the run read, the samples read again from the recording (a run keeps only
// rendered inputs, and that benchmark's models read the signal itself). A record's excerpts are
// written once its items have all been seen: the recording is streamed up to its last excerpt,
// holding only the excerpts it is inside, never the whole record. multitask/manifest.json lists
// every file with its size and sha256, and which case each subject number stands for.
import { createHash } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { ecgRecordPath, labelFilePath, labelLine, MULTITASK_DIR } from '../ecg-multitask/layout.ts'
import { writeWfdbRecord } from '../formats/wfdb-writer.ts'
import { DEFAULT_READ_OPTIONS } from '../readers/read-options.ts'
import { readRecordItems } from '../readers/read-record.ts'

export interface MultitaskExportOptions {
  /** The export folder (absolute). */
  out: string
  /** Write the excerpts' WFDB records (false: the label lines only, as `--inputs none`). */
  signals: boolean
  signal: AbortSignal
  warn(message: string): void
}

export interface MultitaskExport {
  /** Takes one of a record's multi-task items (records one after the other). */
  add(q: QaItem): void
  /** Writes the excerpts of the record whose items were all added. */
  endRecord(spec: RecordSpec): Promise<void>
  /** Writes the label files and the manifest; resolves with what was written. */
  finish(): Promise<{ items: number; excerpts: number; files: number }>
}

interface Window {
  n: number
  start: number
  end: number
  startMs: number
  fs?: number
  leads?: Float32Array[]
  labels?: string[]
}

/** Clears what an earlier export left in multitask/ and collects this one. */
export async function createMultitaskExport(o: MultitaskExportOptions): Promise<MultitaskExport> {
  await rm(path.join(o.out, MULTITASK_DIR), { recursive: true, force: true })
  const subjects = new Map<string, number>()
  const numbers = new Map<string, number>()
  const lines = new Map<string, string[]>()
  const files: { path: string; bytes: number; sha256: string }[] = []
  let pending = new Map<string, Window>()
  let items = 0

  const put = async (rel: string, data: string | Buffer) => {
    const buf = typeof data === 'string' ? Buffer.from(data) : data
    await mkdir(path.dirname(path.join(o.out, rel)), { recursive: true })
    await writeFile(path.join(o.out, rel), buf)
    files.push({ path: rel, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') })
  }

  return {
    add(q) {
      if (!subjects.has(q.caseId)) subjects.set(q.caseId, subjects.size + 1)
      let n = numbers.get(q.excerpt.id)
      if (n === undefined) {
        n = numbers.size + 1
        numbers.set(q.excerpt.id, n)
        pending.set(q.excerpt.id, { n, start: q.excerpt.startSample, end: q.excerpt.endSample, startMs: q.excerpt.startMs })
      }
      const file = labelFilePath(q.split, q.taskType)
      const list = lines.get(file) ?? []
      lines.set(file, list)
      list.push(JSON.stringify(labelLine(q, subjects.get(q.caseId)!, ecgRecordPath(n))))
      items++
    },

    async endRecord(spec) {
      const windows = [...pending.values()].sort((a, b) => a.start - b.start)
      pending = new Map()
      if (!o.signals || !windows.length) return
      const last = Math.max(...windows.map((w) => w.end))
      const ctx = { signal: o.signal, warn: (_code: string, message: string) => o.warn(`record ${spec.id}: ${message}`) }
      let next = 0 // windows before it are written
      try {
        for await (const item of readRecordItems(spec, { ...DEFAULT_READ_OPTIONS, annotations: false }, ctx)) {
          if (item.kind !== 'block') continue
          const from = item.startSample
          const to = from + (item.leads[0]?.length ?? 0)
          for (let k = next; k < windows.length && windows[k].start < to; k++) {
            const w = windows[k]
            if (w.end <= from) continue
            // The excerpt's sample and its time must agree at the rate the recording reads at now.
            if (Math.abs((1000 * w.start) / item.fs - w.startMs) > 1000 / item.fs + 1) throw new PipelineError('E_INPUT_RUN', `record ${spec.id}: its recording ${spec.path} now reads at ${item.fs} Hz, which puts the excerpt at sample ${w.start} at ${Math.round((1000 * w.start) / item.fs)} ms, not at ${w.startMs} ms as the run made it; export from a run of the recording as it is`, { file: spec.path })
            w.fs = item.fs
            w.leads ??= item.leads.map(() => new Float32Array(w.end - w.start).fill(Number.NaN))
            w.labels ??= item.labels
            const a = Math.max(from, w.start)
            const b = Math.min(to, w.end)
            item.leads.forEach((lead, j) => w.leads![j].set(lead.subarray(a - from, b - from), a - w.start))
          }
          while (next < windows.length && windows[next].end <= to) await writeWindow(windows[next++])
          if (to >= last) break
        }
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new PipelineError('E_FILE_MISSING', `the ECG multi-task excerpts of record ${spec.id} are read again from its recording ${spec.path}, which is not there; put it back where the run read it, or export with --inputs none`, { file: spec.path }, { cause })
        }
        throw cause
      }
      // Excerpts past the end of what can be read now (a recording cut short since the run).
      for (const w of windows.slice(next)) {
        if (!w.leads) throw new PipelineError('E_TRUNCATED', `record ${spec.id}: its recording ${spec.path} now ends before the excerpt at sample ${w.start}; export from a run of the recording as it is`, { file: spec.path })
        await writeWindow(w)
      }
    },

    async finish() {
      for (const file of [...lines.keys()].sort()) await put(file, lines.get(file)!.join('\n') + '\n')
      const manifest = {
        format: 'ECG multi-task benchmark records: one JSON line per item {subject_id, ecg_path, <task>, id}; ecg_path is a WFDB record relative to the export folder',
        subjects: Object.fromEntries([...subjects].map(([c, n]) => [n, c])),
        files: [...files].sort((x, y) => (x.path < y.path ? -1 : 1)),
      }
      if (items) await writeFile(path.join(o.out, MULTITASK_DIR, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
      return { items, excerpts: numbers.size, files: files.length }
    },
  }

  async function writeWindow(w: Window): Promise<void> {
    const rel = ecgRecordPath(w.n)
    const name = path.basename(rel)
    const rec = writeWfdbRecord(name, w.fs!, w.leads!.map((samples, j) => ({ label: w.labels![j], samples })))
    await put(`${rel}.hea`, rec.header)
    await put(`${rel}.dat`, rec.dat)
    w.leads = undefined
  }
}
