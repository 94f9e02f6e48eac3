// The train split a prior or blind baseline learns from: the `train` QA items of a run directory
// or of an exported Holtercare folder (both opened as an input run), read once per run.
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import { openInputRun } from '../run/input-run.ts'

/** The train items of the run or export at `dir`. */
export async function readTrainItems(dir: string, signal?: AbortSignal): Promise<QaItem[]> {
  const input = await openInputRun(dir)
  const kinds = new Set(['qa'])
  const train: QaItem[] = []
  for (const record of input.records) {
    for await (const item of input.items(record, kinds, dir, signal)) {
      if (item.kind === 'qa' && (item as QaItem).split === 'train') train.push(item as QaItem)
    }
  }
  if (train.length === 0) throw new PipelineError('E_CONFIG_VALUE', `${dir} holds no QA item of the train split to learn from; name a benchmark run (or export) that has one`, { file: dir, field: 'train' })
  return train
}
