// `pipeline score`: scores the predictions of one or more runs (score-runs.ts), or of
// another harness against a Holtercare folder (--qa, score-qa.ts), writes report.json (the
// ScoreReport, src/report/report-types.ts), report.md and the HTML report to --out and prints the markdown;
// --multitask scores the ECG multi-task benchmark instead (score-multitask.ts). The pipeline:
//   load -> per-item scores (collect-scores.ts) -> hooks (F1-Bio, ScoreGPT; score-hooks.ts;
//        the model of --f1-bio: score-f1bio.ts; the judge of --judge: score-judge.ts)
//        -> aggregate.ts -> markdown.ts, and report.json as is.
// index.html and charts/*.png are rendered from the report's view (view.ts) by html-write.ts.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { TOOL } from '../core/version.ts'
import { DEFAULT_VOCABULARY } from '../qa/vocabulary.ts'
import { aggregateSums } from '../report/aggregate.ts'
import { addItem } from '../report/score-sums.ts'
import { taskKind } from '../report/task-metrics.ts'
import { collectScores, type PredictionSet } from '../report/collect-scores.ts'
import { reportMarkdown } from '../report/markdown.ts'
import { reportView } from '../report/view.ts'
import { PUBLIC_EVENT_NAMES } from '../report/public-gold.ts'
import type { RougeOptions } from '../metrics/rouge-l.ts'
import type { TiePolicy } from '../metrics/win-rate.ts'
import type { ScoreReport } from '../report/report-types.ts'
import type { WinContests } from '../report/win-rates.ts'
import { applyScoreHooks, type F1BioHook, type JudgeHook } from '../report/score-hooks.ts'
import { createScoreF1Bio } from './score-f1bio.ts'
import { judgeFromArgs, judgeProblems } from './score-judge.ts'
import { qaPredictionSet } from './score-qa.ts'
import { runPredictionSet } from './score-runs.ts'
import { scoreMultitaskCommand } from './score-multitask.ts'

export interface ScoreArgs {
  runDirs: string[]
  qa?: string
  predictions?: string
  multitask?: string
  /** Default: <first runDir>/report, or ./report with --qa. */
  out?: string
  /** ScoreMAE's baseline models; default random, prior and holter-dsp (those present). */
  baselines?: string[]
  compare?: [string, string][]
  seed: number
  resamples?: number
  samplesPerTask?: number
  /** Timestamp F1's tolerance in ms (default 150). */
  toleranceMs?: number
  rouge?: RougeOptions
  /** McNemar's exact binomial test (default) or chi-square with continuity correction. */
  exactMcnemar?: boolean
  winRateTies?: TiePolicy
  winContests?: WinContests
  /** ScoreGPT's LLM judge (src/models/judge*.ts); without one ScoreGPT is "not computed". */
  judge?: JudgeHook
  /** --judge: a YAML file of one openai-compatible model (score-judge.ts), made into `judge`. */
  judgeFile?: string
  /** --judge-cache: where the judge's replies are kept; default <out>/judge-cache. */
  judgeCache?: string
  /** F1-Bio's embedder (src/metrics/bertscore-*.ts); without one F1-Bio is "unavailable". */
  f1Bio?: F1BioHook
  /** --f1-bio: an exported model folder or a YAML file naming one (score-f1bio.ts), made into `f1Bio`. */
  f1BioPath?: string
  /** --f1-bio-cache: where F1-Bio's scores are kept; default <out>/f1bio-cache. */
  f1BioCache?: string
  stdout: NodeJS.WritableStream
  signal?: AbortSignal
}

