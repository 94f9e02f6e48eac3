// Text rendering of a progress state, shared by `pipeline run` and `pipeline tail`.
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
  for (const a of s.active.values()) for (const [k, n] of Object.entries(a.items)) items[k] = (items[k] ?? 0) + n
  const kinds = Object.keys(items).sort()
  lines.push(`items ${kinds.length ? kinds.map((k) => `${k} ${items[k]}`).join(', ') : '(none yet)'}`)
  for (const [id, a] of s.active) lines.push(`  ${id}: ${hours(a.seconds)} / ${hours(a.durationSec)} h`)
  if (s.warnings.length) {
    lines.push(`warnings (${s.warnings.length}):`)
    for (const w of s.warnings.slice(-max)) lines.push(`  ${w.recordId ? `${w.recordId}: ` : ''}${w.code}: ${w.message}`)
  }
  if (s.errors.length) {
    lines.push(`errors (${s.errors.length}):`)
    for (const e of s.errors.slice(-max)) lines.push(`  ${e.recordId}: ${e.code}: ${e.message}`)
  }
  return lines
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
