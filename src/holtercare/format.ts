// The public Holtercare-Bench QA format (the Holtercare-Bench paper and release, "Public file format"):
// one JSON array per task file under <split>/<tier>/<task_type>.json, each element exactly
// {id, task_type, qa_pair: {question, answer}, tag}, with closed-task options inline at the end
// of the question ("... A. 2; B. 0; C. 3; D. 1") and the answer repeating the letter and the
// option's text ("D. 1"). Pure: the commands that read and write folders use these.

import { TASKS } from '../qa/tasks/index.ts'

export { LETTERS, splitOptions, formatOptions, splitAnswer, type InlineOption } from './options.ts'

export const TIERS = ['Closed-QA', 'Open-QA', 'Report-Generation'] as const
export type Tier = (typeof TIERS)[number]

/** Every task type of the registry, the ECG multi-task benchmark's included. */
export type TaskType = (typeof TASKS)[number]['type']

/** The task types of the public release, by tier, in the order the paper lists them (the registry's order). */
export const TASKS_BY_TIER = Object.fromEntries(TIERS.map((t) => [t, TASKS.filter((m) => m.tier === t).map((m) => m.type)])) as unknown as Record<Tier, readonly TaskType[]>

/** The 12 task types of the public release. */
export const TASK_TYPES: readonly TaskType[] = TIERS.flatMap((t) => TASKS_BY_TIER[t])

export type ClosedTask = TaskType

/** The tier a public task type belongs to. */
export function tierOf(task: TaskType): Tier {
  return TIERS.find((t) => TASKS_BY_TIER[t].includes(task))!
}

/** Whether a string is one of the 12 task types of the public release. */
export function isTaskType(s: string): s is TaskType {
  return (TASK_TYPES as readonly string[]).includes(s)
}

/** One element of a public task file. */
export interface HoltercareItem {
  id: string
  task_type: TaskType
  qa_pair: { question: string; answer: string }
  tag: string
}

/** The task file of a task type, relative to a split folder: <tier>/<task_type>.json. */
export function taskFile(task: TaskType): string {
  return `${tierOf(task)}/${task}.json`
}
