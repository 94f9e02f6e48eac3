// Validation of a ScoreGPT judge's reply, and the signature of what was computed. Choices the
// spec leaves open, fixed here and named in the signature:
//   - the reply is one JSON object, bare or as the only content of a ``` / ```json fence; prose
//     around it is refused (guessing which braces are the answer is how wrong scores get in);
//   - its keys are exactly the task's criteria ("1".."17", or the statistical overview's subset):
//     a key missing or extra is refused, since either means the judge did not follow the rubric;
//   - a value is a number from 0 to 100, decimals allowed; a string holding only such a number
//     ("85") is accepted, since its meaning is unambiguous and refusing it would make a paid,
//     cached reply a permanent error; "85%", "85/100", null or true are refused;
//   - the score is the unweighted mean of the criteria scored.
import { judgeCriteria } from './judge-criteria.ts'

export interface JudgeScores {
  /** Score per criterion key, 0-100. */
  scores: Record<string, number>
  /** Their unweighted mean. */
  mean: number
}

export type JudgeVerdict = JudgeScores | { error: string }

const FENCE = /^```[A-Za-z]*[ \t]*\n?([\s\S]*?)\n?[ \t]*```$/
const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?\s*$/

/** The scores in a judge's `reply` for `taskType`, or why the reply is refused. */
export function parseJudgeReply(reply: string, taskType: string): JudgeVerdict {
  const keys = judgeCriteria(taskType)
  const trimmed = reply.trim()
  const body = FENCE.exec(trimmed)?.[1] ?? trimmed
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return { error: `the judge's reply is not a JSON object of scores (found ${excerpt(trimmed)})` }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: `the judge's reply is JSON but not an object keyed by criterion (found ${excerpt(trimmed)})` }
  const obj = value as Record<string, unknown>
  const missing = keys.filter((k) => !Object.hasOwn(obj, k))
  const extra = Object.keys(obj).filter((k) => !keys.includes(k))
  if (missing.length || extra.length) {
    const found = [missing.length ? `missing ${missing.join(', ')}` : '', extra.length ? `unexpected ${extra.map((k) => JSON.stringify(k)).join(', ')}` : ''].filter(Boolean).join('; ')
    return { error: `the judge's reply must have exactly the keys ${keys.join(', ')} for ${taskType}: ${found}` }
  }
  const scores: Record<string, number> = {}
  for (const k of keys) {
    const raw = obj[k]
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && NUMBER_TEXT.test(raw) ? Number(raw) : NaN
    if (!Number.isFinite(n)) return { error: `the judge's score for criterion ${k} must be a number from 0 to 100, found ${JSON.stringify(raw)}` }
    if (n < 0 || n > 100) return { error: `the judge's score for criterion ${k} is out of range: ${n} (expected 0 to 100)` }
    scores[k] = n
  }
  return { scores, mean: keys.reduce((s, k) => s + scores[k], 0) / keys.length }
}

/** Every criterion of `taskType` at 0: the score of an empty candidate, given without asking the judge. */
export function zeroScores(taskType: string): JudgeScores {
  return { scores: Object.fromEntries(judgeCriteria(taskType).map((k) => [k, 0])), mean: 0 }
}

export interface JudgeSignatureOptions {
  /** The model id the server knows (e.g. gpt-4o-2024-08-06); never the baseURL, which may name a private host. */
  model: string
  temperature: number
  /** judgePromptHash(). */
  promptHash: string
  /** JUDGE_PROMPT_VERSION. */
  version: string
  /** The task, to name its criteria; omitted, the signature says nothing of them. */
  taskType?: string
  seed?: number
}

/** What ScoreGPT was computed with: judge model, temperature, prompt version and hash, criteria, rules. */
export function judgeSignature(o: JudgeSignatureOptions): string {
  const parts = [`score-gpt|judge:${o.model.replaceAll('|', '%7C')}|temp:${o.temperature}`]
  if (o.seed !== undefined) parts.push(`seed:${o.seed}`)
  parts.push(`prompt:${o.version}#${o.promptHash.slice(0, 16)}`)
  if (o.taskType !== undefined) parts.push(`criteria:${judgeCriteria(o.taskType).join(',')}`)
  parts.push('scale:0-100|mean:unweighted|numeric-strings:accepted|empty:zero')
  return parts.join('|')
}

function excerpt(s: string): string {
  if (!s) return 'an empty reply'
  return JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}...` : s)
}
