// The progress reducer and its view, pure: events in, state and lines out. Covers one session,
// a record-failed message in both forms (toLine() with the code first, and the bare message of
// older progress files), and resumed runs, whose earlier sessions' warnings and errors stay in
// view until the record they are about ends again.
import { describe, expect, it } from 'vitest'
import { applyProgress, emptyProgress, etaSeconds, processedSeconds, throughput, type ProgressEvent, type ProgressState } from '../../src/run/progress-events.ts'
import { renderProgress } from '../../src/run/progress-view.ts'

const T0 = Date.UTC(2026, 0, 1)
const at = (sec: number) => new Date(T0 + sec * 1000).toISOString()
const reduce = (events: ProgressEvent[]) => events.reduce(applyProgress, emptyProgress())

const start = (sec: number, doneRecords = 0, doneSeconds = 0, doneItems: Record<string, number> = {}): ProgressEvent => ({ t: 'run-start', at: at(sec), pid: 42, name: 'demo', totalRecords: 3, totalSeconds: 3600, doneRecords, doneSeconds, doneItems })
const recStart = (sec: number, recordId: string): ProgressEvent => ({ t: 'record-start', at: at(sec), recordId, index: 0, durationSec: 1200 })
const progress = (sec: number, recordId: string, seconds: number, items: Record<string, number> = {}): ProgressEvent => ({ t: 'record-progress', at: at(sec), recordId, seconds, items })
const done = (sec: number, recordId: string, seconds = 1200, items: Record<string, number> = { window: 120 }): ProgressEvent => ({ t: 'record-done', at: at(sec), recordId, seconds, items, wallMs: 1000 })
const failed = (sec: number, recordId: string, message: string, code = 'E_FILE_MISSING'): ProgressEvent => ({ t: 'record-failed', at: at(sec), recordId, code, message })
const warning = (sec: number, recordId: string | undefined, code: string, message: string): ProgressEvent => ({ t: 'warning', at: at(sec), ...(recordId ? { recordId } : {}), code, message })
const end = (sec: number, status: 'finished' | 'failed' | 'interrupted'): ProgressEvent => ({ t: 'run-end', at: at(sec), status, done: 0, failed: 0, wallMs: 0 })

describe('applyProgress: one session', () => {
  const cases: { name: string; events: ProgressEvent[]; want: Partial<ProgressState> }[] = [
    { name: 'nothing yet', events: [], want: { name: '', doneRecords: 0, failedRecords: 0, ended: null } },
    { name: 'a run-start carries what earlier sessions finished', events: [start(0, 1, 1200, { window: 120 })], want: { name: 'demo', pid: 42, startedAt: T0, now: T0, doneRecords: 1, doneSeconds: 1200, sessionSeconds: 0, items: { window: 120 } } },
    { name: 'progress counts toward this session, not done', events: [start(0), recStart(1, 'a'), progress(2, 'a', 300), progress(3, 'a', 500)], want: { doneRecords: 0, doneSeconds: 0, sessionSeconds: 500, now: T0 + 3000 } },
    { name: 'done adds the rest of the record and its items', events: [start(0), recStart(1, 'a'), progress(2, 'a', 500), done(4, 'a')], want: { doneRecords: 1, doneSeconds: 1200, sessionSeconds: 1200, items: { window: 120 } } },
    { name: 'progress of a record that did not start is ignored', events: [start(0), progress(2, 'x', 500)], want: { sessionSeconds: 0 } },
    { name: 'failed', events: [start(0), recStart(1, 'a'), failed(2, 'a', 'E_FILE_MISSING: record a: stage read: /d/a.edf: file not found')], want: { failedRecords: 1, errors: [{ recordId: 'a', code: 'E_FILE_MISSING', message: 'stage read: /d/a.edf: file not found' }] } },
    { name: 'failed, message of an older file (no code in it)', events: [start(0), failed(2, 'a', '/d/a.edf: file not found')], want: { errors: [{ recordId: 'a', code: 'E_FILE_MISSING', message: '/d/a.edf: file not found' }] } },
    { name: 'a warning keeps its record, a run warning has none', events: [start(0), warning(1, 'a', 'W_UNIT', 'unit "x" is unknown'), warning(2, undefined, 'W_RUN', 'slow disk')], want: { warnings: [{ recordId: 'a', code: 'W_UNIT', message: 'unit "x" is unknown' }, { code: 'W_RUN', message: 'slow disk' }] } },
    { name: 'run-end clears records in flight', events: [start(0), recStart(1, 'a'), progress(2, 'a', 100), end(3, 'interrupted')], want: { ended: 'interrupted' } },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const s = reduce(c.events)
      expect(s).toMatchObject(c.want)
      if (c.want.ended) expect(s.active.size).toBe(0)
    })
  }
})

