import { describe, expect, it } from 'vitest'
import { labelF1Aggregate, labelF1Signature, labelSetF1, prfFromCounts } from '../../src/metrics/label-f1.ts'

describe('labelSetF1', () => {
  it.each([
    ['both empty: perfect', [], [], [0, 0, 0, 1]],
    ['nothing predicted', [], ['AF'], [0, 0, 1, 0]],
    ['only invented labels', ['VT'], [], [0, 1, 0, 0]],
    ['exact, order and case ignored', ['pvc', ' AF '], ['af', 'PVC'], [2, 0, 0, 1]],
    ['duplicates count once', ['AF', 'af', 'AF'], ['AF'], [1, 0, 0, 1]],
    ['partial', ['AF', 'VT'], ['AF', 'PVC', 'PAC'], [1, 1, 2, 0.4]],
  ] as const)('%s', (_n, pred, gold, [tp, fp, fn, f1]) => {
    const r = labelSetF1([...pred], [...gold])
    expect(r).toMatchObject({ tp, fp, fn })
    expect(r.f1).toBeCloseTo(f1, 12)
  })

  it('uses the caller normaliser; an empty result drops the label, an unknown one stays a false positive', () => {
    const vocab: Record<string, string> = { 'atrial fibrillation': 'AF', af: 'AF', 'premature ventricular contraction': 'PVC', pvc: 'PVC', none: '' }
    const normalise = (l: string) => vocab[l.trim().toLowerCase()] ?? `?${l.trim().toLowerCase()}`
    const r = labelSetF1(['Atrial Fibrillation', 'none', 'weird rhythm'], ['AF', 'PVC'], { normalise, normaliserId: 'vocab@1' })
    expect(r).toMatchObject({ matched: ['AF'], extra: ['?weird rhythm'], missed: ['PVC'], tp: 1, fp: 1, fn: 1 })
    expect(labelF1Signature({ normalise, normaliserId: 'vocab@1' })).toBe('label-f1|norm:vocab@1|empty:1|avg:micro,macro,samples')
  })
})

describe('labelF1Aggregate', () => {
  it('computes micro, per-label macro and per-item (samples) F1', () => {
    const items = [labelSetF1(['AF'], ['AF']), labelSetF1(['AF', 'VT'], ['PVC']), labelSetF1([], [])]
    const agg = labelF1Aggregate(items)
    // micro: tp 1, fp 2, fn 1 -> 2 / (2 + 3)
    expect(agg.micro).toMatchObject({ tp: 1, fp: 2, fn: 1 })
    expect(agg.micro!.f1).toBeCloseTo(0.4, 12)
    // labels: AF tp1 fp1 -> 2/3; VT fp1 -> 0; PVC fn1 -> 0
    expect(agg.macro).toBeCloseTo(2 / 9, 12)
    // items: 1, 0, 1 (both empty)
    expect(agg.samples).toBeCloseTo(2 / 3, 12)
    expect(agg.items).toBe(3)
  })

  it.each([
    ['no items', [], { micro: null, macro: null, samples: null, items: 0 }],
    ['only empty items', [labelSetF1([], [])], { macro: 1, samples: 1, items: 1 }],
  ] as const)('%s', (_n, items, expected) => {
    expect(labelF1Aggregate([...items])).toMatchObject(expected)
  })

  it('prfFromCounts can score an all-empty item as 0 instead', () => {
    expect(prfFromCounts({ tp: 0, fp: 0, fn: 0 }, false).f1).toBe(0)
  })
})
