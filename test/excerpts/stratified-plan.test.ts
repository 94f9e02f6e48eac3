// The `stratified` excerpt rule (unit layer over a synthetic stream, stage layer on the bundled
// record 208) and the `whole` rule: tiles of `length` from a seeded offset, never across a gap or
// over an artifact (unless allowed), perHour per hour of tiles per horizon, the rarest events
// covered first, decisions only once the watermark has passed, and the watermark passed on never
// above an excerpt still to come.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ExcerptItem, Item, QualityItem } from '../../src/core/items.ts'
import { stratifiedPlan, type StratifiedOptions } from '../../src/excerpts/stratified-plan.ts'
import { wholePlan, type Span } from '../../src/excerpts/excerpt-plans.ts'
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import type { FactsBeat } from '../../src/qa/excerpt-facts.ts'
import { DEFAULT_VOCABULARY } from '../../src/qa/vocabulary.ts'
import excerpt from '../../src/stages/excerpt.ts'
import annotate from '../../src/stages/annotate.ts'
import quality from '../../src/stages/quality.ts'
import { readRecord, recordSpec, recordingOf } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { ROOT } from '../helpers/shared.ts'
import { watermarkViolations } from '../helpers/watermarks.ts'

// 100 Hz, tiles of 10 s, horizons of 10 tiles; a beat every 80 samples (75 bpm, no rate event).
const FS = 100
const LENGTH = 1000
const HORIZON = 10_000
const base = (o: Partial<StratifiedOptions> = {}): StratifiedOptions => ({ length: LENGTH, horizon: HORIZON, perHour: 144, fs: FS, seed: 's', allowArtifacts: false, source: 'reference', avgBeats: 8, vocab: DEFAULT_VOCABULARY, ...o })
const offsetOf = (seed: string, length = LENGTH) => createSeededRandom(seed).below(length)
// perHour for a quota of q tiles out of a horizon of 10 (quota = round(perHour x 10 x 1000 / 360000)).
const perHourFor = (q: number) => q * 36

interface Stream {
  total: number
  labels: Map<number, string>
  rhythms: { sample: number; rhythm: string | null }[]
  artifacts: [number, number][]
  gaps: number[]
}
const stream = (total: number, s: Partial<Stream> = {}): Stream => ({ total, labels: new Map(), rhythms: [], artifacts: [], gaps: [], ...s })
// The beat nearest `sample`.
const beatNear = (sample: number) => 40 + 80 * Math.round((sample - 40) / 80)
const tileStart = (offset: number, chunk: number, k: number) => offset + chunk * HORIZON + k * LENGTH

interface Fed {
  spans: Span[]
  /** Each due() call: the watermark, the spans it returned and lowest() after it. */
  steps: { w: number; spans: Span[]; lowest: number }[]
  ended: Span[]
}

// Feeds the stream in position order, everything positioned before a watermark before due(w)
// (the watermark contract), then ends the record.
function drive(o: StratifiedOptions, s: Stream, marks: number[]): Fed {
  const plan = stratifiedPlan(o)
  type Ev = { at: number; feed: () => void }
  const evs: Ev[] = []
  for (let x = 40; x < s.total; x += 80) {
    const label = (s.labels.get(x) ?? 'N') as 'N' | 'S' | 'V'
    evs.push({ at: x, feed: () => plan.input.beat({ sample: x, timeMs: (x * 1000) / FS, label, symbol: label === 'S' ? 'A' : label }) })
  }
  for (const r of s.rhythms) evs.push({ at: r.sample, feed: () => plan.input.rhythm(r.sample, (r.sample * 1000) / FS, r.rhythm) })
  for (const [a, b] of s.artifacts) evs.push({ at: a, feed: () => plan.input.artifact(a, b) })
  for (const g of s.gaps) evs.push({ at: g, feed: () => plan.input.gap(g) })
  evs.sort((a, b) => a.at - b.at)
  let next = 0
  const fed: Fed = { spans: [], steps: [], ended: [] }
  for (const w of [...marks, s.total]) {
    while (next < evs.length && evs[next].at < w) evs[next++].feed()
    const spans = plan.due(w)
    fed.steps.push({ w, spans, lowest: plan.lowest(w) })
    fed.spans.push(...spans)
  }
  while (next < evs.length) evs[next++].feed()
  fed.ended = plan.end(s.total)
  fed.spans.push(...fed.ended)
  return fed
}
const starts = (spans: Span[]) => spans.map((x) => x.startSample)
const marksEvery = (total: number, step: number) => Array.from({ length: Math.floor(total / step) }, (_, i) => (i + 1) * step)

