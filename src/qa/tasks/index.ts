// Every task, in the order tables list them: the public release's 12 by tier as the paper
// lists them, then the ECG multi-task benchmark's. A new task is its module and one line here.
import type { TaskModule } from './task-module.ts'
import { task as closedPresence } from './closed-presence.ts'
import { task as closedEventCounting } from './closed-event-counting.ts'
import { task as closedEventTiming } from './closed-event-timing.ts'
import { task as closedHrExtremumTiming } from './closed-hr-extremum-timing.ts'
import { task as closedDiagnosis } from './closed-diagnosis.ts'
import { task as openEventCounting } from './open-event-counting.ts'
import { task as openHrExtremumTiming } from './open-hr-extremum-timing.ts'
import { task as openEventTiming } from './open-event-timing.ts'
import { task as openDiagnosis } from './open-diagnosis.ts'
import { task as openEvidenceReasoning } from './open-evidence-reasoning.ts'
import { task as reportStatisticalOverview } from './report-statistical-overview.ts'
import { task as reportGeneralSummary } from './report-general-summary.ts'
import { task as rrInterval } from './rr-interval.ts'
import { task as age } from './age.ts'
import { task as gender } from './gender.ts'
import { task as reportLabel } from './report-label.ts'

export const TASKS = [
  closedPresence, closedEventCounting, closedEventTiming, closedHrExtremumTiming, closedDiagnosis,
  openEventCounting, openHrExtremumTiming, openEventTiming, openDiagnosis, openEvidenceReasoning,
  reportStatisticalOverview, reportGeneralSummary,
  rrInterval, age, gender, reportLabel,
] as const

const BY_TYPE: ReadonlyMap<string, TaskModule> = new Map(TASKS.map((t) => [t.type, t as TaskModule]))

/** The module of a task type, or null for a type no module defines. */
export function taskModule(type: string): TaskModule | null {
  return BY_TYPE.get(type) ?? null
}

/** The tasks asked in `block`, in registry order. */
export function tasksIn<B extends TaskModule['ask']['block']>(block: B): Array<TaskModule & { ask: Extract<TaskModule['ask'], { block: B }> }> {
  return TASKS.filter((t) => t.ask.block === block) as never
}

/** The ECG multi-task benchmark's task types. */
export const MULTITASK_TYPES: readonly string[] = TASKS.filter((t) => t.tier === 'Multitask').map((t) => t.type)
