// bert_score's idf over references: ln((M+1)/(df+1)), a token counted once per reference,
// ln(M+1) for unseen tokens, 0 for [CLS]/[SEP]. The golden table is checked in
// bertscore-match.test.ts.
import { describe, expect, it } from 'vitest'
import { computeIdf, idfWeights } from '../../src/metrics/bertscore-idf.ts'

const CLS = 101
const SEP = 102

describe('computeIdf', () => {
  const refs = [
    Int32Array.of(CLS, 7, 7, 8, SEP), // 7 twice still counts once
    Int32Array.of(CLS, 7, 9, SEP),
    Int32Array.of(CLS, 7, 9, SEP), // a duplicate reference is another document
  ]
  const table = computeIdf(refs, [CLS, SEP])

  it.each([
    [7, Math.log(4 / 4)],
    [8, Math.log(4 / 2)],
    [9, Math.log(4 / 3)],
    [CLS, 0],
    [SEP, 0],
  ])('idf(%i) = %f', (token, want) => {
    expect(table.idf.get(token)).toBeCloseTo(want, 15)
  })

  it('counts M references and gives unseen tokens ln(M + 1)', () => {
    expect(table.documents).toBe(3)
    expect(table.unseen).toBeCloseTo(Math.log(4), 15)
    expect(Array.from(idfWeights(table, Int32Array.of(CLS, 8, 555, SEP)))).toEqual([0, Math.log(2), Math.log(4), 0])
  })

  it('weighs specials 0 even when the sequences leave them out, and works on string tokens', () => {
    const t = computeIdf([['a', 'b'], ['a']], ['[CLS]', '[SEP]'])
    expect(Array.from(idfWeights(t, ['[CLS]', 'a', 'b', 'z', '[SEP]']))).toEqual([0, Math.log(3 / 3), Math.log(3 / 2), Math.log(3), 0])
  })

  it('gives an empty table (all unseen, ln 1 = 0) for no references', () => {
    const t = computeIdf<number>([])
    expect(t).toMatchObject({ documents: 0, unseen: 0 })
    expect(t.idf.size).toBe(0)
  })
})
