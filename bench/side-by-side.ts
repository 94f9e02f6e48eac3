// What the side-by-side speed benches (dsp-kernels, classify-speed, qrs-speed) share: the sources
// of an older revision to import next to the current ones, the long records they replay, and the
// head of their results tables.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, sharedPath } from '../test/helpers/shared.ts'
import { ensureTiledFiles, TILED_FILES } from './build-tiled-edf.ts'
import { buildBundle } from './bench-setup.ts'

export interface Revision {
  /** The revision as given, shortened when it is a full hash. */
  name: string
  /** Imports `rel` (e.g. 'src/dsp/qrs-detector.ts') as it was at the revision. */
  load<T>(rel: string): Promise<T>
  /** Removes the extracted sources. */
  remove(): void
}

/**
 * Extracts src/ of `rev` (git archive) into bench/data (gitignored; inside the repository, so its
 * package imports resolve to node_modules), whatever files its modules import.
 */
export function revisionSources(rev: string): Revision {
  const dir = mkdtempSync(path.join(ROOT, 'bench/data/rev-'))
  execFileSync('sh', ['-c', 'git archive "$1" src | tar -x -C "$2"', 'sh', rev, dir], { cwd: ROOT })
  return {
    name: /^[0-9a-f]{40}$/.test(rev) ? rev.slice(0, 7) : rev,
    load: async <T>(rel: string) => (await import(pathToFileURL(path.join(dir, rel)).href)) as T,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export interface RevisionBundle {
  name: string
  /** The extracted tree: run `bin/pipeline.js` in it (its dist/ is built). */
  dir: string
  remove(): void
}

/**
 * Extracts `rev`'s src, scripts, bin and package.json into bench/data (gitignored; inside the
 * repository, so its package imports resolve to node_modules) and builds its bundle there, for
 * benches that run whole pipelines of an older revision beside the current one.
 */
export function revisionBundle(rev: string): RevisionBundle {
  const dir = mkdtempSync(path.join(ROOT, 'bench/data/rev-'))
  execFileSync('sh', ['-c', 'git archive "$1" src scripts bin package.json | tar -x -C "$2"', 'sh', rev, dir], { cwd: ROOT })
  buildBundle(dir)
  return {
    name: /^[0-9a-f]{40}$/.test(rev) ? rev.slice(0, 7) : rev,
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/**
 * A caller that runs `f` on every version, in an order that alternates from one call to the next
 * (so no version always goes first, into a warm or cold cache), adds each call's time to
 * `seconds[v]` and returns the results by version.
 */
export function alternating(seconds: number[]): <V, R>(versions: readonly V[], f: (version: V) => R) => R[] {
  let flip = 0
  return (versions, f) => {
    flip ^= 1
    const out = new Array(versions.length)
    for (let j = 0; j < versions.length; j++) {
      const v = flip ? j : versions.length - 1 - j
      const t = performance.now()
      out[v] = f(versions[v])
      seconds[v] += (performance.now() - t) / 1000
    }
    return out
  }
}

export interface RecordCase {
  id: string
  /** One record's parts, in order. */
  files: string[]
}

/** MIT-BIH 100, 101, 102, 208, the 23 h Icentia11k recording and (unless `noDay`) the tiled 24 h EDF+ file. */
export async function replayCases(noDay: boolean, log: (s: string) => void): Promise<RecordCase[]> {
  const cases: RecordCase[] = [
    ...['100', '101', '102', '208'].map((r) => ({ id: `MIT-BIH ${r}`, files: [sharedPath(`data/mitdb/${r}`)] })),
    { id: 'Icentia11k p00000 (s00-s19, 23 h)', files: Array.from({ length: 20 }, (_, i) => sharedPath(`data/icentia11k/p00000_s${String(i).padStart(2, '0')}`)) },
  ]
  if (!noDay) {
    await ensureTiledFiles(log)
    const file = TILED_FILES.find((f) => f.name === '24h')!.file
    if (existsSync(file)) cases.push({ id: 'MIT-BIH 100 tiled (EDF+, 24 h)', files: [file] })
  }
  return cases
}

/** A results file: title, the command and machine, the explanation lines, then the table. */
export function resultsTable(title: string, script: string, explanation: string[], head: string[], rows: string[]): string {
  return [
    `# ${title}`,
    '',
    `\`npx tsx ${script}${process.argv.slice(2).map((a) => ' ' + a).join('')}\` (${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}).`,
    ...explanation,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows,
    '',
  ].join('\n')
}
