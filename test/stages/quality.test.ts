import { describe, expect, it } from 'vitest'
import path from 'node:path'
import quality from '../../src/stages/quality.ts'
import type { GapItem, Item, QualityItem, SampleBlock } from '../../src/core/items.ts'
import { runStage } from '../helpers/stage-context.ts'
import { readRecord, recordSpec } from '../helpers/read-record.ts'
import { ROOT } from '../helpers/shared.ts'

const fs = 100
const block = (startSample: number, leads: Float32Array[]): SampleBlock => ({ kind: 'block', recordId: 'rec', fs, startSample, labels: leads.map((_, i) => `L${i}`), leads })
const qualities = (items: Item[]) => items.filter((i): i is QualityItem => i.kind === 'quality')
// A spiky signal (one 1 mV spike a second on a wandering baseline): never flagged.
const spiky = (n: number, from = 0) => Float32Array.from({ length: n }, (_, i) => ((from + i) % fs === 50 ? 1 : 0) + 0.2 * Math.sin((from + i) / 30))

describe('quality stage', () => {
  it('assesses each lead per window, before the block that completes the window, and the tail when >= 1 s', async () => {
    const flat = new Float32Array(2500)
    const input: Item[] = [block(0, [spiky(1200), flat.subarray(0, 1200)]), block(1200, [spiky(1300, 1200), flat.subarray(1200)])]
    const { items } = await runStage(quality, input, { options: { window: 10 } })
    const q = qualities(items)
    expect(q.map((w) => [w.index, w.startSample, w.endSample, w.startMs, w.endMs])).toEqual([[0, 0, 1000, 0, 10000], [1, 1000, 2000, 10000, 20000], [2, 2000, 2500, 20000, 25000]])
    expect(q.map((w) => w.leads.map((l) => l.flags))).toEqual([[[], ['flat']], [[], ['flat']], [[], ['flat']]])
    expect(q[0].leads[1]).toMatchObject({ label: 'L1', index: 1, flatPct: 100, invalidPct: 0 })
    expect(q.every((w) => w.leads.every((l, k) => l.index === k))).toBe(true)
    // Window 0 ends inside the first block, window 1 inside the second; the tail comes last.
    expect(items.map((i) => (i.kind === 'quality' ? `q${(i as QualityItem).index}` : `b${(i as SampleBlock).startSample}`))).toEqual(['q0', 'b0', 'q1', 'b1200', 'q2'])
  })

  it('restarts windows at a gap (with the gap in the times) and drops a tail under 1 s', async () => {
    const gap: GapItem = { kind: 'gap', recordId: 'rec', startMs: 15000, endMs: 20000, atSample: 1500 }
    const input: Item[] = [block(0, [spiky(1500)]), gap, block(1500, [spiky(1050, 1500)])]
    const q = qualities((await runStage(quality, input, { options: { window: 10 } })).items)
    expect(q.map((w) => [w.startSample, w.endSample, w.startMs, w.endMs])).toEqual([[0, 1000, 0, 10000], [1000, 1500, 10000, 15000], [1500, 2500, 20000, 30000]])
  })

  it('gives the same windows for any blocking of the bundled record 100', async () => {
    const file = path.join(ROOT, 'samples/mitdb/100')
    const run = async (blockSeconds: number) => {
      const { items } = await readRecord(recordSpec(file), { blockSeconds, annotations: false })
      return qualities((await runStage(quality, items)).items)
    }
    const a = await run(10)
    const b = await run(3.7)
    expect(b).toEqual(a)
    expect(a.length).toBe(181) // 1805.6 s: 180 full windows and a 5.6 s tail
    expect(a.every((w) => w.leads.every((l) => l.flags.length === 0))).toBe(true)
    expect(a[180]).toMatchObject({ startSample: 648000, endSample: 650000 })
  }, 30_000)

  it('rejects bad options with the field named', () => {
    const where = { file: 'd.yaml', yamlPath: 'stages[1].options' }
    expect(() => quality.parseOptions!({ window: 0.5 }, where)).toThrow(expect.objectContaining({ code: 'E_CONFIG_VALUE', context: expect.objectContaining({ yamlPath: 'stages[1].options.window' }) }))
    expect(() => quality.parseOptions!({ flatmv: 1 }, where)).toThrow(/unknown option "flatmv"; allowed options: window, flatMv/)
  })
})
