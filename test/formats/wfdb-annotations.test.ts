import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { createMitAnnotationParser, isBeatCode, wfdbAnnotationSymbol } from '../../src/formats/wfdb-annotations.ts'
import type { WfdbAnnotation } from '../../src/formats/wfdb-annotations.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { thrown } from '../helpers/thrown.ts'

function parseAll(bytes: Uint8Array, size = bytes.length, fs?: number): WfdbAnnotation[] {
  const parser = createMitAnnotationParser('test.atr', { fs })
  const out: WfdbAnnotation[] = []
  for (let at = 0; at < bytes.length; at += size) out.push(...parser.push(bytes.subarray(at, at + size)))
  out.push(...parser.end())
  return out
}

function counts(anns: WfdbAnnotation[]): Record<string, number> {
  const c: Record<string, number> = {}
  for (const a of anns) c[a.symbol] = (c[a.symbol] ?? 0) + 1
  return c
}

/** Builds an MIT annotation file from words: [code, data], ['skip', n], ['aux', text], ['eof']. */
function mit(...items: ([number, number] | ['skip', number] | ['aux', string] | ['eof'])[]): Uint8Array {
  const b: number[] = []
  const word = (code: number, data: number) => b.push(data & 0xff, ((code << 2) | (data >> 8)) & 0xff)
  for (const it of items) {
    if (it[0] === 'eof') word(0, 0)
    else if (it[0] === 'skip') {
      const v = it[1] >>> 0
      word(59, 0)
      b.push((v >>> 16) & 0xff, (v >>> 24) & 0xff, v & 0xff, (v >>> 8) & 0xff)
    } else if (it[0] === 'aux') {
      const t = Buffer.from(it[1], 'latin1')
      word(63, t.length)
      b.push(...t)
      if (t.length % 2) b.push(0)
    } else word(it[0], it[1])
  }
  return Uint8Array.from(b)
}


describe('annotation codes', () => {
  it('maps codes to the mnemonics of WFDB ecgstr()', () => {
    const symbols = Array.from({ length: 42 }, (_, c) => wfdbAnnotationSymbol(c)).join('')
    expect(symbols).toBe(' NLRaVFJASEj/Q~[15]|[17]sT*D"=pB^t+u?![]en@xf()r')
    expect(wfdbAnnotationSymbol(45)).toBe('[45]')
  })

  it('follows isqrs(): beats include Q, B, ?, ! and r, not x, + or ~', () => {
    const beats = Array.from({ length: 50 }, (_, c) => c).filter(isBeatCode).map(wfdbAnnotationSymbol).join('')
    expect(beats).toBe('NLRaVFJASEj/QB?!enfr')
  })
})

describe('createMitAnnotationParser on synthetic files', () => {
  it('applies SKIP, NUM, SUB, CHN and AUX; chan and num carry over, subtype and aux do not', () => {
    const bytes = mit(['skip', 5000], [1, 10], [61, 3], [62, 2], [60, 7], ['aux', 'hello'], [5, 20], [61, 1023], ['skip', 70000], [28, 0], ['aux', '(AFIB\0'], [60, 1023], [22, 1], ['eof'])
    const anns = parseAll(bytes)
    expect(anns).toEqual([
      { sample: 5010, code: 1, symbol: 'N', subtype: 3, chan: 2, num: 7, aux: 'hello' },
      { sample: 5030, code: 5, symbol: 'V', subtype: -1, chan: 2, num: 7, aux: '' },
      { sample: 75030, code: 28, symbol: '+', subtype: 0, chan: 2, num: -1, aux: '(AFIB' },
      { sample: 75031, code: 22, symbol: '"', subtype: 0, chan: 2, num: -1, aux: '' },
    ])
    for (const size of [1, 2, 3, 5]) expect(parseAll(bytes, size)).toEqual(anns)
  })

  it('parses the same when the caller refills one Buffer for every chunk (the reader does: a Buffer slice is a view)', () => {
    // Beats, rhythm changes with AUX text and SKIPs, so that words, SKIPs and AUX runs straddle chunks.
    const words: Parameters<typeof mit> = []
    for (let i = 0; i < 3000; i++) {
      words.push([1, 90 + (i % 7)])
      if (i % 97 === 0) words.push([28, 0], ['aux', i % 2 ? '(AFIB' : '(N'])
      if (i % 211 === 0) words.push(['skip', 5000])
    }
    words.push(['eof'])
    const bytes = mit(...words)
    const whole = parseAll(bytes)
    expect(whole.length).toBe(3000 + 31)
    for (const size of [7, 64, 1000]) {
      const parser = createMitAnnotationParser('test.atr')
      const buf = Buffer.alloc(size)
      const out: WfdbAnnotation[] = []
      for (let at = 0; at < bytes.length; at += size) {
        const n = Math.min(size, bytes.length - at)
        buf.set(bytes.subarray(at, at + n))
        out.push(...parser.push(buf.subarray(0, n)))
        buf.fill(0xee) // what the next read would leave there
      }
      out.push(...parser.end())
      expect(out, `chunks of ${size}`).toEqual(whole)
    }
  })

  it('accepts a negative SKIP (WFDB writes one for a null annotation) and ignores bytes after the end mark', () => {
    const anns = parseAll(mit([1, 100], ['skip', -50], [1, 10], ['eof'], [1, 1]))
    expect(anns.map((a) => a.sample)).toEqual([100, 60])
  })

  it('reads a leading definition table, converting ticks with the file time resolution', () => {
    const bytes = mit([22, 0], ['aux', '## time resolution: 1000'], [22, 0], ['aux', '## annotation type definitions'],
      [22, 0], ['aux', '42 W wide beat'], ['skip', -1], [0, 1], [42, 500], [1, 1000], ['eof'])
    const parser = createMitAnnotationParser('t.atr', { fs: 250 })
    const anns = [...parser.push(bytes), ...parser.end()]
    expect(parser.timeResolution).toBe(1000)
    expect(anns.map((a) => [a.sample, a.symbol])).toEqual([[125, 'W'], [375, 'N']])
    expect(parseAll(bytes).map((a) => a.sample)).toEqual([500, 1500]) // no fs: ticks as they are
  })

  it('keeps a NOTE at time 0 that is not a table entry', () => {
    expect(parseAll(mit([22, 0], ['aux', 'start'], [1, 5], ['eof'])).map((a) => a.aux)).toEqual(['start', ''])
  })

  it.each([
    ['a file cut inside a word', mit([1, 10], ['eof']).subarray(0, 3), 2],
    ['a file cut inside a SKIP', mit([1, 10], ['skip', 9]).subarray(0, 6), 2],
    ['a file cut inside an AUX', mit([1, 10], ['aux', 'abcdef'], ['eof']).subarray(0, 7), 2],
    ['a file without end mark', mit([1, 10], [1, 20]), 4],
  ])('refuses %s with E_WFDB_ANNOTATION naming the byte offset', (_, bytes, offset) => {
    for (const size of [1, 4, 100]) {
      const e = thrown(() => parseAll(bytes, size))
      expect(e.code).toBe('E_WFDB_ANNOTATION')
      expect(e.context).toEqual({ file: 'test.atr', offset })
      expect(e.message).toMatch(/^test\.atr: byte \d+: file ends with .*truncated/)
    }
  })

  it('refuses a pseudo-annotation before any annotation, and a time that goes negative', () => {
    const sub = thrown(() => parseAll(mit([61, 1], [1, 1], ['eof'])))
    expect(sub.message).toMatch(/byte 0: pseudo-annotation SUB comes before any annotation/)
    const neg = thrown(() => parseAll(mit(['skip', -5], [1, 2], ['eof'])))
    expect(neg.context.offset).toBe(6)
  })
})

