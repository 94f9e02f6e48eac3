// The texts the generator writes, read as a person would (unit layer, with real records): the
// patient sentence in every phrasing, numbers as reports print them (thousands separators,
// shares to one decimal, never float noise), report texts that say which rate they state and
// what they leave out, and evidence texts that measure the tracing instead of citing the
// annotation the gold comes from.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import type { AnnotationItem, BeatItem, Item, RecordingItem } from '../../src/core/items.ts'
import annotate from '../../src/stages/annotate.ts'
import { absentEvidence, presentEvidence } from '../../src/qa/evidence-text.ts'
import { excerptFacts, type ExcerptFacts, type FactsBeat } from '../../src/qa/excerpt-facts.ts'
import { createFactBuffer, feedReferenceMark } from '../../src/qa/fact-buffer.ts'
import { formatCount, formatPercent, patientSentence } from '../../src/qa/phrasing.ts'
import { reportFigures, type ReportFigures } from '../../src/qa/report-figures.ts'
import { overviewText, summaryText } from '../../src/qa/report-text.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import { learnTypicalReport, reportFromFigures } from '../../src/models/baselines/prior-report.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { describeShared, ROOT, sharedPath } from '../helpers/shared.ts'

const SEEDS = Array.from({ length: 40 }, (_, i) => `s${i}`)
// Numbers as no report prints them: float noise, more than two decimals in a share, a count of
// thousands without its separator (times in ms are identifiers and keep their digits).
const NOISE = /\d\.\d{3,}%|\d\.\d{6,}|NaN|Infinity|undefined|\b\d{4,} (beats|singles|couplets|episodes|pauses)\b/

describe('patientSentence', () => {
  it('reads as English in every phrasing: a noun where a noun goes, an adjective where one does', () => {
    const seen = new Set<string>()
    for (const sex of ['M', 'F'] as const) {
      for (const s of SEEDS) {
        for (const p of [{ age: 43, sex }, { sex }, { age: 43 }, {}]) {
          const text = patientSentence(p, createSeededRandom(s))
          seen.add(text)
          expect(text).not.toMatch(/\b(man|woman) patient\b|Patient: (man|woman)\b|\ba (male|female)[,.]|\bmade on\b/)
          expect(text).toMatch(/^[A-Z].*\.$/)
        }
      }
    }
    expect(seen).toContain('This ECG comes from a male patient aged 43.')
    expect(seen).toContain('The patient is a 43-year-old man.')
    expect(seen.size).toBeGreaterThan(20)
  })
})

describe('numbers as reports print them', () => {
  it.each([
    [0, '0%'], [0.01, '<0.1%'], [0.05, '0.1%'], [0.8300000000000001, '0.8%'], [1.28, '1.3%'], [12, '12%'], [33.56, '33.6%'], [99.96, '>99.9%'], [100, '100%'],
  ])('formatPercent(%s) = %s', (x, want) => expect(formatPercent(x)).toBe(want))
  it.each([[7, '7'], [999, '999'], [1308, '1,308'], [1_234_567, '1,234,567']])('formatCount(%s) = %s', (x, want) => expect(formatCount(x)).toBe(want))

  it('the prior baseline\'s report has no float noise from its medians', () => {
    // Two train reports whose medians fall between them: 0.66 and 1.0 give 0.8300000000000001.
    const base = reportOf(stepBeats(1200, 800))
    const train = [0.66, 1.0].map((burden, i) => ({ startMs: 0, figures: { ...base, meanHrBpm: 70.15 + i * 3.1, ventricular: { ...base.ventricular, count: 10 + i, burdenPct: burden, singles: 10 + i }, supraventricular: { ...base.supraventricular, burdenPct: 0.11 + i * 0.22 } } }))
    const typical = learnTypicalReport(train)!({ startMs: 0, endMs: 1_200_000 })
    expect(typical.ventricular.burdenPct).toBe(0.83)
    expect(typical.meanHrBpm).toBe(71.7)
    for (const kind of ['overview', 'summary'] as const) {
      const text = reportFromFigures(typical, kind, 'prior')
      expect(text).not.toMatch(NOISE)
      if (kind === 'summary') expect(text).toContain('11 (0.8% of beats)')
    }
  })
})

