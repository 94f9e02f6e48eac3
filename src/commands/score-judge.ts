// `pipeline score --judge <file.yaml> [--judge-cache <dir>]`: ScoreGPT's judge from a small YAML
// file holding one `openai-compatible` model, as an infer stage declares one (apiModelSchema;
// pipelines/examples/judge-*.yaml). The file is validated once, here, with every problem naming
// the file, the key and its line, like a dataset file. The hook wraps createJudge with its
// services: a content cache in --judge-cache (default <out>/judge-cache, so scoring again reuses
// every reply already paid for; a run's cache folder may be named to share it), the model's own
// limiter (concurrency, rpm, tpm) and its key from apiKeyEnv, read before anything is scored.
// A judge failure is the item's `judgeError` (score-hooks.ts), counted in the report's problems.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { LineCounter, parseDocument, type Node } from 'yaml'
import { formatPath, lineOf, type Segments } from '../config/yaml-lines.ts'
import { PipelineError } from '../core/errors.ts'
import { problemsError, z } from '../core/stage-options.ts'
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
export async function readJudgeConfig(file: string): Promise<ApiModelConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PipelineError(missing ? 'E_FILE_MISSING' : 'E_IO', missing ? `judge file not found; give a YAML file of one openai-compatible model (${EXAMPLE})` : `cannot read judge file: ${(cause as Error).message}`, { file, field: 'judge' }, { cause })
  }
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    const pos = lines.linePos(doc.errors[0].pos[0])
    throw new PipelineError('E_CONFIG_YAML', `invalid YAML at line ${pos.line}, column ${pos.col}: ${doc.errors[0].message.split('\n')[0]}`, { file, line: pos.line })
  }
  const raw = doc.toJS() as unknown
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PipelineError('E_CONFIG_VALUE', `expected one model as a mapping (name, kind: openai-compatible, baseURL, model...), found ${raw === null || raw === undefined ? 'an empty file' : JSON.stringify(raw).slice(0, 60)}; see ${EXAMPLE}`, { file, yamlPath: '(top level)' })
  }
  const lineAt = (segs: Segments) => lineOf(doc.contents as Node | null, segs, lines)
  const parsed = apiModelSchema.safeParse(raw, { reportInput: true })
  const problems = parsed.success ? judgeProblemsOf(parsed.data) : parsed.error.issues.flatMap((issue) => issueProblem(issue))
  if (problems.length) throw problemsError(file, problems.map((p) => new PipelineError(p.code, p.message, { file, yamlPath: formatPath(p.at) || '(top level)', line: lineAt(p.at) })))
  return parsed.data!
}

interface Problem { code: 'E_CONFIG_KEY' | 'E_CONFIG_VALUE'; message: string; at: Segments }

// A zod issue in the file's terms: one problem per unknown key (each at its own line).
function issueProblem(issue: z.core.$ZodIssue): Problem[] {
  const at = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
  const input = (issue as { input?: unknown }).input
  if (issue.code === 'unrecognized_keys') {
    const allowed = keysAt(at).join(', ')
    return issue.keys.map((key) => ({ code: 'E_CONFIG_KEY', message: `unknown key "${key}"; allowed keys here: ${allowed}`, at: [...at, key] }))
  }
  if (issue.code === 'invalid_type' && input === undefined) return [{ code: 'E_CONFIG_VALUE', message: `required ${issue.expected} is missing`, at }]
  const found = input === undefined ? '' : `, found ${JSON.stringify(input)}`
  return [{ code: 'E_CONFIG_VALUE', message: `${issue.message}${found}`, at }]
}

// The keys apiModelSchema allows at a path of the file (its objects, through optionals and defaults).
function keysAt(segs: Segments): string[] {
  const shapeOf = (s: unknown): Record<string, unknown> | undefined => {
    let cur = s
    while (cur instanceof z.ZodOptional || cur instanceof z.ZodDefault) cur = cur.unwrap()
    return cur instanceof z.ZodObject ? cur.shape : undefined
  }
  let schema: unknown = apiModelSchema
  for (const seg of segs) schema = shapeOf(schema)?.[seg]
  return Object.keys(shapeOf(schema) ?? {})
}

// What a valid model config cannot mean for a judge, which reads text and scores every report item.
function judgeProblemsOf(m: ApiModelConfig): Problem[] {
  const problems: Problem[] = []
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
