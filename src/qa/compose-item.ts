// A QA item from a draft: the public question (the patient sentence, the span the excerpt covers,
// the task's question and its inline options) and answer, the structured gold, the inputs and
// where it came from. Phrasings are chosen from a seeded stream named by the item's id.
import type { ExcerptItem, QaInputs, QaItem } from '../core/items.ts'
import { createSeededRandom } from '../excerpts/seeded-random.ts'
import type { QaDraft } from './draft.ts'
import { taskModule } from './tasks/index.ts'
import { patientSentence, spanSentence, type Patient } from './phrasing.ts'
import type { Split } from './splits.ts'

export interface ComposeInput {
  id: string
  ex: ExcerptItem
  draft: QaDraft
  patient: Patient
  caseId: string
  split: Split
  inputs: QaInputs
  renderIds: string[]
  seed: string
}

/** The item the qa stage yields for a draft. */
export function composeItem(c: ComposeInput): QaItem {
  const rng = createSeededRandom(`${c.seed}:${c.id}:text`)
  const task = taskModule(c.draft.task)!
  // A task whose answer is the patient's age or sex is asked without the sentence that says them.
  const question = [task.tellsPatient === false ? '' : patientSentence(c.patient, rng), spanSentence(c.ex.startMs, c.ex.endMs, rng), c.draft.question, c.draft.options].filter(Boolean).join(' ')
  return {
    kind: 'qa',
    id: c.id,
    recordId: c.ex.recordId,
    caseId: c.caseId,
    split: c.split,
    taskType: c.draft.task,
    tier: task.tier,
    excerpt: { id: c.ex.id, set: c.ex.set, startSample: c.ex.startSample, endSample: c.ex.endSample, startMs: c.ex.startMs, endMs: c.ex.endMs },
    question,
    answer: c.draft.answer,
    gold: c.draft.gold,
    inputs: c.inputs,
    from: [c.ex.id, ...c.renderIds],
    startSample: c.ex.startSample,
    endSample: c.ex.endSample,
  }
}
