// Every gold of the MIT-BIH benchmark recomputed by an independent path (issue 13, "Structured
// gold"): pipelines/bench-mitdb.yaml's items over the four bundled records (100, 101, 208 as
// WFDB, 102 as EDF+), each checked against facts recomputed in test/helpers/qa-recompute.ts from
// the reference annotations read at the format level, never through src/qa, src/excerpts or the
// summary trackers of src/dsp. The reference decides the gold: only the stretches it marks
// unreadable itself are left out; the quality stage's flags (quality.ndjson) may keep a tile
// from being chosen, and no excerpt asked about overlaps one, but they change no fact.
// The run is the dataset without its render stages (the qa stage then requires no inputs): the
// items are those of the full benchmark but for `inputs` and `from`, which
// test/e2e/qa-benchmark.test.ts checks against the rendered run.
// Problems are collected and printed together (item id, what differs, the beats around it), so
// one run of the test shows every disagreement.
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { QaItem } from '../../src/core/items.ts'
import { aamiClass } from '../../src/formats/aami-classes.ts'
import { ndjson, runBench } from '../helpers/qa-run.ts'
import { AVG_BEATS, RHYTHM_EVENTS, diagnosisOf, extremeIndex, factsOf, figuresOf, readEdfReference, readWfdbReference, unreadableSpans, type Facts, type Reference } from '../helpers/qa-recompute.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const work = tmpDir('hp-qa-consistency-')

interface Quality {
  recordId: string
  startSample: number
  endSample: number
  leads: { flags: string[] }[]
}

// The unreadable stretches of a reference and, for what the excerpt rule skips, the flagged windows.
type Spans = Map<string, [number, number][]>
const TASKS = [
  'closed_presence', 'closed_event_counting', 'closed_event_timing', 'closed_HR_extremum_timing', 'closed_diagnosis',
  'open_event_counting', 'open_HR_extremum_timing', 'open_event_timing', 'open_diagnosis', 'open_evidence_reasoning',
  'report_statistical_overview', 'report_general_summary',
]

const numbers = (s: string) => (s.match(/\d+/g) ?? []).map(Number)