// 1200 beats of sinus rhythm at 75 bpm with a PVC every 100 beats (fs 1000: a sample is a ms).
function stepBeats(n: number, rrMs: number): FactsBeat[] {
  const out: FactsBeat[] = []
  for (let i = 0, t = 1000; i < n; i++, t += i % 100 === 50 ? rrMs * 0.6 : i % 100 === 51 ? rrMs * 1.4 : rrMs) out.push({ sample: t, timeMs: t, label: i % 100 === 50 ? 'V' : 'N', symbol: i % 100 === 50 ? 'V' : 'N' })
  return out
}
function factsOf(beats: FactsBeat[], extra: Partial<Parameters<typeof excerptFacts>[0]> = {}): ExcerptFacts {
  const end = beats.at(-1)!.timeMs + 1000
  return excerptFacts({ excerpt: { id: 'x', startSample: 0, endSample: end, startMs: 0, endMs: end, fs: 1000 }, beats, rhythms: [], excludedBeats: 0, avgBeats: 8, ...extra }, DEFAULT_VOCABULARY)
}
function reportOf(beats: FactsBeat[]): ReportFigures {
  return reportFigures(factsOf(beats), 8)
}

// The facts of a bundled record, whole and per minute, as the qa stage computes them.
async function recordFacts(file: string): Promise<{ whole: ExcerptFacts; minutes: ExcerptFacts[] }> {
  const spec = recordSpec(path.isAbsolute(file) ? file : path.join(ROOT, file))
  const items: Item[] = (await runStage(annotate, (await readRecord(spec)).items, { record: spec })).items
  const rec = items.find((i): i is RecordingItem => i.kind === 'recording')!
  const buffer = createFactBuffer(DEFAULT_VOCABULARY, 8)
  for (const i of items) {
    if (i.kind === 'beat') buffer.beat(i as BeatItem)
    else if (i.kind === 'annotation') feedReferenceMark(buffer, i as AnnotationItem)
  }
  const span = (startSample: number, endSample: number) => ({ id: `${startSample}`, startSample, endSample, startMs: (startSample * 1000) / rec.fs, endMs: (endSample * 1000) / rec.fs, fs: rec.fs })
  const total = Math.round(rec.durationSec * rec.fs)
  const minute = 60 * rec.fs
  return { whole: buffer.facts(span(0, total), 'reference'), minutes: Array.from({ length: Math.floor(total / minute) }, (_, k) => buffer.facts(span(k * minute, (k + 1) * minute), 'reference')) }
}

describe('report texts on the bundled records', () => {
  it.each([
    { file: 'samples/mitdb/101', kinds: /2 of the 1,865 beats \(0\.1%\) are unclassifiable\./, leftOut: /marks less than a second as unreadable; that time is left out/ },
    { file: 'samples/mitdb/208', kinds: /2 of the 2,955 beats \(0\.1%\) are unclassifiable\./, leftOut: /marks 3 seconds as unreadable; that time is left out/ },
    { file: 'samples/edf/mitdb102.edf', kinds: /2,084 of the 2,187 beats \(95\.3%\) are paced\./, leftOut: null },
    { file: 'samples/mitdb/100', kinds: null, leftOut: null },
  ])('$file: says which rates it states, the beats of each kind, what is left out', async ({ file, kinds, leftOut }) => {
    const { whole } = await recordFacts(file)
    const f = reportFigures(whole, 8)
    expect(f.minHr!.bpm).toBeLessThanOrEqual(f.meanHrBpm!)
    expect(f.meanHrBpm!).toBeLessThanOrEqual(f.maxHr!.bpm)
    for (const s of SEEDS.slice(0, 12)) {
      for (const text of [overviewText(f, createSeededRandom(s)), summaryText(f, createSeededRandom(s))]) {
        expect(text).not.toMatch(NOISE)
        expect(text).toMatch(/8-beat average|Averaged over 8 beats/)
        expect(text).toContain(`${Math.round(f.maxHr!.bpm)} bpm at ${f.maxHr!.timeMs} ms`)
        if (kinds) expect(text).toMatch(kinds)
        else expect(text).not.toMatch(/unclassifiable|paced\./)
        if (leftOut) expect(text).toMatch(leftOut)
        else expect(text).not.toMatch(/unreadable/)
      }
    }
  })
})

