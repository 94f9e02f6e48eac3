// A prediction item for a QA item and a model (the fields every prediction shares), and the error
// codes a prediction may carry instead of an answer.
import type { QaItem } from '../core/items.ts'
import type { Modality, PredictionItem } from './model.ts'

/** The prediction of `model` for `item` with `fields` (answer, usage...) set. */
export function prediction(item: QaItem, model: string, modality: Modality, fields: Partial<PredictionItem>): PredictionItem {
  return {
    kind: 'prediction',
    id: `${item.id}@${model}`,
    recordId: item.recordId,
    qaId: item.id,
    taskType: item.taskType,
    split: item.split,
    model,
    modality,
    answer: '',
    usage: null,
    latencyMs: 0,
    cached: false,
    attempts: 0,
    ...fields,
    startSample: item.startSample,
    endSample: item.endSample,
    from: [item.id],
  }
}