// Six horizons; in each: a PVC in one tile, atrial flutter in two, PACs in three.
function eventful(seed: string): { s: Stream; pvc: number[][]; afl: number[][]; pac: number[][] } {
  const off = offsetOf(seed)
  const s = stream(off + 6 * HORIZON + 500, { rhythms: [{ sample: 0, rhythm: 'N' }] })
  const pvc: number[][] = []
  const afl: number[][] = []
  const pac: number[][] = []
  for (let c = 0; c < 6; c++) {
    const perm = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].sort((a, b) => ((a * 7 + c * 3) % 10) - ((b * 7 + c * 3) % 10))
    const t = (k: number) => tileStart(off, c, perm[k])
    pvc.push([t(0)])
    afl.push([t(1), t(2)])
    pac.push([t(3), t(4), t(5)])
    s.labels.set(beatNear(t(0) + 500), 'V')
    for (const k of [3, 4, 5]) s.labels.set(beatNear(t(k) + 500), 'S')
    for (const k of [1, 2]) s.rhythms.push({ sample: t(k) + 300, rhythm: 'AFL' }, { sample: t(k) + 600, rhythm: 'N' })
  }
  s.rhythms.sort((a, b) => a.sample - b.sample)
  return { s, pvc, afl, pac }
}

describe('stratifiedPlan', () => {
  it.each(['s', 't', 'u', 'v'])('seed %s: tiles of length from the seeded offset, perHour per hour of tiles in each horizon', (seed) => {
    const { s } = eventful(seed)
    const off = offsetOf(seed)
    for (const q of [1, 2, 4, 6, 10]) {
      const fed = drive(base({ seed, perHour: perHourFor(q) }), s, marksEvery(s.total, 700))
      for (const x of fed.spans) {
        expect(x.endSample - x.startSample).toBe(LENGTH)
        expect((x.startSample - off) % LENGTH).toBe(0)
        expect(x.startSample).toBeGreaterThanOrEqual(off)
        expect(x.endSample).toBeLessThanOrEqual(s.total)
        expect(x.reason).toEqual({ rule: 'stratified', seed })
      }
      expect(starts(fed.spans)).toEqual([...new Set(starts(fed.spans))].sort((a, b) => a - b))
      for (let c = 0; c < 6; c++) expect(fed.spans.filter((x) => x.startSample >= off + c * HORIZON && x.startSample < off + (c + 1) * HORIZON)).toHaveLength(q)
    }
  })

  it('the quota is perHour x tiles x length / (fs x 3600) per horizon, rounded on the running total (a short last horizon counts its tiles)', () => {
    const off = offsetOf('s')
    // 2 full horizons and 4 tiles (plus a partial one) of a third.
    const s = stream(off + 2 * HORIZON + 4 * LENGTH + 700)
    for (const perHour of [10, 50, 90, 162, 200, 360]) {
      const fed = drive(base({ perHour }), s, marksEvery(s.total, 1000))
      const per = [0, 1, 2].map((c) => fed.spans.filter((x) => Math.floor((x.startSample - off) / HORIZON) === c).length)
      // Unrounded shares 10, 10 and 4 tiles' worth; each horizon takes what rounding the running total adds.
      let owed = 0
      const want = [10, 10, 4].map((tiles) => {
        const before = Math.round(owed)
        owed += (perHour * tiles * LENGTH) / (FS * 3600)
        return Math.min(tiles, Math.round(owed) - before)
      })
      expect(per).toEqual(want)
    }
    // 1 tile per 4 horizons' worth: one tile in the 2nd horizon of 4 (round(0.5) = 1), none elsewhere, not none at all.
    const long = stream(off + 4 * HORIZON + 10)
    const fed = drive(base({ perHour: 9 }), long, marksEvery(long.total, 1000))
    expect(fed.spans.map((x) => Math.floor((x.startSample - off) / HORIZON))).toEqual([1])
  })

  it('covers the rarest events first within half the quota', () => {
    for (const seed of ['s', 't', 'u', 'v', 'w']) {
      const { s, pvc, afl, pac } = eventful(seed)
      const covered = (spans: Span[], tiles: number[][], c: number) => tiles[c].some((t) => starts(spans).includes(t))
      for (const [q, want] of [[2, ['pvc']], [4, ['pvc', 'afl']], [6, ['pvc', 'afl', 'pac']], [10, ['pvc', 'afl', 'pac']]] as const) {
        const fed = drive(base({ seed, perHour: perHourFor(q) }), s, marksEvery(s.total, 1000))
        for (let c = 0; c < 6; c++) {
          if (want.includes('pvc' as never)) expect(covered(fed.spans, pvc, c)).toBe(true)
          if (want.includes('afl' as never)) expect(covered(fed.spans, afl, c)).toBe(true)
          if (want.includes('pac' as never)) expect(covered(fed.spans, pac, c)).toBe(true)
        }
      }
    }
  })

  // The event phase skips an event a tile already taken holds (it once spent a slot on it and left
  // a commoner event to chance): tile X holds a PVC and a PAC, Y a PAC, Z1-Z3 atrial flutter; of
  // 2 event slots, X covers PVC and PAC and the other goes to flutter.
  it('does not spend an event slot on an event a chosen tile already covers', () => {
    let misses = 0
    for (const seed of ['s', 't', 'u', 'v', 'w', 'x', 'y', 'z']) {
      const off = offsetOf(seed)
      const s = stream(off + HORIZON + 500, { rhythms: [{ sample: 0, rhythm: 'N' }] })
      const t = (k: number) => tileStart(off, 0, k)
      s.labels.set(beatNear(t(0) + 300), 'V')
      s.labels.set(beatNear(t(0) + 700), 'S')
      s.labels.set(beatNear(t(1) + 500), 'S')
      for (const k of [2, 3, 4]) s.rhythms.push({ sample: t(k) + 300, rhythm: 'AFL' }, { sample: t(k) + 600, rhythm: 'N' })
      s.rhythms.sort((a, b) => a.sample - b.sample)
      const chosen = starts(drive(base({ seed, perHour: perHourFor(4) }), s, [s.total]).spans)
      if (![2, 3, 4].some((k) => chosen.includes(t(k)))) misses++
    }
    expect(misses).toBe(0)
  })

  it('never takes a tile across a gap; a gap on a tile boundary splits nothing', () => {
    const off = offsetOf('s')
    const t = (k: number) => tileStart(off, 0, k)
    const s = stream(off + HORIZON + 10, { gaps: [t(2) + 1, t(5) + 500, t(7) + LENGTH - 1, t(9)] })
    const chosen = starts(drive(base({ perHour: perHourFor(10) }), s, marksEvery(s.total, 900)).spans)
    expect(chosen).toEqual([0, 1, 3, 4, 6, 8, 9].map(t))
  })

  it.each([
    { allow: false, want: [0, 1, 2, 4, 7, 8] },
    { allow: true, want: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
  ])('an artifact window: its tiles skipped unless artifacts are allowed ($allow)', ({ allow, want }) => {
    const off = offsetOf('s')
    const t = (k: number) => tileStart(off, 0, k)
    // Over tile 3, tiles 5 and 6, and tile 9's first sample only (tile 8, which ends there, is kept).
    const s = stream(off + HORIZON + 10, { artifacts: [[t(3) + 200, t(3) + 300], [t(5) + 900, t(6) + 100], [t(9), t(9) + 1]] })
    const chosen = starts(drive(base({ perHour: perHourFor(10), allowArtifacts: allow }), s, marksEvery(s.total, 900)).spans)
    expect(chosen).toEqual(want.map(t))
  })

  it('is the same for a seed and any watermark steps; another seed gives others', () => {
    const { s } = eventful('s')
    const one = starts(drive(base({ perHour: perHourFor(3) }), s, marksEvery(s.total, 1000)).spans)
    expect(starts(drive(base({ perHour: perHourFor(3) }), s, marksEvery(s.total, 333)).spans)).toEqual(one)
    expect(starts(drive(base({ perHour: perHourFor(3) }), s, []).spans)).toEqual(one)
    expect(starts(drive(base({ perHour: perHourFor(3), seed: 'other' }), s, marksEvery(s.total, 1000)).spans)).not.toEqual(one)
  })

  it('returns a span only once the watermark has passed its end; lowest() is never above a span still to come', () => {
    for (const seed of ['s', 't', 'u']) {
      const { s } = eventful(seed)
      const rng = createSeededRandom(`marks:${seed}`)
      const marks: number[] = []
      for (let w = 0; w < s.total;) marks.push((w += 1 + rng.below(3000)))
      const fed = drive(base({ seed, perHour: perHourFor(4) }), s, marks.filter((w) => w < s.total))
      expect(fed.spans.length).toBe(24)
      fed.steps.forEach((step, k) => {
        for (const x of step.spans) expect(x.endSample).toBeLessThanOrEqual(step.w)
        const later = [...fed.steps.slice(k + 1).flatMap((z) => z.spans), ...fed.ended]
        for (const x of later) expect(step.lowest).toBeLessThanOrEqual(x.startSample)
      })
      // Decisions wait for the horizon: no span before the watermark passes its horizon's end.
      const off = offsetOf(seed)
      for (const step of fed.steps) for (const x of step.spans) expect(step.w).toBeGreaterThanOrEqual(off + (Math.floor((x.startSample - off) / HORIZON) + 1) * HORIZON)
    }
  })

  it('a horizon shorter than a tile is one tile; a horizon not a multiple of the length is cut down to one', () => {
    const off = offsetOf('s')
    const s = stream(off + 4 * LENGTH + 10)
    // Horizon 2.5 tiles -> 2 tiles, quota round(720 x 2 x 10 / 3600) = 4 -> both tiles of each.
    expect(starts(drive(base({ horizon: 2500, perHour: 720 }), s, [off + 2 * LENGTH]).steps[0].spans)).toEqual([off, off + LENGTH])
    expect(starts(drive(base({ horizon: 10, perHour: 360 }), s, [off + LENGTH]).steps[0].spans)).toEqual([off])
  })
})

describe('wholePlan', () => {
  const calls = () => {
    let n = 0
    return { tooLong: () => void n++, get n() { return n } }
  }
  it.each([
    { name: 'known length under max, at the watermark', max: 1000, total: 500, run: (p: ReturnType<typeof wholePlan>) => [p.due(499), p.due(500), p.due(900), p.end(500)], want: [[], [[0, 500]], [], []], tooLong: 0 },
    { name: 'known length equal to max', max: 1000, total: 1000, run: (p: ReturnType<typeof wholePlan>) => [p.due(1000), p.end(1000)], want: [[[0, 1000]], []], tooLong: 0 },
    { name: 'known length over max', max: 1000, total: 1001, run: (p: ReturnType<typeof wholePlan>) => [p.due(1001), p.end(1001)], want: [[], []], tooLong: 1 },
    { name: 'unknown length, ends under max', max: 1000, total: Infinity, run: (p: ReturnType<typeof wholePlan>) => [p.due(800), p.end(800)], want: [[], [[0, 800]]], tooLong: 0 },
    { name: 'unknown length, ends over max', max: 1000, total: Infinity, run: (p: ReturnType<typeof wholePlan>) => [p.due(5000), p.end(5000), p.end(5000)], want: [[], [], []], tooLong: 1 },
    { name: 'a signal shorter than its stated length', max: 1000, total: 900, run: (p: ReturnType<typeof wholePlan>) => [p.due(700), p.end(700)], want: [[], [[0, 700]]], tooLong: 0 },
    { name: 'no signal', max: 1000, total: Infinity, run: (p: ReturnType<typeof wholePlan>) => [p.end(0)], want: [[]], tooLong: 0 },
  ])('$name', ({ max, total, run, want, tooLong }) => {
    const c = calls()
    const p = wholePlan(max, total, c.tooLong)
    expect(p.lowest(0)).toBe(0)
    const got = run(p)
    expect(got.map((spans) => spans.map((x) => [x.startSample, x.endSample]))).toEqual(want)
    for (const spans of got) for (const x of spans) expect(x.reason).toEqual({ rule: 'whole' })
    expect(c.n).toBe(tooLong)
    expect(p.lowest(0)).toBe(Infinity)
  })
})

describe('excerpt stage, stratified rule, on record 208', () => {
  const spec = recordSpec(path.join(ROOT, 'samples/mitdb/208'), { id: '208' })
  const input = readRecord(spec)
    .then((r) => runStage(annotate, r.items, { record: spec }))
    .then((r) => runStage(quality, r.items, { record: spec }))
    .then((r) => r.items)
  const options = { set: 'strat', stratified: { lengthSec: 30, perHour: 40, horizonHours: 0.1, seed: 4 } }

  it('emits tiles as <rec>:ex:<set>:<start>, inside the record, off flagged windows, and never passes a watermark above an excerpt still to come', async () => {
    const items = await input
    const { items: out } = await runStage(excerpt, items, { record: spec, options })
    const ex = out.filter((i): i is ExcerptItem => i.kind === 'excerpt')
    const rec = recordingOf(items)
    const length = 30 * rec.fs
    const offset = createSeededRandom(`4:208`).below(length)
    // 30 min in horizons of 6 min of 12 tiles: round(40 x 12 x 30 / 3600) = 4 per horizon.
    expect(ex.length).toBeGreaterThanOrEqual(16)
    expect(ex.length).toBeLessThanOrEqual(20)
    const flagged = items.filter((i): i is QualityItem => i.kind === 'quality' && i.leads.some((l) => l.flags.length > 0))
    for (const x of ex) {
      expect(x.id).toBe(`208:ex:strat:${x.startSample}`)
      expect(x.reason).toEqual({ rule: 'stratified', seed: '4:208' })
      expect(x.endSample - x.startSample).toBe(length)
      expect((x.startSample - offset) % length).toBe(0)
      expect(x.startSample).toBeGreaterThanOrEqual(0)
      expect(x.endSample).toBeLessThanOrEqual(rec.totalSamples)
      expect([x.startMs, x.endMs]).toEqual([Math.round((x.startSample / rec.fs) * 1000), Math.round((x.startSample / rec.fs) * 1000) + 30_000])
      expect(flagged.filter((q) => q.startSample < x.endSample && q.endSample > x.startSample)).toEqual([])
    }
    expect(new Set(ex.map((x) => x.id)).size).toBe(ex.length)
    expect(watermarkViolations(out, items).violations).toEqual([])
    // Explicitly: every watermark passed on is at most the start of every excerpt after it.
    out.forEach((item, k) => {
      if (item.kind !== 'watermark') return
      for (const later of out.slice(k + 1)) if (later.kind === 'excerpt') expect(item.sample).toBeLessThanOrEqual(later.startSample)
    })
    // Every other item passes through, in order.
    expect(out.filter((i) => i.kind !== 'excerpt' && i.kind !== 'watermark')).toEqual(items.filter((i: Item) => i.kind !== 'watermark'))
    // The same excerpts on a rerun.
    const again = (await runStage(excerpt, items, { record: spec, options })).items.filter((i): i is ExcerptItem => i.kind === 'excerpt')
    expect(again).toEqual(ex)
  })
})
