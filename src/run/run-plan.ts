// What a run is about to do, worked out before anything is written: its records (the dataset's,
// or an input run's finished ones), their probes (duration for the ETA, input files for the
// manifest, which tells a changed input on resume), and the config and its hash. A run over an
// earlier run hashes the input run's own config hash instead of a record list, so records the
// input run finishes later join this run on resume, while a record the input run redid (a new
// checkpoint) shows up as a changed input file.
import path from 'node:path'
import { forEachBounded } from '../core/bounded.ts'
import { PipelineError } from '../core/errors.ts'
import type { RecordProbe, RecordSpec } from '../core/record.ts'
import type { Dataset } from '../config/dataset-schema.ts'
import type { ResolvedStage } from '../config/plugins.ts'
import { configForHash, hashConfig } from './config-hash.ts'
import { CHECKPOINT_FILE } from './checkpoint-store.ts'
import { openInputRun, type InputRun } from './input-run.ts'
import type { Manifest } from './manifest.ts'

export interface RunPlan {
  records: RecordSpec[]
  probes: RecordProbe[]
  inputs: Manifest['inputs']
  config: unknown
  configHash: string
  input: InputRun | null
  manifestInput?: Manifest['input']
}

/** Plans the run of `dataset`; `probe` reads a recording's header (not called for a run over a run). */
export async function planRun(dataset: Dataset, stages: ResolvedStage[], probe: (r: RecordSpec) => Promise<RecordProbe>): Promise<RunPlan> {
  checkSource(dataset, stages)
  const input = dataset.input ? await openInputRun(dataset.input.run) : null
  let records: RecordSpec[]
  let probes: RecordProbe[]
  if (input) {
    if (input.records.length === 0) throw new PipelineError('E_INPUT_RUN', `the input run ${input.dir} has no finished record yet; run it first (or wait for its first record)`, { file: input.dir, field: 'input.run' })
    const missing = input.kinds ? dataset.input!.kinds.filter((k) => !input.kinds!.includes(k)) : []
    if (missing.length) throw new PipelineError('E_CONFIG_VALUE', `input.kinds names ${missing.join(', ')}, but ${input.dir} holds ${input.kinds!.join(', ')} items only (an exported QA folder); name kinds: [${input.kinds!.join(', ')}], or the run it was exported from`, { file: dataset.file, yamlPath: 'input.kinds' })
    records = input.records.map((r) => r.spec)
    probes = input.records.map((r) => ({
      durationSec: r.seconds,
      // A record redone in the input run gets a new checkpoint: its time and bytes stand for its files.
      files: [r.probe ?? { path: `${path.join(input.dir, CHECKPOINT_FILE)}#${r.spec.id}`, size: Object.values(r.ranges).reduce((n, [a, b]) => n + b - a, 0), mtimeMs: Date.parse(r.at) }],
    }))
  } else {
    records = dataset.records
    // Headers only, a few at a time (thousands of records must not exhaust file handles). A record
    // whose header is bad is probed as empty here; reading it fails with the reader's message.
    probes = records.map(() => ({ durationSec: 0, files: [] }))
    await forEachBounded(records, 8, async (r, i) => {
      probes[i] = await probe(r).catch((): RecordProbe => ({ durationSec: 0, files: [] }))
    })
  }
  const manifestInput = input && dataset.input ? { run: input.dir, configHash: input.manifest.configHash, kinds: dataset.input.kinds } : undefined
  const config = configForHash(dataset, stages, manifestInput)
  return { records, probes, inputs: records.map((r, i) => ({ recordId: r.id, files: probes[i].files })), config, configHash: hashConfig(config), input, manifestInput }
}

// Every record's stream starts empty: some stage must read it. With only built-in stages that is
// known now; a plugin may be a reader of its own, so then a record with no items fails instead.
function checkSource(dataset: Dataset, stages: ResolvedStage[]): void {
  const reads = stages.some((s) => s.source !== 'builtin' || s.stage.name === 'read' || s.stage.name === 'read-run')
  if (!reads) {
    throw new PipelineError('E_CONFIG_VALUE', `no stage reads the records: the stages (${stages.map((s) => s.stage.name).join(', ')}) would run on empty streams; put read first in stages: (or name an earlier run with input: {run: ..., kinds: [...]})`, { file: dataset.file, yamlPath: 'stages' })
  }
}