describeShared('report texts on Icentia11k (many unclassifiable beats)', () => {
  it('p00000_s00 and s01 state their unclassifiable beats', async () => {
    for (const [id, want] of [['p00000_s00', '244 of the 6,885 beats (3.5%) are unclassifiable.'], ['p00000_s01', '344 of the 6,768 beats (5.1%) are unclassifiable.']]) {
      const f = reportFigures((await recordFacts(sharedPath(`data/icentia11k/${id}`))).whole, 8)
      expect(f.minHr!.bpm).toBeLessThanOrEqual(f.meanHrBpm!)
      expect(f.meanHrBpm!).toBeLessThanOrEqual(f.maxHr!.bpm)
      for (const s of SEEDS.slice(0, 6)) expect(overviewText(f, createSeededRandom(s))).toContain(want)
    }
  }, 60_000)
})

describe('evidence texts', () => {
  it('measure the tracing on every event and absence of every minute of the bundled records, never citing the annotation', async () => {
    let present = 0
    let rhythmTexts = 0
    for (const file of ['samples/mitdb/100', 'samples/mitdb/101', 'samples/mitdb/208', 'samples/edf/mitdb102.edf']) {
      for (const facts of (await recordFacts(file)).minutes) {
        for (const e of facts.events) {
          const text = presentEvidence(facts, e)
          present++
          expect(text, `${file} ${facts.startMs} ${e.name}`).not.toMatch(/annotation|NaN|Infinity|undefined|\bthey comes\b|\bit come\b/)
          expect(text).not.toMatch(NOISE)
          expect(text).toMatch(/\d/)
          if (e.kind === 'rhythm') {
            rhythmTexts++
            expect(text).toMatch(/ventricular rate is \d+ bpm and the RR intervals vary with a coefficient of variation of [\d.]+%/)
          }
        }
        for (const name of ['Sinus Tachycardia', 'Atrial Fibrillation', 'Sinus Pause']) {
          if (facts.events.some((e) => e.name === name)) continue
          const text = absentEvidence(facts, name)
          expect(text).not.toMatch(/annotation|NaN|Infinity|undefined/)
          if (name === 'Sinus Tachycardia') expect(text).toMatch(/held for 30 s, the 8-beat average rate reaches at most \d+ bpm, not above 100 bpm|no 30 s stretch in sinus rhythm/)
        }
      }
    }
    expect(present).toBeGreaterThan(50)
    expect(rhythmTexts).toBeGreaterThan(0) // paced rhythm in record 102
  }, 60_000)

  it('tells atrial fibrillation by its irregular RR intervals', () => {
    // Irregular intervals of 450-1050 ms for a minute, annotated AFIB from before the excerpt.
    const beats: FactsBeat[] = []
    for (let t = 500, k = 0; t < 60_000; k++, t += 450 + ((k * 7919) % 600)) beats.push({ sample: t, timeMs: t, label: 'N', symbol: 'N' })
    const f = factsOf(beats, { rhythms: [{ rhythm: 'AFIB', startSample: 0, startMs: 0, endSample: Infinity, endMs: Infinity }] })
    const text = presentEvidence(f, f.events.find((e) => e.name === 'Atrial Fibrillation')!)
    const m = /^it runs throughout the excerpt; over (\d+) intervals the ventricular rate is (\d+) bpm and the RR intervals vary with a coefficient of variation of ([\d.]+)%, ([\d.]+)% of successive intervals differing by more than 50 ms$/.exec(text)
    expect(m, text).not.toBeNull()
    const [intervals, rate, cv, differ] = m!.slice(1).map(Number)
    expect(intervals).toBe(beats.length - 1)
    expect(rate).toBe(Math.round((60_000 * intervals) / (beats.at(-1)!.timeMs - beats[0].timeMs)))
    expect(cv).toBeGreaterThan(15) // sinus rhythm varies by a few percent
    expect(differ).toBeGreaterThan(80)
  })

  it('says a single early beat is "it", several "they"', () => {
    const one = factsOf(stepBeats(90, 800))
    expect(presentEvidence(one, one.events.find((e) => e.name === 'Premature Ventricular Contraction')!)).toMatch(/^1 beat of this kind, at \d+ ms; it comes early: 480 ms after the beat before, against 800 ms for the interval before that \(40% early\); the interval after it is 1120 ms/)
    const two = factsOf(stepBeats(190, 800))
    expect(presentEvidence(two, two.events.find((e) => e.name === 'Premature Ventricular Contraction')!)).toMatch(/^2 beats of this kind, the first at \d+ ms; they come early: a median of 480 ms/)
  })
})
