// The lines of `progress.ndjson` and the pure reducer that turns them into the live view shown
// by `pipeline run` and `pipeline tail` (design.md "Progress"). Both commands read the same
// events, so what a second terminal shows is exactly what the run shows.
// A resumed run appends a session to the same file: a run-start begins the new session's counts,
// but the warnings and errors of earlier sessions stay in the view, marked `earlier`, until the
// record they are about is done or fails again in this session (a record redone must not count
// twice). A record-failed message is `err.toLine()`, which starts with the code (and the record)
// that the event also carries; older files may hold the bare message: both are kept bare here.

export type ProgressEvent =
  | { t: 'run-start'; at: string; pid: number; name: string; totalRecords: number; totalSeconds: number; doneRecords: number; doneSeconds: number; doneItems: Record<string, number> }
  | { t: 'record-start'; at: string; recordId: string; index: number; durationSec: number }
  | { t: 'record-progress'; at: string; recordId: string; seconds: number; items: Record<string, number> }
  | { t: 'record-done'; at: string; recordId: string; seconds: number; items: Record<string, number>; work?: Record<string, number>; wallMs: number }
  | { t: 'record-failed'; at: string; recordId: string; code: string; message: string }
  | { t: 'warning'; at: string; recordId?: string; code: string; message: string }
  | { t: 'run-end'; at: string; status: 'finished' | 'failed' | 'interrupted'; done: number; failed: number; wallMs: number }

export interface ProgressState {
  name: string
  pid: number
  startedAt: number
  now: number
  totalRecords: number
  totalSeconds: number
  doneRecords: number
  /** Records whose latest attempt failed, in this session or (not redone yet) an earlier one. */
  failedRecords: number
  /** Signal seconds of finished records (this session and earlier ones). */
  doneSeconds: number
  /** Signal seconds processed by this session, finished or not (for throughput). */
  sessionSeconds: number
  active: Map<string, { seconds: number; durationSec: number; items: Record<string, number> }>
  items: Record<string, number>
  /** What the stages of this session's finished records counted (ctx.count): model calls, tokens, cost. */
  work: Record<string, number>
  warnings: { recordId?: string; code: string; message: string; earlier?: boolean }[]
  /** One per failed record (the latest failure), this session's and earlier ones' (`earlier`). */
  errors: { recordId: string; code: string; message: string; earlier?: boolean }[]
  ended: null | 'finished' | 'failed' | 'interrupted'
}

/** The state before any event. */
export function emptyProgress(): ProgressState {
  return { name: '', pid: 0, startedAt: 0, now: 0, totalRecords: 0, totalSeconds: 0, doneRecords: 0, failedRecords: 0, doneSeconds: 0, sessionSeconds: 0, active: new Map(), items: {}, work: {}, warnings: [], errors: [], ended: null }
}

/** Applies one event (mutates and returns `s`; a run-start begins a new session view, keeping earlier warnings and errors). */
export function applyProgress(s: ProgressState, e: ProgressEvent): ProgressState {
  const at = Date.parse(e.at)
  s.now = Math.max(s.now, at)
  switch (e.t) {
    case 'run-start': {
      const warnings = s.warnings.map((w) => ({ ...w, earlier: true }))
      const errors = s.errors.map((x) => ({ ...x, earlier: true }))
      Object.assign(s, emptyProgress(), { name: e.name, pid: e.pid, startedAt: at, now: at, totalRecords: e.totalRecords, totalSeconds: e.totalSeconds, doneRecords: e.doneRecords, doneSeconds: e.doneSeconds, items: { ...e.doneItems }, warnings, errors, failedRecords: errors.length })
      break
    }
    case 'record-start':
      s.active.set(e.recordId, { seconds: 0, durationSec: e.durationSec, items: {} })
      break
    case 'record-progress': {
      const a = s.active.get(e.recordId)
      if (a) {
        s.sessionSeconds += e.seconds - a.seconds
        a.seconds = e.seconds
        a.items = e.items
      }
      break
    }
    case 'record-done': {
      const a = s.active.get(e.recordId)
      s.sessionSeconds += e.seconds - (a?.seconds ?? 0)
      s.active.delete(e.recordId)
      supersede(s, e.recordId)
      s.doneRecords++
      s.doneSeconds += e.seconds
      for (const [k, n] of Object.entries(e.items)) s.items[k] = (s.items[k] ?? 0) + n
      for (const [k, n] of Object.entries(e.work ?? {})) s.work[k] = (s.work[k] ?? 0) + n
      break
    }
    case 'record-failed':
      s.active.delete(e.recordId)
      supersede(s, e.recordId)
      s.errors.push({ recordId: e.recordId, code: e.code, message: bareMessage(e.code, e.message, e.recordId) })
      s.failedRecords = s.errors.length
      break
    case 'warning':
      s.warnings.push({ recordId: e.recordId, code: e.code, message: bareMessage(e.code, e.message, e.recordId) })
      break
    case 'run-end':
      s.ended = e.status
      s.active.clear()
      break
  }
  return s
}

/** Drops what earlier sessions said about a record that has now ended again. */
function supersede(s: ProgressState, recordId: string): void {
  s.warnings = s.warnings.filter((w) => !(w.earlier && w.recordId === recordId))
  s.errors = s.errors.filter((x) => x.recordId !== recordId)
  s.failedRecords = s.errors.length
}

/** A message without the code and record that toLine() puts first (the event carries both). */
export function bareMessage(code: string, message: string, recordId?: string): string {
  let m = message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message
  if (recordId && m.startsWith(`record ${recordId}: `)) m = m.slice(`record ${recordId}: `.length)
  return m
}

/** Seconds of signal processed so far, counting records in flight. */
export function processedSeconds(s: ProgressState): number {
  let sec = s.doneSeconds
  for (const a of s.active.values()) sec += a.seconds
  return sec
}

/** Signal seconds per wall second in this session (x real time), or 0 before any progress. */
export function throughput(s: ProgressState): number {
  const wall = (s.now - s.startedAt) / 1000
  return wall > 0 ? s.sessionSeconds / wall : 0
}

/** Estimated wall seconds left, or null when unknown. */
export function etaSeconds(s: ProgressState): number | null {
  const rate = throughput(s)
  if (s.ended || rate <= 0 || s.totalSeconds <= 0) return null
  return Math.max(0, s.totalSeconds - processedSeconds(s)) / rate
}