describe('processedSeconds, throughput, etaSeconds', () => {
  const cases: { name: string; events: ProgressEvent[]; processed: number; rate: number; eta: number | null }[] = [
    { name: 'before any progress', events: [start(0)], processed: 0, rate: 0, eta: null },
    { name: '600 s of signal in 10 s, one record in flight', events: [start(0), recStart(0, 'a'), progress(10, 'a', 600)], processed: 600, rate: 60, eta: 50 },
    { name: 'an earlier session counts as processed, not in the rate', events: [start(0, 1, 1200), recStart(0, 'b'), progress(20, 'b', 600)], processed: 1800, rate: 30, eta: 60 },
    { name: 'a finished run has no ETA', events: [start(0), recStart(0, 'a'), done(10, 'a', 3600), end(10, 'finished')], processed: 3600, rate: 360, eta: null },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const s = reduce(c.events)
      expect(processedSeconds(s)).toBe(c.processed)
      expect(throughput(s)).toBe(c.rate)
      expect(etaSeconds(s)).toBe(c.eta)
    })
  }
})

describe('two sessions: a resumed run keeps what earlier sessions said', () => {
  // Session 1: a is done with a warning, b warns and fails, c is never reached.
  const first: ProgressEvent[] = [
    start(0), recStart(1, 'a'), warning(2, 'a', 'W_UNIT', 'unit of a'), done(3, 'a'),
    recStart(4, 'b'), warning(5, 'b', 'W_UNIT', 'unit of b'), failed(6, 'b', 'E_TRUNCATED: record b: b.edf: cut short', 'E_TRUNCATED'), warning(7, undefined, 'W_RUN', 'slow disk'), end(8, 'failed'),
  ]
  const resumed = start(100, 1, 1200, { window: 120 })
  const cases: { name: string; events: ProgressEvent[]; want: Partial<ProgressState>; lines: string[] }[] = [
    {
      name: 'resumed, b not redone yet: earlier warnings and b\'s error stay, marked',
      events: [...first, resumed],
      want: { doneRecords: 1, failedRecords: 1, sessionSeconds: 0, ended: null },
      lines: [
        'warnings (3, 3 from earlier sessions):', '  (earlier session) a: W_UNIT: unit of a', '  (earlier session) b: W_UNIT: unit of b', '  (earlier session) W_RUN: slow disk',
        'errors (1, 1 from an earlier session):', '  (earlier session) b: E_TRUNCATED: b.edf: cut short',
      ],
    },
    {
      name: 'b redone and done: its earlier warning and error are gone, not counted twice',
      events: [...first, resumed, recStart(101, 'b'), warning(102, 'b', 'W_UNIT', 'unit of b'), done(103, 'b')],
      want: { doneRecords: 2, failedRecords: 0, errors: [] },
      lines: ['warnings (3, 2 from earlier sessions):', '  (earlier session) a: W_UNIT: unit of a', '  (earlier session) W_RUN: slow disk', '  b: W_UNIT: unit of b'],
    },
    {
      name: 'b fails again: one error, this session\'s',
      events: [...first, resumed, recStart(101, 'b'), failed(102, 'b', 'E_TRUNCATED: record b: b.edf: still cut short', 'E_TRUNCATED'), end(103, 'failed')],
      want: { doneRecords: 1, failedRecords: 1 },
      lines: ['warnings (2, 2 from earlier sessions):', '  (earlier session) a: W_UNIT: unit of a', '  (earlier session) W_RUN: slow disk', 'errors (1):', '  b: E_TRUNCATED: b.edf: still cut short'],
    },
    {
      name: 'a third session keeps the first one\'s warnings too',
      events: [...first, resumed, end(101, 'interrupted'), start(200, 1, 1200)],
      want: { doneRecords: 1, failedRecords: 1 },
      lines: ['warnings (3, 3 from earlier sessions):', '  (earlier session) a: W_UNIT: unit of a', '  (earlier session) b: W_UNIT: unit of b', '  (earlier session) W_RUN: slow disk', 'errors (1, 1 from an earlier session):', '  (earlier session) b: E_TRUNCATED: b.edf: cut short'],
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const s = reduce(c.events)
      expect(s).toMatchObject(c.want)
      const lines = renderProgress(s)
      expect(lines.slice(lines.findIndex((l) => /^(warnings|errors) \(/.test(l)))).toEqual(c.lines)
    })
  }
})

