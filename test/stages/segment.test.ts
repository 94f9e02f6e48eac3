import { describe, expect, it } from 'vitest'
import segment from '../../src/stages/segment.ts'
import type { Item, SampleBlock, WindowItem } from '../../src/core/items.ts'
import { pipelineRejection, thrown } from '../helpers/thrown.ts'
import { runStage } from '../helpers/stage-context.ts'

const FS = 100
function block(startSample: number, n: number): SampleBlock {
  const a = Float32Array.from({ length: n }, (_, i) => startSample + i)
  return { kind: 'block', recordId: 'rec', fs: FS, startSample, labels: ['I', 'II'], leads: [a, a.map((x) => x * 2)] }
}
const windows = (items: Item[]) => items.filter((i): i is WindowItem => i.kind === 'window')

describe('segment stage', () => {
  it('cuts 10 s windows by default and passes every other item through in order', async () => {
    const input: Item[] = [{ kind: 'recording', recordId: 'rec' } as Item, block(0, 1500), block(1500, 1500), block(3000, 100)]
    const { items } = await runStage(segment, input)
    expect(items.filter((i) => i.kind !== 'window')).toEqual(input)
    const w = windows(items)
    expect(w.map((x) => [x.index, x.startSample, x.startMs, x.lengthSamples])).toEqual([
      [0, 0, 0, 1000], [1, 1000, 10000, 1000], [2, 2000, 20000, 1000],
    ])
    expect(w[1].labels).toEqual(['I', 'II'])
    expect(w[1].samples[0][0]).toBe(1000)
    expect(w[1].samples[1][999]).toBe(2 * 1999)
    // A window follows the block that completed it.
    expect(items.indexOf(w[0])).toBeGreaterThan(items.indexOf(input[1]))
  })

  it('supports overlapping windows and a partial last window', async () => {
    const { items } = await runStage(segment, [block(0, 2500)], { options: { window: 10, step: 5, partial: true } })
    const w = windows(items)
    expect(w.map((x) => x.startSample)).toEqual([0, 500, 1000, 1500, 2000])
    expect(w.at(-1)!.lengthSamples).toBe(500)
    // Each window says its step, which a gap would hide from the distance between windows.
    expect(w.map((x) => x.stepSamples)).toEqual([500, 500, 500, 500, 500])
  })

  it('never lets a window straddle a gap, and counts gap time in startMs', async () => {
    const gap: Item = { kind: 'gap', recordId: 'rec', startMs: 15000, endMs: 20000, atSample: 1500 }
    const { items } = await runStage(segment, [block(0, 1500), gap, block(1500, 2000)])
    const w = windows(items)
    // Window 1 would have spanned samples 1000..1999 across the gap at 1500: dropped.
    expect(w.map((x) => [x.startSample, x.startMs])).toEqual([[0, 0], [1500, 20000], [2500, 30000]])
  })

  it('refuses a window or step under one sample period at the record\'s rate, naming the option, the rate and the smallest value', async () => {
    const at360 = (n: number): SampleBlock => ({ ...block(0, n), fs: 360 })
    for (const [options, field, found] of [[{ window: 0.001 }, 'window', 0.001], [{ window: 10, step: 0.001 }, 'step', 0.001], [{ window: 0.002 }, 'window', 0.002]] as const) {
      const error = await pipelineRejection(runStage(segment, [at360(3600)], { options }))
      expect(error).toMatchObject({ code: 'E_CONFIG_VALUE', context: { field, fs: 360, min: 0.002778 } })
      expect(error.message).toBe(`segment option ${field}: expected at least one sample period at the record's 360 Hz (${field} >= 0.002778 s), found ${found} s (${Math.round(found * 360 * 1000) / 1000} samples); set ${field} to 0.002778 s or more`)
    }
    // One sample period is enough: one-sample windows, one sample apart.
    const w = windows((await runStage(segment, [at360(5)], { options: { window: 1 / 360, step: 0.002778 } })).items)
    expect(w.map((x) => [x.startSample, x.lengthSamples, x.stepSamples])).toEqual([[0, 1, 1], [1, 1, 1], [2, 1, 1], [3, 1, 1], [4, 1, 1]])
  })

  it('rejects unknown and invalid options with the YAML path', async () => {
    expect(() => segment.parseOptions!({ windw: 10 }, { file: 'd.yaml', yamlPath: 'stages[1].options' })).toThrow(/unknown option "windw".*window, step, partial/)
    const err = thrown(() => segment.parseOptions!({ window: -1 }, { file: 'd.yaml', yamlPath: 'stages[1].options' }))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.context.yamlPath).toBe('stages[1].options.window')
  })
})