describe('qa gold recomputed from the reference annotations (bench-mitdb, all records)', () => {
  let items: QaItem[]
  let refs: Map<string, Reference>
  let flagged: Spans
  let unreadable: Spans
  const checked = new Map<string, number>()
  const asked = new Map<string, number>()
  const problems: string[] = []

  beforeAll(async () => {
    const run = await runBench(work, 'bench', { render: false })
    items = ndjson<QaItem>(path.join(run, 'qa.ndjson'))
    refs = new Map([
      ['100', readWfdbReference(path.join(ROOT, 'samples/mitdb/100'))],
      ['101', readWfdbReference(path.join(ROOT, 'samples/mitdb/101'))],
      ['208', readWfdbReference(path.join(ROOT, 'samples/mitdb/208'))],
      ['102', await readEdfReference(path.join(ROOT, 'samples/edf/mitdb102.edf'))],
    ])
    // Artifact periods: only the stretches the reference marks unreadable. The windows the
    // quality stage flagged are kept apart: they change no fact, only which tiles are chosen.
    unreadable = new Map([...refs].map(([id, ref]) => [id, unreadableSpans(ref)]))
    flagged = new Map()
    for (const q of ndjson<Quality>(path.join(run, 'quality.ndjson'))) {
      if (!q.leads.some((l) => l.flags.length)) continue
      flagged.set(q.recordId, [...(flagged.get(q.recordId) ?? []), [q.startSample, q.endSample]])
    }
  }, 120_000)

  it('reads the same reference annotations as the run (102 from its EDF+ TALs)', () => {
    // The run's annotation items come from the read stage; the format-level readers here must agree on every one.
    const run = ndjson<{ recordId: string; sample: number; symbol: string; aux: string }>(path.join(work, 'bench', 'annotation.ndjson'))
    for (const [id, ref] of refs) {
      const mine = ref.annotations.map((a) => `${a.sample} ${a.symbol} ${a.aux}`)
      expect(run.filter((a) => a.recordId === id).map((a) => `${a.sample} ${a.symbol} ${a.aux}`), id).toEqual(mine)
    }
  })

  it('checks every item against the recomputed facts', () => {
    const factsCache = new Map<string, Facts>()
    const factsFor = (q: QaItem) => {
      let f = factsCache.get(q.excerpt.id)
      if (!f) factsCache.set(q.excerpt.id, (f = factsOf(refs.get(q.recordId)!, q.excerpt, unreadable.get(q.recordId) ?? [])))
      return f
    }
    for (const q of items) {
      const f = factsFor(q)
      const before = problems.length
      const bad = (what: string) => problems.push(`${q.id}: ${what}`)
      const same = (what: string, got: unknown, want: unknown) => {
        if (JSON.stringify(got) !== JSON.stringify(want)) bad(`${what}: gold ${JSON.stringify(got)}, recomputed ${JSON.stringify(want)}`)
      }
      const g = q.gold
      const ev = g.event ? f.events.get(g.event) : undefined
      const evBeats = ev ? ev.occurrences.flatMap((o) => o.beats) : []
      const times = ev ? ev.occurrences.map((o) => o.timeMs) : []
      const beatAtMs = (t: number) => f.beats.findIndex((b) => Math.round(b.timeMs) === t)
      const rhythmEvent = RHYTHM_EVENTS.some(([name]) => name === g.event)
      const closed = () => {
        if (!g.choices || g.correct === undefined) return bad('no choices/correct')
        if (new Set(g.choices).size !== g.choices.length) bad(`options not distinct: ${JSON.stringify(g.choices)}`)
      }

      // Everything the item points at lies inside its excerpt.
      for (const s of g.evidenceBeats) if (s < q.excerpt.startSample || s >= q.excerpt.endSample) bad(`evidence beat ${s} outside the excerpt`)
      const stamps = [...(g.timestampsMs ?? []), ...(q.taskType.includes('HR_extremum') ? [g.value as number, ...(g.choices ?? []).flatMap(numbers)] : []), ...(q.taskType === 'closed_event_timing' ? g.choices!.flatMap(numbers) : [])]
      for (const t of stamps) if (t < q.excerpt.startMs || t > q.excerpt.endMs) bad(`timestamp ${t} outside the excerpt ${q.excerpt.startMs}-${q.excerpt.endMs}`)
      if (q.startSample !== q.excerpt.startSample || q.endSample !== q.excerpt.endSample) bad('item span differs from its excerpt')

      switch (q.taskType) {
        case 'closed_presence':
        case 'open_evidence_reasoning': {
          same('value', g.value, ev ? 'yes' : 'no')
          same('evidenceBeats', g.evidenceBeats, evBeats)
          if (g.choices) {
            closed()
            same('choice', g.choices[g.correct!], ev ? 'Yes' : 'No')
          }
          break
        }
        case 'closed_event_counting':
        case 'open_event_counting': {
          if (ev?.boundary) bad('counts an event whose episode began before the excerpt')
          same('count', g.value, ev?.occurrences.length ?? 0)
          same('evidenceBeats', g.evidenceBeats, evBeats)
          if (q.taskType === 'closed_event_counting') {
            closed()
            if (g.choices!.length !== 4) bad(`${g.choices!.length} options`)
            same('chosen option', Number(g.choices![g.correct!]), ev?.occurrences.length ?? 0)
          }
          break
        }
        case 'closed_event_timing':
        case 'open_event_timing': {
          // Open timing is asked of excerpts without the event too (its pair's absent half): no times.
          if (ev?.boundary || (!ev && q.taskType === 'closed_event_timing')) {
            bad('timing of an absent event or one begun before the excerpt')
            break
          }
          same('timestampsMs', g.timestampsMs, times)
          // Open: the count; closed (asked only where the event occurs once): its time.
          same('value', g.value, q.taskType === 'closed_event_timing' ? times[0] : times.length)
          same('evidenceBeats', g.evidenceBeats, evBeats)
          if (q.taskType === 'closed_event_timing') {
            closed()
            if (times.length !== 1) bad(`a closed timing item about an event that occurs ${times.length} times`)
            if (g.choices!.length !== 4) bad(`${g.choices!.length} options`)
            same('chosen option', numbers(g.choices![g.correct!]), times)
            g.choices!.forEach((c) => {
              const list = numbers(c)
              if (list.length !== times.length) bad(`option "${c}" lists ${list.length} times, the event has ${times.length}`)
              if (rhythmEvent) bad('a closed timing item about a rhythm event (its onset is no beat)')
              for (const t of list) if (beatAtMs(t) < 0) bad(`option "${c}": ${t} is not the time of a kept beat of the excerpt`)
            })
            // No two options are neighbouring beats (their spacing would show the premature beat).
            const at = g.choices!.map((c) => beatAtMs(numbers(c)[0])).sort((a, b) => a - b)
            for (let k = 1; k < at.length; k++) if (at[k] - at[k - 1] < 2) bad(`options at neighbouring beats ${at[k - 1]} and ${at[k]}`)
          }
          break
        }
        case 'closed_HR_extremum_timing':
        case 'open_HR_extremum_timing': {
          const fastest = g.extremum === 'fastest'
          // The basis the item names: the 8-interval average, or one beat's RR interval (in samples).
          const beat = g.basis === 'beat'
          const rate = beat ? f.beats.map((b, i) => (i > 0 && !b.afterBreak && b.sample > f.beats[i - 1].sample ? (60 * f.fs) / (b.sample - f.beats[i - 1].sample) : NaN)) : f.hr
          const span = beat ? 1 : AVG_BEATS
          let best = -1
          for (let i = 0; i < rate.length; i++) if (Number.isFinite(rate[i]) && (best < 0 || (fastest ? rate[i] > rate[best] : rate[i] < rate[best]))) best = i
          if (best < 0) {
            bad('no rate in the excerpt')
            break
          }
          same('extremum time', g.value, Math.round(f.beats[best].timeMs))
          same('bpm', g.bpm, Math.round(rate[best] * 10) / 10)
          same('evidenceBeats', g.evidenceBeats, f.beats.slice(Math.max(0, best - span), best + 1).map((b) => b.sample))
          if (rate.some((r, j) => j !== best && r === rate[best])) bad('asked about an extreme that ties')
          // Every other window (interval) sharing no beat with the extreme: at least 2 bpm away (open items need it of all of them).
          const away = (j: number) => (fastest ? rate[best] - rate[j] : rate[j] - rate[best]) >= 2
          if (q.taskType === 'open_HR_extremum_timing') {
            for (let j = 0; j < rate.length; j++) if (Number.isFinite(rate[j]) && Math.abs(j - best) > span && !away(j)) bad(`open item but the moment at ${Math.round(f.beats[j].timeMs)} ms (${rate[j].toFixed(2)} bpm) is within 2 bpm of ${rate[best].toFixed(2)}`)
            break
          }
          closed()
          if (g.choices!.length !== 4) bad(`${g.choices!.length} options`)
          same('chosen option', g.choices![g.correct!], `${Math.round(f.beats[best].timeMs)} ms`)
          g.choices!.forEach((c, k) => {
            if (k === g.correct) return
            const j = beatAtMs(numbers(c)[0])
            if (j < 0) return bad(`option "${c}" is not a beat time of the excerpt`)
            if (!Number.isFinite(rate[j])) return bad(`option "${c}" ends no ${beat ? 'interval' : 'full 8-beat window'}`)
            if (Math.abs(j - best) <= span) bad(`option "${c}" shares beats with the extreme's window`)
            if (!away(j)) bad(`option "${c}" is ${rate[j].toFixed(2)} bpm against ${rate[best].toFixed(2)}: not 2 bpm ${fastest ? 'slower' : 'faster'}`)
          })
          break
        }
        case 'closed_diagnosis': {
          closed()
          const labels = diagnosisOf(f)
          same('labels', g.labels, labels)
          if (g.choices!.length < 2 || g.choices!.length > 4) bad(`${g.choices!.length} options`)
          // Present form: the right option is the one present; absent form: the one missing.
          const present = g.design?.form !== 'absent'
          g.choices!.forEach((c, k) => {
            if (k === g.correct && labels.includes(c) !== present) bad(`right option "${c}" is ${present ? 'not present' : 'present'} (labels ${labels.join(', ') || 'none'})`)
            if (k !== g.correct && labels.includes(c) === present) bad(`other option "${c}" is ${present ? 'present too' : 'absent too'}`)
          })
          same('value', g.value, g.choices![g.correct!])
          same('evidenceBeats', g.evidenceBeats, f.events.get(g.choices![g.correct!])?.occurrences.flatMap((o) => o.beats) ?? [])
          break
        }
        case 'open_diagnosis': {
          same('labels', g.labels, [...f.events.keys()])
          same('evidenceBeats', g.evidenceBeats, [...f.events.values()].flatMap((e) => e.occurrences.flatMap((o) => o.beats)))
          break
        }
        case 'report_statistical_overview':
        case 'report_general_summary': {
          const want = figuresOf(f)
          const got = g.figures as Record<string, unknown>
          for (const k of Object.keys(want)) {
            if (k === 'rhythms') {
              // Episode ends are rounded to the ms per episode before they are summed: allow 1 ms per episode.
              const gr = got.rhythms as { rhythm: string; totalMs: number }[]
              const wr = want.rhythms as { rhythm: string; totalMs: number }[]
              same('rhythm names', gr.map((r) => r.rhythm), wr.map((r) => r.rhythm))
              const n = f.episodes.length
              gr.forEach((r, i) => wr[i] && Math.abs(r.totalMs - wr[i].totalMs) > n && bad(`rhythm ${r.rhythm}: ${r.totalMs} ms, recomputed ${wr[i].totalMs}`))
            } else same(`figures.${k}`, got[k], want[k])
          }
          break
        }
        default:
          bad(`unknown task ${q.taskType}`)
      }
      checked.set(q.taskType, (checked.get(q.taskType) ?? 0) + 1)
      if (g.event) asked.set(g.event, (asked.get(g.event) ?? 0) + 1)
      if (problems.length > before) problems.push(`  beats: ${f.beats.filter((b) => g.evidenceBeats.includes(b.sample) || stamps.some((t) => Math.abs(b.timeMs - t) < 3000)).map((b) => `${b.sample}/${Math.round(b.timeMs)}${b.symbol}${b.afterBreak ? '!' : ''}`).join(' ')}`)
    }
    console.log(`qa items checked per task: ${TASKS.map((t) => `${t} ${checked.get(t) ?? 0}`).join(', ')}`)
    console.log(`items per event asked about: ${[...asked].map(([e, n]) => `${e} ${n}`).join(', ')}`)
    expect(problems, problems.join('\n')).toEqual([])
    expect([...checked.values()].reduce((a, b) => a + b, 0)).toBe(items.length)
    expect(items.length).toBeGreaterThan(200)
    // All 12 task types occur.
    expect(TASKS.filter((t) => !checked.get(t))).toEqual([])
  })

  // The quality stage's flags only keep tiles from being chosen: no 1-minute excerpt overlaps a
  // flagged window, and a record's report still counts every beat its reference annotates
  // outside the stretches the reference marks unreadable (record 101: 1,865, not the 1,308 left
  // when the flagged windows' beats were dropped).
  it('keeps flagged windows out of the chosen tiles, never out of the gold', () => {
    for (const q of items.filter((i) => i.excerpt.set === 'qa-1min')) {
      for (const [a, b] of flagged.get(q.recordId) ?? []) expect(a < q.excerpt.endSample && b > q.excerpt.startSample, `${q.id} overlaps the flagged window ${a}-${b}`).toBe(false)
    }
    const reports = items.filter((i) => i.taskType === 'report_statistical_overview')
    expect(reports.map((q) => q.recordId).sort()).toEqual(['100', '101', '102', '208'])
    for (const q of reports) {
      const spans = unreadable.get(q.recordId) ?? []
      const annotated = refs.get(q.recordId)!.annotations.filter((a) => aamiClass(a.symbol) !== null && a.sample >= q.excerpt.startSample && a.sample < q.excerpt.endSample && !spans.some(([s, e]) => a.sample >= s && a.sample < e))
      expect((q.gold.figures as { totalBeats: number }).totalBeats, q.recordId).toBe(annotated.length)
    }
    expect(reports.find((q) => q.recordId === '101')!.gold.figures).toMatchObject({ totalBeats: 1865, excludedBeats: 0 })
  })

  // The mean and the extremes are rates of one basis (every beat, 8-interval windows): the mean
  // lies between the slowest and the fastest window on every report.
  it('states min <= mean <= max on every report', () => {
    const reports = items.filter((i) => i.taskType.startsWith('report_'))
    expect(reports.length).toBeGreaterThan(0)
    for (const q of reports) {
      const f = q.gold.figures as { meanHrBpm: number | null; maxHr: { bpm: number } | null; minHr: { bpm: number } | null }
      expect(f.meanHrBpm, q.id).not.toBeNull()
      expect(f.minHr!.bpm, q.id).toBeLessThanOrEqual(f.meanHrBpm!)
      expect(f.meanHrBpm!, q.id).toBeLessThanOrEqual(f.maxHr!.bpm)
    }
  })

  // Every closed timing option is beat times: an event timed at a rhythm annotation (Paced Rhythm
  // in record 102, its "+(P" onset between two beats) gets no closed timing item, since the one
  // option off the QRS complexes would be the truth.
  it('closed timing items offer beat times only, rhythm events included', () => {
    const off: string[] = []
    for (const q of items.filter((i) => i.taskType === 'closed_event_timing')) {
      const f = factsOf(refs.get(q.recordId)!, q.excerpt, unreadable.get(q.recordId) ?? [])
      const beatTimes = new Set(f.beats.map((b) => Math.round(b.timeMs)))
      for (const c of q.gold.choices!) for (const t of numbers(c)) if (!beatTimes.has(t)) off.push(`${q.id}: ${t}`)
    }
    expect(off).toEqual([])
  })
})
