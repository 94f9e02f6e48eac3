// The infer stage's checks against the rest of the dataset, when it is loaded: its QA items must
// come from somewhere (a qa stage before it, or an input run streaming `qa`), and holter-dsp needs
// the detector's beats and the excerpts (a detect stage before it, or `beat` and `excerpt` among
// the input kinds).
import type { PlannedStage } from '../core/stage.ts'

/** Problems of the infer stage at `self`, each naming the options involved. */
export function inferPlanProblems(stages: readonly PlannedStage[], self: number): string[] {
  const before = stages.slice(0, self)
  const names = new Set(before.map((s) => s.name))
  const input = before.find((s) => s.name === 'read-run')?.options as { kinds?: string[] } | undefined
  const kinds = new Set(input?.kinds ?? [])
  const problems: string[] = []
  // A plugin stage before infer may make QA items of its own: only built-in plans are judged.
  const known = before.every((s) => s.builtin !== false)
  if (known && !names.has('qa') && !kinds.has('qa')) problems.push(`infer answers QA items, but no stage before it makes them: put the qa stage before infer, or stream an earlier run's items with input: {run: ..., kinds: [qa]}`)
  const models = (stages[self].options as { models?: { name: string; kind: string }[] }).models ?? []
  const dsp = models.filter((m) => m.kind === 'holter-dsp').map((m) => `"${m.name}"`)
  if (known && dsp.length && !names.has('detect') && !(kinds.has('beat') && kinds.has('excerpt'))) {
    problems.push(`holter-dsp (${dsp.join(', ')}) answers from the detector's beats of each excerpt: put the detect stage before qa, or add beat and excerpt (and quality, gap) to input.kinds`)
  }
  return problems
}
