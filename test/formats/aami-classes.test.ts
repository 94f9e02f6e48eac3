import { describe, expect, it } from 'vitest'
import { AAMI_CLASSES, aamiClass, toBeatSeries } from '../../src/formats/aami-classes.ts'
import { isBeatSymbol } from '../../src/formats/wfdb-annotation-codes.ts'
import { thrown } from '../helpers/thrown.ts'

describe('aamiClass', () => {
  it.each([
    ['N', 'N'], ['L', 'N'], ['R', 'N'], ['e', 'N'], ['j', 'N'], ['B', 'N'],
    ['A', 'S'], ['a', 'S'], ['J', 'S'], ['S', 'S'], ['n', 'S'],
    ['V', 'V'], ['E', 'V'], ['r', 'V'],
    ['F', 'F'],
    ['/', 'Q'], ['f', 'Q'], ['Q', 'Q'], ['?', 'Q'],
  ])('maps %s to %s', (symbol, cls) => {
    expect(aamiClass(symbol)).toBe(cls)
  })

  it.each(['+', '~', '|', '"', 'x', '!', '[', ']', 's', 'T', '*', 'D', '=', 'p', 't', 'u', '@', '(', ')', ' ', '', 'NN', 'toString', 'constructor'])(
    'treats %j as a non-beat',
    (symbol) => {
      expect(aamiClass(symbol)).toBeNull()
    },
  )

  it('classifies every WFDB beat symbol except ! (bxb scores flutter waves as non-beats)', () => {
    const beatSymbols = 'NLRaVFJASEj/Q!Bnr?ef'.split('').filter(isBeatSymbol)
    expect(beatSymbols.filter((s) => aamiClass(s) === null)).toEqual(['!'])
  })
})

describe('toBeatSeries', () => {
  it('drops non-beat annotations and keeps class codes in AAMI_CLASSES order', () => {
    const s = toBeatSeries([10, 20, 30, 40, 50, 60, 70, 80], ['N', '+', 'V', '~', 'A', '|', '"', 'x'])
    expect([...s.samples]).toEqual([10, 30, 50])
    expect([...s.classes].map((c) => AAMI_CLASSES[c])).toEqual(['N', 'V', 'S'])
    expect(s.samples).toBeInstanceOf(Float64Array)
    expect(s.classes).toBeInstanceOf(Uint8Array)
  })

  it('sorts unsorted input by sample, keeping labels with their samples and ties in input order', () => {
    const s = toBeatSeries([300, 100, 200, 100], ['V', 'A', 'F', 'N'])
    expect([...s.samples]).toEqual([100, 100, 200, 300])
    expect([...s.classes].map((c) => AAMI_CLASSES[c])).toEqual(['S', 'N', 'F', 'V'])
  })

  it('labels unlabelled detections N and accepts typed arrays', () => {
    const s = toBeatSeries(new Int32Array([5, 1]))
    expect([...s.samples]).toEqual([1, 5])
    expect([...s.classes]).toEqual([0, 0])
  })

  it('handles empty input', () => {
    expect(toBeatSeries([], []).samples.length).toBe(0)
  })

  it('rejects mismatched lengths and non-finite samples', () => {
    expect(thrown(() => toBeatSeries([1, 2], ['N']))).toMatchObject({ code: 'E_INTERNAL', message: expect.stringContaining('2 samples but 1 labels') })
    expect(thrown(() => toBeatSeries([1, Number.NaN]))).toMatchObject({ code: 'E_INTERNAL', context: { index: 1 } })
  })
})
