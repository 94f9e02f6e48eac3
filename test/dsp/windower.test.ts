import { describe, expect, it } from 'vitest'
import { createWindower } from '../../src/dsp/windower.ts'

const ramp = (n: number, from = 0) => Float32Array.from({ length: n }, (_, i) => from + i)

/** Feeds `total` samples of a ramp (lead 0) and its negative (lead 1) in blocks of the given sizes. */
function run(length: number, step: number, blocks: number[]) {
  const w = createWindower(2, length, step)
  const out: { start: number; a: number[]; b: number[] }[] = []
  let at = 0
  for (const n of blocks) {
    const a = ramp(n, at)
    const b = a.map((x) => -x)
    for (const win of w.push([a, b], at)) out.push({ start: win.startSample, a: [...win.samples[0]], b: [...win.samples[1]] })
    at += n
  }
  return { out, w }
}

describe('createWindower', () => {
  it.each([
    ['step = length', 4, 4, [10], [0, 4]],
    ['overlap (step < length)', 4, 2, [10], [0, 2, 4, 6]],
    ['skip (step > length)', 3, 5, [13], [0, 5, 10]],
    ['step 1', 3, 1, [5], [0, 1, 2]],
  ])('%s: window starts', (_name, length, step, blocks, starts) => {
    const { out } = run(length, step, blocks)
    expect(out.map((o) => o.start)).toEqual(starts)
    for (const o of out) {
      expect(o.a).toEqual([...ramp(length, o.start)])
      expect(o.b).toEqual([...ramp(length, o.start)].map((x) => -x))
    }
  })

  it('gives the same windows whatever the block sizes', () => {
    const whole = run(7, 3, [100]).out
    for (const blocks of [[1, 1, 1, 97], [7, 7, 7, 79], [3, 50, 2, 45], Array(100).fill(1)]) {
      expect(run(7, 3, blocks).out).toEqual(whole)
    }
  })

  it('emits windows that do not alias its buffer', () => {
    const w = createWindower(1, 2, 2)
    const [first] = w.push([ramp(2)], 0)
    w.push([ramp(2, 2)], 2)
    expect([...first.samples[0]]).toEqual([0, 1])
  })

  it('reset drops the partial window and restarts at the next sample', () => {
    const w = createWindower(1, 4, 4)
    expect(w.push([ramp(3)], 0)).toEqual([])
    w.reset()
    const [win] = w.push([ramp(4, 100)], 100)
    expect(win.startSample).toBe(100)
    expect([...win.samples[0]]).toEqual([100, 101, 102, 103])
  })

  it('flush returns the partial last window, or null when there is none', () => {
    const w = createWindower(1, 4, 4)
    w.push([ramp(6)], 0)
    const last = w.flush()
    expect(last?.startSample).toBe(4)
    expect([...last!.samples[0]]).toEqual([4, 5])
    const exact = createWindower(1, 3, 3)
    exact.push([ramp(6)], 0)
    expect(exact.flush()).toBeNull()
  })

  it('rejects non-integer or non-positive sizes', () => {
    expect(() => createWindower(1, 0, 1)).toThrow(RangeError)
    expect(() => createWindower(1, 2.5, 1)).toThrow(RangeError)
  })
})
