// The QA benchmark of pipelines/bench-mitdb.yaml built for a test: the repo's dataset with its
// record paths made absolute (so the copy runs from a temporary folder), optionally without its
// render stages (the "light" dataset: read, annotate, quality, clean, detect, the excerpts and qa
// with no inputs required: the same items but for their inputs, in a few seconds), and with other
// seeds for the excerpts and the qa stage.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { parse, stringify } from 'yaml'
import { runCli, type Exit } from './child.ts'
import { ROOT } from './shared.ts'

export const BENCH_YAML = path.join(ROOT, 'pipelines/bench-mitdb.yaml')

export interface BenchOptions {
  /** Keep the render stages and the qa stage's inputs and budgets (default true). */
  render?: boolean
  qaSeed?: number
  excerptSeed?: number
  /** Only these records (by id: the path's base name unless the dataset names it). */
  records?: string[]
  /** Stages appended at the end (a module path, such as test/fixtures/pause-stage.mjs). */
  append?: string[]
  /** Replaces the qa stage's budgets.maxFrames (a workaround while the shipped value does not load). */
  maxFrames?: number
}

type Stage = string | { use: string; options?: Record<string, unknown> }

/** Writes the dataset to `<dir>/<name>.yaml` and returns its path. */
export function writeBenchDataset(dir: string, name: string, o: BenchOptions = {}): string {
  const d = parse(readFileSync(BENCH_YAML, 'utf8')) as { name: string; records: { id?: string | number; path: string }[]; stages: Stage[] }
  d.name = name
  d.records = d.records.map((r) => ({ ...r, path: path.resolve(path.dirname(BENCH_YAML), r.path) }))
  if (o.records) d.records = d.records.filter((r) => o.records!.includes(String(r.id ?? path.basename(r.path))))
  const render = o.render ?? true
  d.stages = d.stages.flatMap((s): Stage[] => {
    if (typeof s === 'string') return [s]
    if (s.use.startsWith('render-')) return render ? [s] : []
    const options = structuredClone(s.options ?? {})
    if (s.use === 'excerpt' && o.excerptSeed !== undefined && options.stratified) (options.stratified as { seed: number }).seed = o.excerptSeed
    if (s.use === 'qa') {
      if (o.qaSeed !== undefined) options.seed = o.qaSeed
      if (o.maxFrames !== undefined) (options.budgets as { maxFrames?: number }).maxFrames = o.maxFrames
      if (!render) {
        delete options.budgets
        for (const set of Object.values(options.sets as Record<string, { inputs?: unknown }>)) delete set.inputs
      }
    }
    return [{ ...s, options }]
  })
  d.stages.push(...(o.append ?? []))
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${name}.yaml`)
  writeFileSync(file, stringify(d))
  return file
}

/** Runs the dataset into `<dir>/<name>` and returns the run folder and the CLI's exit. */
export async function tryBench(dir: string, name: string, o: BenchOptions = {}): Promise<{ run: string; exit: Exit }> {
  const yaml = writeBenchDataset(dir, name, o)
  const run = path.join(dir, name)
  return { run, exit: await runCli(['run', yaml, '--out', run]) }
}

/** Runs the dataset into `<dir>/<name>` (the run must succeed) and returns the run folder. */
export async function runBench(dir: string, name: string, o: BenchOptions = {}): Promise<string> {
  const { run, exit } = await tryBench(dir, name, o)
  expect(exit.code, exit.stderr).toBe(0)
  return run
}

/** The lines of an NDJSON file as objects. */
export function ndjson<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T)
}
