// Records by glob: `records: {glob: data/mitdb/*.hea, ...defaults}`, or such an entry in the
// records list. Patterns are relative to the dataset file's folder, like paths; a pattern that
// starts with "!" leaves out what it matches. Each match is one record, in path order (code-unit
// order, not the locale's), so a run lists its records alike on every machine. A match must be
// a recording (a WFDB record's .hea, an .edf/.bdf/.rec file): a record's .dat and .atr would
// otherwise become records of their own.
// globSync rather than glob: the dataset file is checked once, before anything runs, and
// parseDataset stays synchronous for the tools and tests that build datasets in memory.
import path from 'node:path'
import { globSync } from 'tinyglobby'
import { PipelineError } from '../core/errors.ts'
import { formatPath, type Segments } from './yaml-lines.ts'

const RECORDING = /\.(hea|edf|bdf|rec)$/i
const SHOWN = 3

/** A file a glob matched: absolute, relative to the dataset folder (`/`-separated), and where its pattern is in the file. */
export interface GlobMatch {
  path: string
  source: string
  segs: Segments
}

/** The recordings a glob matches, sorted by path, and the problems of its patterns (one that matches nothing, or files that are not recordings). */
export function expandGlob(glob: string | string[], segs: Segments, dir: string, file: string, lineAt: (segs: Segments) => number | undefined): { matches: GlobMatch[]; problems: PipelineError[] } {
  const patterns = Array.isArray(glob) ? glob : [glob]
  const at = (i: number): Segments => (Array.isArray(glob) ? [...segs, 'glob', i] : [...segs, 'glob'])
  const problem = (i: number, message: string) => new PipelineError('E_CONFIG_VALUE', message, { file, yamlPath: formatPath(at(i)), line: lineAt(at(i)) })
  const excluded = patterns.filter(isExclusion)
  if (excluded.length === patterns.length) {
    return { matches: [], problems: [problem(0, `a glob needs a pattern of the files to read, not only "!" patterns, which leave files out (found ${JSON.stringify(glob)})`)] }
  }
  const problems: PipelineError[] = []
  const found = new Map<string, GlobMatch>()
  patterns.forEach((pattern, i) => {
    if (isExclusion(pattern)) return
    const files = globSync([pattern, ...excluded], { cwd: dir, absolute: true, onlyFiles: true, expandDirectories: false }).map((f) => path.resolve(f))
    if (files.length === 0) {
      const after = excluded.length ? ' once the "!" patterns leave theirs out' : ''
      return void problems.push(problem(i, `glob "${pattern}" matches no file in ${dir}${after}; patterns are relative to the dataset file's folder (check the folder and the extension, e.g. data/mitdb/*.hea)`))
    }
    const odd = files.filter((f) => !RECORDING.test(f)).map((f) => relative(dir, f)).sort(byCodeUnit)
    if (odd.length) {
      const shown = odd.slice(0, SHOWN).join(', ') + (odd.length > SHOWN ? ` and ${odd.length - SHOWN} more` : '')
      return void problems.push(problem(i, `glob "${pattern}" matches files that are not recordings (${shown}); match the .hea files of WFDB records (e.g. ${suggest(pattern)}) or the .edf/.bdf files`))
    }
    for (const f of files) if (!found.has(f)) found.set(f, { path: f, source: relative(dir, f), segs: at(i) })
  })
  const matches = [...found.values()].sort((a, b) => byCodeUnit(a.path, b.path))
  return { matches, problems }
}

// tinyglobby's rule: "!(...)" is an extglob, not an exclusion.
function isExclusion(pattern: string): boolean {
  return pattern.startsWith('!') && !pattern.startsWith('!(')
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function relative(dir: string, file: string): string {
  return path.relative(dir, file).split(path.sep).join('/')
}

// The pattern narrowed to headers when it ends in a wildcard (data/mitdb/* -> data/mitdb/*.hea).
function suggest(pattern: string): string {
  const narrowed = pattern.replace(/\*(\.\*)?$/, '*.hea')
  return narrowed !== pattern ? narrowed : 'data/mitdb/*.hea'
}