/** Scores, writes the report and prints it; resolves with the exit code. */
export async function scoreCommand(a: ScoreArgs): Promise<number> {
  const out = path.resolve(a.out ?? (a.runDirs.length ? path.join(a.runDirs[0], 'report') : 'report'))
  if (a.multitask && a.f1BioPath) throw new PipelineError('E_USAGE', '--f1-bio scores open and report answers; --multitask has none: give --f1-bio with run directories or --qa', { field: 'f1-bio' })
  const judge = await judgeFromArgs(a, out)
  if (a.multitask) {
    if (a.runDirs.length || a.qa) throw new PipelineError('E_USAGE', '--multitask scores its own file; give it without run directories or --qa')
    return scoreMultitaskCommand({ file: a.multitask, out: a.out, stdout: a.stdout, signal: a.signal })
  }
  if (a.f1BioCache && !a.f1BioPath) throw new PipelineError('E_USAGE', '--f1-bio-cache keeps F1-Bio\'s scores: give it with --f1-bio <model>', { field: 'f1-bio-cache' })
  const f1Bio = a.f1BioPath ? await createScoreF1Bio(a.f1BioPath, { cacheDir: path.resolve(a.f1BioCache ?? path.join(out, 'f1bio-cache')) }) : undefined
  let report: ScoreReport
  try {
    report = await buildReport({ ...a, ...(judge ? { judge: judge.hook } : {}), ...(f1Bio ? { f1Bio: f1Bio.hook } : {}) })
  } finally {
    await f1Bio?.close()
  }
  const md = reportMarkdown(report)
  await mkdir(out, { recursive: true })
  await writeFile(path.join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n')
  await writeFile(path.join(out, 'report.md'), md)
  const { writeReport } = await import('../report/html-write.ts')
  const html = await writeReport(out, reportView(report))
  a.stdout.write(`${md}\nwrote ${path.join(out, 'report.json')}, report.md, index.html and ${html.charts.length} chart PNGs\n`)
  if (f1Bio) {
    const c = f1Bio.cache!.counts
    a.stdout.write(`F1-Bio with ${f1Bio.settings.name} (layer ${f1Bio.settings.layer}${f1Bio.settings.idf ? ', idf' : ''}${f1Bio.settings.baseline ? ', rescaled' : ''}) from ${f1Bio.settings.onnx}: ${c.stored} pairs scored, ${c.hits} from the cache ${f1Bio.cache!.file}\n`)
  }
  if (judge) a.stdout.write(judge.summary())
  return 0
}

/** The report of the runs or of the --qa folder and its predictions, not written anywhere. */
export async function buildReport(a: Omit<ScoreArgs, 'stdout' | 'out'>): Promise<ScoreReport> {
  let sets: PredictionSet[]
  let problems: ScoreReport['problems'] = []
  let vocabulary: readonly string[]
  let sources: ScoreReport['sources']
  let title: string
  if (a.qa !== undefined || a.predictions !== undefined) {
    if (!a.qa || !a.predictions) throw new PipelineError('E_USAGE', '--qa and --predictions go together: --qa <Holtercare folder> --predictions <file of {task_type, index, prediction} lines>')
    if (a.runDirs.length) throw new PipelineError('E_USAGE', `give run directories or --qa, not both (found ${a.runDirs.join(', ')})`)
    const loaded = await qaPredictionSet(a.qa, a.predictions, a.signal)
    sets = [loaded.set]
    problems = loaded.problems
    vocabulary = PUBLIC_EVENT_NAMES
    sources = { qa: path.resolve(a.qa), predictions: path.resolve(a.predictions) }
    title = `Scores of ${path.basename(a.predictions)} on ${path.basename(path.resolve(a.qa))}`
  } else {
    if (!a.runDirs.length) throw new PipelineError('E_USAGE', 'name at least one run directory (pipeline score runs/bench-mitdb), or --qa <folder> --predictions <file>, or --multitask <file>')
    sets = []
    for (const dir of a.runDirs) sets.push(await runPredictionSet(dir, a.signal))
    vocabulary = DEFAULT_VOCABULARY.map((e) => e.name)
    sources = { runs: sets.map((s) => s.source) }
    title = `Scores of ${sets.map((s) => path.basename(s.source)).join(', ')}`
  }
  const hooks = a.judge !== undefined || a.f1Bio !== undefined
  const samples = { perTask: a.samplesPerTask ?? 3, seed: a.seed }
  // F1-Bio reads every open and report answer; the judge only reports.
  const keepText = a.f1Bio ? () => true : a.judge ? (task: string) => taskKind(task) === 'report' : undefined
  const collected = await collectScores(sets, { vocabulary, toleranceMs: a.toleranceMs, rouge: a.rouge, keepText, samples, signal: a.signal })
  if (hooks) await applyScoreHooks(collected.pending, collected.questions, { judge: a.judge, f1Bio: a.f1Bio }, a.signal)
  for (const item of collected.pending) addItem(collected.sums, item)
  return aggregateSums(collected.sums, {
    samples: collected.samples,
    title, tool: TOOL, sources, systemSources: collected.systemSources,
    seed: a.seed, resamples: a.resamples, baselines: a.baselines, compare: a.compare, samplesPerTask: a.samplesPerTask,
    toleranceMs: a.toleranceMs, rouge: a.rouge, exactMcnemar: a.exactMcnemar, winRateTies: a.winRateTies, winContests: a.winContests,
    vocabularySize: vocabulary.length, f1Bio: a.f1Bio?.signature, scoreGpt: a.judge?.signature,
    problems: [...problems, ...collected.problems, ...judgeProblems(collected.pending)],
  })
}
