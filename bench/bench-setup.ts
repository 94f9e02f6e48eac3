// What the pipeline benchmarks share before they measure: the CLI bundle built fresh (a stale
// dist/ would be measured otherwise; bin/pipeline.js falls back to the slower sources), and the
// dataset YAML of each case written into bench/data beside the tiled recordings.
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { DATA_DIR } from './build-tiled-edf.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Builds dist/ (scripts/build.mjs) in `dir`, this tree by default. */
export function buildBundle(dir = ROOT): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'inherit' })
}

/**
 * Writes bench/data/<name>.yaml: one record (`record`, the YAML after "- "), run alone, through
 * `stages` (YAML lines), with `exclude` left out of the outputs; returns its path.
 */
export async function writeBenchDataset(o: { script: string; name: string; record: string; stages: string[]; exclude: string[] }): Promise<string> {
  const file = path.join(DATA_DIR, `${o.name}.yaml`)
  const lines = [`# written by bench/${o.script}`, `name: ${o.name}`, 'concurrency: {records: 1}', 'records:', `  - ${o.record}`, 'stages:', ...o.stages, 'output:', `  exclude: [${o.exclude.join(', ')}]`]
  await writeFile(file, lines.join('\n') + '\n')
  return file
}
