// The excerpt stage (stage layer): spans by rule on the bundled MIT-BIH records, in their stream
// place (after their span, lowering the watermark to the lowest start still to come), gaps
// skipped, ids stable across blockings and reruns.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ExcerptItem, GapItem, Item, SampleBlock } from '../../src/core/items.ts'
import { watermark } from '../../src/core/watermark.ts'
import excerpt from '../../src/stages/excerpt.ts'
import annotate from '../../src/stages/annotate.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { runStage } from '../helpers/stage-context.ts'
import { ROOT } from '../helpers/shared.ts'
import { watermarkViolations, withoutWatermarks } from '../helpers/watermarks.ts'
import { thrown } from '../helpers/thrown.ts'

const excerptsOf = (items: Item[]) => items.filter((i): i is ExcerptItem => i.kind === 'excerpt')
const spec208 = recordSpec(path.join(ROOT, 'samples/mitdb/208'), { id: '208' })
const annotated208 = readRecord(spec208).then((r) => runStage(annotate, r.items, { record: spec208 })).then((r) => r.items)

describe('excerpt stage', () => {
  it('cuts padSec around each reference V, minGapSec apart, with ids, times and its reason, after its span and within the watermarks', async () => {
    const input = await annotated208
    const { items } = await runStage(excerpt, input, { record: spec208, options: { set: 'pvc', around: { labels: ['V'], padSec: [2, 3], minGapSec: 60, max: 5 } } })
    expect(withoutWatermarks(items.filter((i) => i.kind !== 'excerpt'))).toEqual(withoutWatermarks(input))
    expect(watermarkViolations(items, input).violations).toEqual([])
    const vs = input.filter((i) => i.kind === 'beat' && i.source === 'reference' && i.label === 'V') as { sample: number; timeMs: number }[]
    const chosen: typeof vs = []
    for (const v of vs) if (chosen.length < 5 && (!chosen.length || v.sample - chosen.at(-1)!.sample >= 60 * 360)) chosen.push(v)
    const ex = excerptsOf(items)
    expect(ex.map((x) => x.reason.event?.sample)).toEqual(chosen.map((v) => v.sample))
    const x = ex[1]
    const v = chosen[1]
    expect(x).toEqual({
      kind: 'excerpt', id: `208:ex:pvc:${v.sample - 720}`, recordId: '208', set: 'pvc', startSample: v.sample - 720, endSample: v.sample + 1080,
      startMs: Math.round(v.timeMs - 2000), endMs: Math.round(v.timeMs - 2000) + 5000, fs: 360,
      reason: { rule: 'around', event: { sample: v.sample, timeMs: v.timeMs, label: 'V', source: 'reference', kind: 'beat' } },
    })
    // Each comes after the block that completes its span.
    const at = items.indexOf(x)
    const blocksBefore = items.slice(0, at).filter((i): i is SampleBlock => i.kind === 'block')
    const seen = blocksBefore.at(-1)!
    expect(seen.startSample + seen.leads[0].length).toBeGreaterThanOrEqual(x.endSample)

    // Every V, the first ones within padSec of the record's start (clipped to 0) included, with ids apart.
    const all = excerptsOf((await runStage(excerpt, input, { record: spec208, options: { set: 'pvc', around: { labels: ['V'], padSec: 5, minGapSec: 0, max: 100_000 } } })).items)
    expect(all.map((x) => x.reason.event?.sample)).toEqual(vs.map((v) => v.sample))
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length)
    expect(all.filter((x) => x.startSample === 0)).toHaveLength(4) // 208's V at samples 209, 853, 1378 and 1579
    expect(all.filter((x) => x.startSample === 0).map((x) => x.id)).toEqual(vs.filter((v) => v.sample < 1800).map((v) => `208:ex:pvc:0@${v.sample}`))
  })

  it('takes one span every N minutes, and the same random spans on every run and blocking', async () => {
    const spec = recordSpec(path.join(ROOT, 'samples/mitdb/100'), { id: '100' })
    const every = excerptsOf((await runStage(excerpt, (await readRecord(spec)).items, { record: spec, options: { set: 'tens', every: { minutes: 10, lengthSec: 60 } } })).items)
    expect(every.map((x) => [x.id, x.startMs, x.endMs])).toEqual([['100:ex:tens:0', 0, 60_000], ['100:ex:tens:216000', 600_000, 660_000], ['100:ex:tens:432000', 1_200_000, 1_260_000]])
    const random = async (blockSeconds: number, seed = 3) => {
      const { items } = await readRecord(spec, { blockSeconds })
      return excerptsOf((await runStage(excerpt, items, { record: spec, options: { random: { count: 6, lengthSec: 30, seed } } })).items).map((x) => x.id)
    }
    const once = await random(10)
    expect(once).toHaveLength(6)
    expect(await random(1)).toEqual(once)
    expect(await random(10, 4)).not.toEqual(once)
  })

  it('skips a span that would straddle a gap, and counts the gap in the times after it', async () => {
    const fs = 100
    const items: Item[] = [{ kind: 'recording', recordId: 'g', format: 'EDF+D', file: 'x.edf', startTime: null, fs, durationSec: 40, totalSamples: 4000, labels: ['I'], units: 'mV' }]
    for (let k = 0; k < 4; k++) {
      if (k === 2) items.push({ kind: 'gap', recordId: 'g', startMs: 20_000, endMs: 80_000, atSample: 2000 } satisfies GapItem)
      items.push({ kind: 'block', recordId: 'g', fs, startSample: k * 1000, labels: ['I'], leads: [new Float32Array(1000)] }, watermark('g', (k + 1) * 1000))
    }
    const { items: out, warnings } = await runStage(excerpt, items, { options: { every: { minutes: 0.25, lengthSec: 10 } } })
    // Spans at 0, 15, 30 s of samples: [1500, 2500) straddles the gap at sample 2000.
    expect(excerptsOf(out).map((x) => [x.startSample, x.startMs])).toEqual([[0, 0], [3000, 90_000]])
    expect(warnings.map((w) => w.code)).toEqual(['W_EXCERPT_GAP'])
  })

  it('takes exactly one rule, naming the option path', () => {
    const where = { file: 'd.yaml', yamlPath: 'stages[4].options' }
    expect(thrown(() => excerpt.parseOptions!({ every: { minutes: 1, lengthSec: 5 }, random: { count: 1, lengthSec: 5 } }, where)).message).toMatch(/exactly one rule/)
    expect(thrown(() => excerpt.parseOptions!({}, where)).message).toMatch(/exactly one rule/)
    expect(thrown(() => excerpt.parseOptions!({ set: 'A B', around: { labels: ['V'] } }, where)).context.yamlPath).toBe('stages[4].options.set')
    const long = thrown(() => excerpt.parseOptions!({ every: { minutes: 720, lengthSec: 12 * 3600 } }, where))
    expect([long.context.yamlPath, long.message]).toEqual(['stages[4].options.every.lengthSec', expect.stringContaining('at most 21600 (6 h)')])
  })
})
