// What a benchmark's splits hold, checked where all its items are seen (`qa export`, `qa
// validate`): the qa stage sees one record at a time, so it cannot tell that a split came out
// empty, or without a task type or an event the other splits have, which a few cases make likely
// (3 cases: one patient in test, none in valid). These are warnings, never failures: a small
// benchmark is still a benchmark, and pinning cases (the qa stage's split.pin) is the remedy.
// Events are what an item's gold says it is about (`event`, and the findings of `labels`).
import { TASK_TYPES } from '../holtercare/format.ts'

export interface SplitCoverage {
  /** Counts one item of `split`, of task type `task`, about `events`. */
  add(split: string, task: string, events?: readonly string[]): void
  /** One sentence per gap, in the order splits were given, then task types, then events. */
  warnings(): string[]
}

interface Tally {
  items: number
  tasks: Map<string, number>
  events: Map<string, number>
}

/** A tally of `splits` (each one expected to hold items; a split first seen in add is appended). */
export function createSplitCoverage(splits: readonly string[]): SplitCoverage {
  const bySplit = new Map<string, Tally>(splits.map((s) => [s, { items: 0, tasks: new Map(), events: new Map() }]))
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
  return {
    add(split, task, events = []) {
      let t = bySplit.get(split)
      if (!t) bySplit.set(split, (t = { items: 0, tasks: new Map(), events: new Map() }))
      t.items++
      bump(t.tasks, task)
      for (const e of new Set(events)) bump(t.events, e)
    },
    warnings() {
      const all = [...bySplit]
      const out = all.filter(([, t]) => t.items === 0).map(([s]) => `split ${s} is empty`)
      const filled = all.filter(([, t]) => t.items > 0)
      const keys = (pick: (t: Tally) => Map<string, number>) => [...new Set(filled.flatMap(([, t]) => [...pick(t).keys()]))]
      const tasks = keys((t) => t.tasks).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
      for (const task of tasks) {
        for (const [s, t] of filled) {
          if (t.tasks.has(task)) continue
          const others = filled.filter(([, o]) => o.tasks.has(task)).map(([o, x]) => `${o} has ${x.tasks.get(task)}`)
          out.push(`split ${s} has no ${task} item (${others.join(', ')})`)
        }
      }
      for (const event of keys((t) => t.events).sort()) {
        for (const [s, t] of filled) {
          if (t.events.has(event)) continue
          const others = filled.filter(([, o]) => o.events.has(event)).map(([o, x]) => `${o} (${items(x.events.get(event)!)})`)
          out.push(`event ${event} appears in ${others.join(' and ')} but not in ${s}`)
        }
      }
      return out
    },
  }
}

/** The events an item's gold is about: its `event` and its `labels` (a gold line's fields, any shape). */
export function goldEvents(gold: { event?: unknown; labels?: unknown }): string[] {
  const out = typeof gold.event === 'string' && gold.event ? [gold.event] : []
  if (Array.isArray(gold.labels)) for (const l of gold.labels) if (typeof l === 'string' && l) out.push(l)
  return out
}

// Task types in the paper's order; any other name after them.
const rank = (task: string) => {
  const i = TASK_TYPES.indexOf(task as (typeof TASK_TYPES)[number])
  return i < 0 ? TASK_TYPES.length : i
}

const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`
