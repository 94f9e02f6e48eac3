// Hand-made items for the audit's tests: an element of the public format, the span sentence the
// qa stage writes, and a closed question as the answerers see it (options and gold index).
import type { HoltercareItem, TaskType } from '../../src/holtercare/format.ts'
import type { ClosedQuestion } from '../../src/audit/priors.ts'

export const item = (task: TaskType, question: string, answer: string, id = 'C1', tag = 'train'): HoltercareItem => ({ id, task_type: task, qa_pair: { question, answer }, tag })

export const span = (startMs: number, endMs: number) => `The excerpt shown covers ${startMs} ms to ${endMs} ms of the recording.`

export const closed = (question: string, options: string[], gold: number, task: TaskType = 'closed_event_timing'): ClosedQuestion => ({ task, question, options, gold })

/** Elements of one split, each with its split as the folder reader gives them. */
export const inSplit = (split: string, items: HoltercareItem[]) => items.map((i) => ({ split, item: { ...i, tag: split } }))
