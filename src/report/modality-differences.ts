// The paper's Table 11 in numbers: one model shown the recording in different modalities (text
// and video, or images). A model is its API model id when its predictions carry one (an infer
// stage names each entry apart: gpt-4o-mini-text, gpt-4o-mini-strips), else its name. For each
// such model, each later modality is set against the first on every task both were scored on,
// by the task's deciding metric: the difference (later - first) with a paired percentile
// bootstrap interval, resampling cases once for both systems, so what the two have in common
// (the same hard recordings) cancels out as it does in the difference itself. Pure.
import { bootstrapCi } from '../metrics/bootstrap.ts'
import { metricFromCases } from './metric-stats.ts'
import type { ModalityDifference, ReportSystem } from './report-types.ts'
import type { ScoreSums } from './score-sums.ts'
import type { MetricKey } from './task-metrics.ts'

export interface DifferenceOptions {
  seed: number
  resamples: number
  level: number
  /** The deciding metric of each task (win rates'). */
  metricByTask: Readonly<Record<string, MetricKey>>
  tasks: readonly string[]
}

/** The models scored in two or more modalities: their label and systems in the report's order. */
export function multimodalModels(systems: readonly ReportSystem[]): { model: string; systems: ReportSystem[] }[] {
  const byModel = new Map<string, { names: string[]; systems: ReportSystem[] }>()
  for (const s of systems) {
    const id = s.modelId ?? s.model
    const m = byModel.get(id) ?? { names: [], systems: [] }
    byModel.set(id, m)
    if (!m.names.includes(s.model)) m.names.push(s.model)
    if (!m.systems.some((x) => x.modality === s.modality)) m.systems.push(s)
  }
  return [...byModel].filter(([, m]) => m.systems.length > 1).map(([id, m]) => ({
    model: m.names.length === 1 && m.names[0] === id ? id : `${id} (${m.names.join(', ')})`,
    systems: m.systems,
  }))
}

/** Each later modality of each multimodal model against its first, per task, with paired intervals. */
export function modalityDifferences(sums: ScoreSums, systems: readonly ReportSystem[], o: DifferenceOptions): ModalityDifference[] {
  const out: ModalityDifference[] = []
  const sumsOf = (s: ReportSystem, task: string, m: MetricKey) => sums.groups.get(`${s.model}\u0000${s.modality}\u0000${task}`)?.metrics.get(m)
  for (const { model, systems: own } of multimodalModels(systems)) {
    const [first, ...later] = own
    for (const other of later) {
      for (const task of o.tasks) {
        const metric = o.metricByTask[task]
        if (!metric) continue
        const a = sumsOf(first, task, metric)
        const b = sumsOf(other, task, metric)
        if (!a || !b) continue
        const cases = [...new Set([...a.keys(), ...b.keys()])]
        // A case one side has no counted item on adds nothing to that side (as in its own row).
        const on = (side: Map<string, number[]>, sample: string[]) => metricFromCases(metric, sample.map((c) => side.get(c)).filter((x): x is number[] => x !== undefined))
        const difference = (sample: string[]) => on(b, sample) - on(a, sample)
        const ci = bootstrapCi(cases, difference, { seed: `${o.seed}:${first.system}:${other.system}:${task}:${metric}:difference`, resamples: o.resamples, level: o.level })
        const value = difference(cases)
        out.push({
          model, task, metric, a: first.system, b: other.system,
          difference: Number.isFinite(value) ? value : null,
          ci: { low: ci.low, high: ci.high },
          signature: 'bootstrap',
        })
      }
    }
  }
  return out
}
