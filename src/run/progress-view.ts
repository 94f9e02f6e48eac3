// Text rendering of a progress state, shared by `pipeline run` and `pipeline tail`; the warnings
// and errors that earlier sessions of a resumed run left are marked as such.
import { etaSeconds, processedSeconds, throughput, type ProgressState } from './progress-events.ts'

/** The lines that describe a run's state, most important first. */
export function renderProgress(s: ProgressState, opts: { maxMessages?: number } = {}): string[] {
  const max = opts.maxMessages ?? 5
  const eta = etaSeconds(s)
  const status = s.ended ? s.ended : 'running'
  const lines = [
    `run ${s.name}: ${status} | records ${s.doneRecords}/${s.totalRecords} done${s.failedRecords ? `, ${s.failedRecords} failed` : ''}${s.active.size ? `, ${s.active.size} in progress` : ''}`,
    `signal ${hours(processedSeconds(s))} of ${hours(s.totalSeconds)} h | ${throughput(s).toFixed(0)}x real time | elapsed ${clock((s.now - s.startedAt) / 1000)}${eta !== null ? ` | ETA ${clock(eta)}` : ''}`,
  ]
  const items = { ...s.items }
  const models: Record<string, number> = {}
  for (const [k, n] of Object.entries(s.work)) if (k.startsWith(MODEL)) models[k] = n
  for (const a of s.active.values()) {
    for (const [k, n] of Object.entries(a.items)) {
      const into = k.startsWith(MODEL) ? models : items
      into[k] = (into[k] ?? 0) + n
    }
  }
  const kinds = Object.keys(items).sort()
  lines.push(`items ${kinds.length ? kinds.map((k) => `${k} ${items[k]}`).join(', ') : '(none yet)'}`)
  const calls = modelLine(models)
  if (calls) lines.push(calls)
  for (const [id, a] of s.active) lines.push(`  ${id}: ${hours(a.seconds)} / ${hours(a.durationSec)} h`)
  for (const [title, list] of [['warnings', s.warnings], ['errors', s.errors]] as const) {
    if (!list.length) continue
    lines.push(`${title} (${list.length}${fromEarlier(list.filter((m) => m.earlier).length)}):`)
    // The message is bare (bareMessage): its code and record are printed once, here.
    for (const m of list.slice(-max)) lines.push(`  ${m.earlier ? '(earlier session) ' : ''}${m.recordId ? `${m.recordId}: ` : ''}${m.code}: ${m.message}`)
  }
  return lines
}

const MODEL = 'model:'

// The infer stage's counters (src/models/api-predict.ts) as one line: calls done, in flight,
// retried, cached, failed, baseline answers, tokens and the cost when prices are configured.
function modelLine(m: Record<string, number>): string | null {
  const n = (k: string) => Math.round(m[MODEL + k] ?? 0)
  if (!Object.keys(m).length) return null
  const parts = [`calls ${n('calls')} done`, `${n('in-flight')} in flight`, `${n('retried')} retried`, `${n('cached')} cached`, `${n('failed')} failed`]
  if (n('over-budget')) parts.push(`${n('over-budget')} over budget`)
  if (n('no-input')) parts.push(`${n('no-input')} without input`)
  if (n('baseline')) parts.push(`${n('baseline')} baseline answers`)
  parts.push(`tokens in ${n('tokens-in')}, out ${n('tokens-out')}`)
  if (m[MODEL + 'cost-usd'] !== undefined) parts.push(`cost ~$${m[MODEL + 'cost-usd'].toFixed(2)}`)
  return `models: ${parts.join(' | ')}`
}

function fromEarlier(n: number): string {
  return n === 0 ? '' : n === 1 ? ', 1 from an earlier session' : `, ${n} from earlier sessions`
}

function hours(sec: number): string {
  return (sec / 3600).toFixed(2)
}

function clock(sec: number): string {
  const s = Math.round(sec)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}
