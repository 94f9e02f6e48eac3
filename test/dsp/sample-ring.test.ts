// The ring of recent samples behind event cuts (src/dsp/sample-ring.ts), against a model that
// keeps every sample: after blocks of any length (longer than the ring too) with jumps in sample
// numbers between them, every slice holds the last `capacity` samples and NaN elsewhere.
import { describe, expect, it } from 'vitest'
import type { SampleBlock } from '../../src/core/items.ts'
import { createSampleRing } from '../../src/dsp/sample-ring.ts'
import { rng } from '../helpers/seeded-random.ts'

const block = (startSample: number, leads: Float32Array[]): SampleBlock => ({ kind: 'block', recordId: 'r', fs: 100, labels: leads.map((_, l) => `L${l}`), startSample, leads })

describe('sample ring', () => {
  it.each([7, 64, 1000])('holds the last %i samples of each lead, NaN over jumps and before them, through blocks of any length', (capacity) => {
    const next = rng(capacity)
    let ring = createSampleRing(capacity)
    const model = [new Map<number, number>(), new Map<number, number>()]
    let end = 0
    for (let b = 0; b < 300; b++) {
      const start = end + (next() < 0.15 ? Math.floor(next() * 2 * capacity) : 0)
      const n = Math.floor(next() * next() * 3 * capacity)
      const leads = [0, 1].map((l) => Float32Array.from({ length: n }, (_, i) => l * 1e6 + start + i))
      ring.push(block(start, leads))
      leads.forEach((x, l) => x.forEach((v, i) => model[l].set(start + i, v)))
      end = start + n
      if (b === 150) ring = ring.grown(capacity) // the same capacity: a copy holding the same
      expect(ring.end).toBe(end)
      for (let k = 0; k < 3; k++) {
        const from = end - Math.floor(next() * 2 * capacity)
        const to = from + Math.floor(next() * 2 * capacity)
        const got = ring.slice(from, to)
        for (let l = 0; l < 2; l++) {
          const want = Array.from({ length: Math.max(0, to - from) }, (_, i) => {
            const s = from + i
            return s >= end - capacity && s < end && model[l].has(s) ? model[l].get(s)! : NaN
          })
          expect(Array.from(got[l]), `block ${b}, slice [${from}, ${to}) of lead ${l}`).toEqual(want)
        }
      }
    }
  })

  it('keeps what it holds when grown', () => {
    const ring = createSampleRing(10)
    ring.push(block(0, [Float32Array.from({ length: 25 }, (_, i) => i)]))
    const bigger = ring.grown(40)
    bigger.push(block(25, [Float32Array.from({ length: 5 }, (_, i) => 25 + i)]))
    expect(Array.from(bigger.slice(10, 30)[0])).toEqual([...Array(5).fill(NaN), ...Array.from({ length: 15 }, (_, i) => 15 + i)])
  })
})