describeShared('createMitAnnotationParser on real files', () => {
  const read = (rel: string) => new Uint8Array(readFileSync(sharedPath(rel)))

  it('reads 100.atr: 2274 annotations, 2273 beats (2239 N, 33 A, 1 V), first "+" (N at 18', () => {
    const anns = parseAll(read('data/mitdb/100.atr'))
    expect(anns).toHaveLength(2274)
    expect(anns.filter((a) => isBeatCode(a.code))).toHaveLength(2273)
    expect(counts(anns)).toEqual({ '+': 1, N: 2239, A: 33, V: 1 })
    expect(anns[0]).toEqual({ sample: 18, code: 28, symbol: '+', subtype: 0, chan: 0, num: 0, aux: '(N' })
    expect(anns[1]).toMatchObject({ sample: 77, symbol: 'N', aux: '' })
  })

  it('agrees with the independent CSV of the first 30 min of record 100, whatever the chunking', () => {
    const bytes = read('data/mitdb/100.atr')
    const lines = readFileSync(sharedPath('data/edf/mitbih100_30min.annotations.csv'), 'utf8').trim().split(/\r?\n/).slice(1)
    const expected = lines.map((l) => {
      const [sample, , symbol, aux, isBeat] = l.split(',')
      return [Number(sample), symbol, aux, isBeat === '1']
    })
    const whole = parseAll(bytes)
    const got = whole.slice(0, expected.length).map((a) => [a.sample, a.symbol, a.aux, isBeatCode(a.code)])
    expect(got).toEqual(expected)
    expect(whole[expected.length].sample).toBeGreaterThan(1800 * 360)
    for (const size of [1, 3, 7, 4097]) expect(parseAll(bytes, size)).toEqual(whole)
  })

  it('reads 208.atr: V and F beats, subtypes and rhythm strings without their NUL', () => {
    const anns = parseAll(read('data/mitdb/208.atr'))
    expect(anns).toHaveLength(3040)
    expect(counts(anns)).toMatchObject({ N: 1586, V: 992, F: 373, S: 2, Q: 2, '~': 24, '|': 8, '+': 53 })
    const rhythms = anns.filter((a) => a.symbol === '+').map((a) => a.aux)
    expect(new Set(rhythms)).toEqual(new Set(['(N', '(T']))
    expect(anns.filter((a) => a.subtype !== 0).length).toBeGreaterThan(1000)
  })

  it('reads an Icentia11k .atr written by wfdb-python: its table is read, not returned', () => {
    const bytes = read('data/icentia11k/p00000_s00.atr')
    const parser = createMitAnnotationParser('p00000_s00.atr', { fs: 250 })
    const anns = [...parser.push(bytes), ...parser.end()]
    expect(parser.timeResolution).toBe(250)
    expect(anns).toHaveLength(6923)
    expect(counts(anns)).toEqual({ N: 6641, Q: 244, '+': 38 })
    expect(anns[0]).toMatchObject({ sample: 28, symbol: 'N', aux: 'None' })
    expect(new Set(anns.filter((a) => a.symbol === '+').map((a) => a.aux))).toEqual(new Set(['(N', ')']))
    expect(parseAll(bytes, 5)).toEqual(anns)
  })
})
