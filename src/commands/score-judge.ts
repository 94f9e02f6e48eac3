// `pipeline score --judge <file.yaml> [--judge-cache <dir>]`: ScoreGPT's judge from a small YAML
// file holding one `openai-compatible` model, as an infer stage declares one (apiModelSchema;
// pipelines/examples/judge-*.yaml). The file is validated once, here, with every problem naming
// the file, the key and its line, like a dataset file. The hook wraps createJudge with its
// services: a content cache in --judge-cache (default <out>/judge-cache, so scoring again reuses
// every reply already paid for; a run's cache folder may be named to share it), the model's own
// limiter (concurrency, rpm, tpm) and its key from apiKeyEnv, read before anything is scored.
// A judge failure is the item's `judgeError` (score-hooks.ts), counted in the report's problems.
import path from 'node:path'
import { readYamlFile, type YamlProblem } from '../config/yaml-file.ts'
import { PipelineError } from '../core/errors.ts'
import { createJudge, judgeSignatureFor } from '../models/judge.ts'
import { apiModelSchema, type ApiModelConfig } from '../models/model-config.ts'
import type { ScoreReport } from '../report/report-types.ts'
import type { JudgeHook } from '../report/score-hooks.ts'
import type { ItemScore } from '../report/score-types.ts'
import { createContentCache } from '../run/content-cache.ts'
import { createLimiter } from '../run/limiter.ts'
import { readSecret } from '../run/secrets.ts'

const EXAMPLE = 'pipelines/examples/judge-openai.yaml'
const EXAMPLES = 5

export interface ScoreJudge {
  model: ApiModelConfig
  hook: JudgeHook
  /** One line: the judge's calls, cached replies and failures so far, and where replies are kept. */
  summary(): string
}

/** The judge of `pipeline score` for --judge / --judge-cache; undefined without --judge. */
export async function judgeFromArgs(a: { judgeFile?: string; judgeCache?: string; multitask?: string; signal?: AbortSignal }, out: string): Promise<ScoreJudge | undefined> {
  if (!a.judgeFile) {
    if (a.judgeCache) throw new PipelineError('E_USAGE', '--judge-cache keeps the judge\'s replies: give it with --judge <file.yaml>', { field: 'judge-cache' })
    return undefined
  }
  if (a.multitask) throw new PipelineError('E_USAGE', '--judge scores report answers; --multitask has none: give --judge with run directories or --qa', { field: 'judge' })
  return createScoreJudge(a.judgeFile, { cacheDir: path.resolve(a.judgeCache ?? path.join(out, 'judge-cache')), signal: a.signal ?? new AbortController().signal })
}

/** A JudgeHook over the model of `file`, its replies cached under `cacheDir`. */
export async function createScoreJudge(file: string, o: { cacheDir: string; signal: AbortSignal; env?: NodeJS.ProcessEnv }): Promise<ScoreJudge> {
  const model = await readJudgeConfig(file)
  const secret = model.apiKeyEnv ? readSecret(model.apiKeyEnv, o.env) : null
  const counts: Record<string, number> = {}
  const cache = createContentCache(o.cacheDir, 'judge')
  const judge = createJudge(model, {
    cache,
    limiter: createLimiter({ concurrency: model.concurrency, rpm: model.rpm, tpm: model.tpm }),
    secret,
    signal: o.signal,
    count: (name, n = 1) => void (counts[name] = (counts[name] ?? 0) + n),
  })
  const hook: JudgeHook = {
    signature: judgeSignatureFor(model),
    concurrency: model.concurrency,
    async score(item) {
      const r = await judge({ taskType: item.task, candidate: item.answer, reference: item.reference })
      return 'error' in r ? { error: `${r.error.code}: ${r.error.message}` } : { score: r.mean }
    },
  }
  const n = (k: string) => counts[`judge:${k}`] ?? 0
  const summary = () => `judge ${model.name} (${model.model}): ${n('calls')} calls, ${n('cached')} cached, ${n('failed')} failed, ${n('invalid')} invalid replies; replies kept in ${cache.dir}\n`
  return { model, hook, summary }
}

/** The judge model of a YAML file, validated by apiModelSchema; problems name the file, key and line. */
export function readJudgeConfig(file: string): Promise<ApiModelConfig> {
  return readYamlFile(file, { schema: apiModelSchema, what: 'judge file', hint: `a YAML file of one openai-compatible model (${EXAMPLE})`, check: judgeProblemsOf })
}

// What a valid model config cannot mean for a judge, which reads text and scores every report item.
function judgeProblemsOf(m: ApiModelConfig): YamlProblem[] {
  const problems: YamlProblem[] = []
  if (m.only) problems.push({ code: 'E_CONFIG_VALUE', message: 'a judge scores every report answer: "only" does not apply to it; remove it', at: ['only'] })
  if (m.modality !== 'text') problems.push({ code: 'E_CONFIG_VALUE', message: `a judge reads the two reports as text: expected modality text (or none), found ${JSON.stringify(m.modality)}`, at: ['modality'] })
  return problems
}

/** The report's count of answers the judge could not score (any JudgeHook), with examples. */
export function judgeProblems(items: readonly ItemScore[]): ScoreReport['problems'] {
  const failed = items.filter((i) => i.judgeError !== undefined)
  if (!failed.length) return []
  const n = failed.length
  return [{
    kind: 'judge-error', count: n,
    message: `the judge could not score ${n} report answer${n === 1 ? '' : 's'}; ScoreGPT is computed over the others (scoring again retries the failed calls; replies received, valid or not, are kept in the judge cache)`,
    examples: failed.slice(0, EXAMPLES).map((i) => `${i.qaId}@${i.model}: ${i.judgeError}`),
  }]
}