describe('renderProgress', () => {
  it('the whole view of a running session: counts, signal, rate, ETA, items, records in flight', () => {
    const s = reduce([start(0, 1, 1200, { window: 120 }), recStart(0, 'b'), progress(600, 'b', 600, { window: 60 }), warning(600, 'b', 'W_UNIT', 'unit of b')])
    expect(renderProgress(s)).toEqual([
      'run demo: running | records 1/3 done, 1 in progress',
      'signal 0.50 of 1.00 h | 1x real time | elapsed 0:10:00 | ETA 0:30:00',
      'items window 180',
      '  b: 0.17 / 0.33 h',
      'warnings (1):',
      '  b: W_UNIT: unit of b',
    ])
  })

  it('model counters: finished records\' work plus the records in flight, on a line of their own', () => {
    const work = { 'model:calls': 10, 'model:cached': 4, 'model:tokens-in': 5000, 'model:tokens-out': 90, 'model:cost-usd': 0.25, 'model:in-flight': 0 }
    const s = reduce([start(0), recStart(0, 'a'), { ...done(10, 'a', 1200, { qa: 14, prediction: 14 }), work } as ProgressEvent, recStart(10, 'b'),
      progress(20, 'b', 60, { qa: 3, 'model:calls': 2, 'model:in-flight': 3, 'model:retried': 1, 'model:failed': 1, 'model:tokens-in': 700, 'model:tokens-out': 20, 'model:cost-usd': 0.05 })])
    const lines = renderProgress(s)
    expect(lines).toContain('items prediction 14, qa 17')
    expect(lines).toContain('models: calls 12 done | 3 in flight | 1 retried | 4 cached | 1 failed | tokens in 5700, out 110 | cost ~$0.30')
  })

  it('no model line without model counters', () => {
    expect(renderProgress(reduce([start(0), recStart(0, 'a'), progress(5, 'a', 60, { window: 6, 'video-frame': 30 })])).join('\n')).not.toContain('models:')
  })

  it('prints each error code once, whichever form the event message has', () => {
    for (const message of ['E_FILE_MISSING: record m: stage read: /d/m.edf: file not found', 'stage read: /d/m.edf: file not found']) {
      const lines = renderProgress(reduce([start(0), failed(1, 'm', message), end(2, 'failed')]))
      expect(lines[0]).toBe('run demo: failed | records 0/3 done, 1 failed')
      expect(lines.slice(-2)).toEqual(['errors (1):', '  m: E_FILE_MISSING: stage read: /d/m.edf: file not found'])
    }
  })

  it('shows the last maxMessages messages under the full count', () => {
    const s = reduce([start(0), ...[1, 2, 3].map((i) => warning(i, 'a', 'W_X', `w${i}`))])
    expect(renderProgress(s, { maxMessages: 2 }).slice(-3)).toEqual(['warnings (3):', '  a: W_X: w2', '  a: W_X: w3'])
  })
})
