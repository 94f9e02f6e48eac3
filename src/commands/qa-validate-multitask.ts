// `pipeline qa validate`'s check of the multitask folder an export writes beside the splits (the
// ECG multi-task benchmark's records, qa-export-multitask.ts): every file its manifest lists is a
// regular file inside the folder with that size and sha256, every label file's line keeps the
// benchmark's rules (src/ecg-multitask/validate.ts) and names a record the manifest lists, and
// nothing else is there.
import { createHash } from 'node:crypto'
import { lstat, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { MULTITASK_DIR } from '../ecg-multitask/layout.ts'
import { labelFileTask, labelLineProblems } from '../ecg-multitask/validate.ts'
import type { Problem } from '../holtercare/validate.ts'

const MANIFEST = `${MULTITASK_DIR}/manifest.json`

/** The problems of `<dir>/multitask`, and how many files and lines were checked. */
export async function validateMultitaskFolder(dir: string): Promise<{ files: number; items: number; problems: Problem[] }> {
  const problems: Problem[] = []
  let files = 0
  let items = 0
  const listed = new Map<string, { bytes: number; sha256: string }>()
  try {
    const m = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as { files?: { path?: unknown; bytes?: unknown; sha256?: unknown }[] }
    for (const f of m.files ?? []) if (typeof f.path === 'string') listed.set(f.path, { bytes: Number(f.bytes), sha256: String(f.sha256) })
    files++
  } catch (cause) {
    problems.push({ file: MANIFEST, message: `${(cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `not JSON (${(cause as Error).message})`}; export the run again to write it` })
  }
  for (const [rel, want] of listed) {
    if (!rel.startsWith(`${MULTITASK_DIR}/`) || rel.split('/').includes('..')) {
      problems.push({ file: MANIFEST, message: `lists ${rel}, outside ${MULTITASK_DIR}/; a manifest lists only the folder's own files` })
      continue
    }
    const st = await lstat(path.join(dir, rel)).catch(() => null)
    if (!st || !st.isFile()) {
      problems.push({ file: rel, message: `${st ? 'not a regular file (a link or a folder)' : 'listed in the manifest but missing'}; export the run again` })
      continue
    }
    const buf = await readFile(path.join(dir, rel))
    const sha = createHash('sha256').update(buf).digest('hex')
    if (buf.length !== want.bytes || sha !== want.sha256) problems.push({ file: rel, message: `${buf.length} bytes with sha256 ${sha.slice(0, 12)}..., the manifest says ${want.bytes} bytes, ${want.sha256.slice(0, 12)}...; the file changed since the export: export the run again` })
  }
  for (const split of await names(path.join(dir, MULTITASK_DIR))) {
    const at = `${MULTITASK_DIR}/${split.name}`
    if (!split.dir) {
      if (at !== MANIFEST) problems.push({ file: at, message: `unknown file; ${MULTITASK_DIR}/ holds manifest.json, ecg/ and a folder per split` })
      continue
    }
    if (split.name === 'ecg') {
      for (const e of await names(path.join(dir, at))) if (!listed.has(`${at}/${e.name}`)) problems.push({ file: `${at}/${e.name}`, message: 'not in the manifest; remove it or export the run again' })
      continue
    }
    for (const e of await names(path.join(dir, at))) {
      const rel = `${at}/${e.name}`
      const task = e.dir ? null : labelFileTask(e.name)
      if (!task) {
        problems.push({ file: rel, message: 'not a label file; a split holds <task>.jsonl for rr_interval, age, gender or report_label' })
        continue
      }
      files++
      const lines = (await readFile(path.join(dir, rel), 'utf8')).split('\n')
      lines.forEach((text, i) => {
        if (!text.trim()) return
        items++
        let o: unknown
        try {
          o = JSON.parse(text)
        } catch {
          problems.push({ file: rel, line: i + 1, message: 'not JSON; a line is one JSON object' })
          return
        }
        for (const message of labelLineProblems(o, task)) problems.push({ file: rel, line: i + 1, message })
        const ecg = (o as { ecg_path?: unknown }).ecg_path
        if (typeof ecg === 'string' && listed.size && !(listed.has(`${ecg}.hea`) && listed.has(`${ecg}.dat`))) problems.push({ file: rel, line: i + 1, message: `ecg_path ${ecg} names no record of the manifest (${ecg}.hea and ${ecg}.dat); export the run again` })
      })
    }
  }
  return { files, items, problems }
}

async function names(dir: string): Promise<{ name: string; dir: boolean }[]> {
  const list = await readdir(dir, { withFileTypes: true }).catch(() => [])
  return list.map((e) => ({ name: e.name, dir: e.isDirectory() })).sort((a, b) => (a.name < b.name ? -1 : 1))
}
