// The running sums a score report is made from (aggregate.ts), filled item by item as the
// predictions stream past (collect-scores.ts), so no item score needs to be kept:
//   - per (system, task): items by status, the cases of the items read, and per metric each
//     case's summed contributions (metric-stats.ts), cases in order of first appearance, which
//     is what the bootstrap resamples;
//   - per system, the closed items it read, right or wrong (McNemar's test pairs two systems on
//     the items both read);
//   - the systems and tasks in order of first appearance.
// Memory grows with systems x tasks x cases, and with the closed items read (a flag each), not
// with the texts or the number of metrics. Pure.
import { contribution } from './metric-stats.ts'
import type { ItemScore, ItemStatus } from './score-types.ts'
import { taskKind, taskMetrics, type MetricKey } from './task-metrics.ts'

/** The sums of one system on one task. */
export interface GroupSums {
  task: string
  model: string
  modality: string
  status: Record<ItemStatus, number>
  /** Cases of the items read (scored or unparsed). */
  readCases: Set<string>
  /** Per metric, each case's summed contributions. */
  metrics: Map<MetricKey, Map<string, number[]>>
}

export interface ScoreSums {
  /** Keyed `model\u0000modality\u0000task`. */
  groups: Map<string, GroupSums>
  /** Systems keyed `model\u0000modality`, in order of first appearance. */
  systems: Map<string, { model: string; modelId?: string; modality: string }>
  /** Per system key, each closed item read: its task and whether it was right. */
  closed: Map<string, Map<string, { task: string; correct: boolean }>>
  tasks: Set<string>
}

export function createScoreSums(): ScoreSums {
  return { groups: new Map(), systems: new Map(), closed: new Map(), tasks: new Set() }
}

/**
 * Notes the item's system and task in order of first appearance, without adding the item: an item
 * held back for a hook (collect-scores.ts) still places its system where it was first read.
 */
export function noteItem(sums: ScoreSums, i: ItemScore): void {
  const sysKey = `${i.model}\u0000${i.modality}`
  const sys = sums.systems.get(sysKey)
  if (!sys) sums.systems.set(sysKey, { model: i.model, ...(i.modelId ? { modelId: i.modelId } : {}), modality: i.modality })
  else if (!sys.modelId && i.modelId) sys.modelId = i.modelId
  sums.tasks.add(i.task)
}

/** Adds one item score to the sums. */
export function addItem(sums: ScoreSums, i: ItemScore): void {
  noteItem(sums, i)
  const sysKey = `${i.model}\u0000${i.modality}`
  const key = `${sysKey}\u0000${i.task}`
  let g = sums.groups.get(key)
  if (!g) {
    g = { task: i.task, model: i.model, modality: i.modality, status: { scored: 0, unparsed: 0, failed: 0, missing: 0, 'no-gold': 0 }, readCases: new Set(), metrics: new Map() }
    sums.groups.set(key, g)
  }
  g.status[i.status]++
  const read = i.status === 'scored' || i.status === 'unparsed'
  if (read) g.readCases.add(i.caseId)
  for (const m of taskMetrics(i.task)) {
    // ScoreMAE is MAE's, mapped once the baselines' MAEs are known (score-mae-rows.ts).
    if (m === 'scoreMae') continue
    const c = contribution(m, i)
    if (!c) continue
    let byCase = g.metrics.get(m)
    if (!byCase) g.metrics.set(m, (byCase = new Map()))
    const s = byCase.get(i.caseId)
    if (!s) byCase.set(i.caseId, c)
    else for (let k = 0; k < c.length; k++) s[k] += c[k]
  }
  if (read && i.correct !== undefined && taskKind(i.task) === 'choice') {
    let m = sums.closed.get(sysKey)
    if (!m) sums.closed.set(sysKey, (m = new Map()))
    m.set(i.qaId, { task: i.task, correct: i.correct })
  }
}
