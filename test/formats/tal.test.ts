import { open } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { signalBytes } from '../../src/formats/edf-decode.ts'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { encodeTalBlock, parseDecimal, parseTalBlock, talBytes, type TalAnnotation } from '../../src/formats/tal.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const bytes = (s: string) => new TextEncoder().encode(s)
const padded = (s: string, n: number) => {
  const out = new Uint8Array(n)
  out.set(bytes(s))
  return out
}

describe('parseTalBlock', () => {
  it('reads the time-keeping TAL and the annotations after it', () => {
    const r = parseTalBlock(padded('+1\x14\x14\x00+1.027778\x14N\x14\x00+1.838889\x14N\x14\x00', 64), 'a.edf', 1)
    expect(r.recordOnsetSec).toBe(1)
    expect(r.annotations).toEqual([
      { onsetSec: 1.027778, durationSec: null, texts: ['N'] },
      { onsetSec: 1.838889, durationSec: null, texts: ['N'] },
    ])
  })

  it('reads negative onsets, durations, several texts and UTF-8', () => {
    const r = parseTalBlock(padded('-0.5\x14\x14\x00-0.25\x1530\x14Sleep stage W\x14Schlafstadium \u00fc \u2665\x14\x00+2\x150.125\x14x\x14\x00', 120), 'a.edf', 0)
    expect(r.recordOnsetSec).toBe(-0.5)
    expect(r.annotations).toEqual([
      { onsetSec: -0.25, durationSec: 30, texts: ['Sleep stage W', 'Schlafstadium \u00fc \u2665'] },
      { onsetSec: 2, durationSec: 0.125, texts: ['x'] },
    ])
  })

  it('keeps texts given in the time-keeping TAL and drops empty TALs', () => {
    const r = parseTalBlock(padded('+3\x14\x14start\x14\x00+4\x14\x14\x00', 40), 'a.edf', 0)
    expect(r).toEqual({ recordOnsetSec: 3, annotations: [{ onsetSec: 3, durationSec: null, texts: ['start'] }] })
  })

  it('has no record onset for an all-zero block or one without a time-keeping TAL', () => {
    expect(parseTalBlock(new Uint8Array(30), 'a.edf', 0)).toEqual({ recordOnsetSec: null, annotations: [] })
    expect(parseTalBlock(padded('+5\x14V\x14\x00', 12), 'a.edf', 0).recordOnsetSec).toBeNull()
  })

  it.each([
    ['5\x14\x14\x00', 0, "'+' or '-'"],
    ['+\x14\x14\x00', 1, 'digits of a TAL onset'],
    ['+1.2.3\x14\x14\x00', 4, '0x14 after the TAL onset'],
    ['+1\x15\x14\x14\x00', 3, 'digits of a TAL duration'],
    ['+1\x14\x14\x00+2\x14text', 12, '0x14 ending an annotation text'],
    ['+1\x14\x14\x00+2\x14te\x00xt\x14\x00', 10, '0x14 ending an annotation text'],
  ])('rejects malformed TAL %j at byte %i', (text, offset, expected) => {
    const block = bytes(text)
    try {
      parseTalBlock(block, 'bad.edf', 7)
      expect.unreachable()
    } catch (err) {
      expect(err).toMatchObject({ code: 'E_EDF_ANNOTATION', context: { file: 'bad.edf', offset, dataRecord: 7 } })
      expect((err as Error).message).toContain('bad.edf: data record 7, byte')
      expect((err as Error).message).toContain(expected)
    }
  })
})

describe('parseDecimal (TAL onsets and durations)', () => {
  it('equals Number() of the text for signs, points, leading zeros, 15 digits and more', () => {
    const texts = ['+0', '-0', '+5.', '+.5', '0.1', '+0.3', '-1234.5678', '+86399.997222', '+123456789012345', '+1.23456789012345', '+0.000000000000000000001',
      '+1234567890123456', '+12345678901234567890.5', '+9007199254740993', '-0.00000000000000000000000001', '+3.14159265358979323846']
    // And random onsets of every length up to 20 digits, the point anywhere.
    let seed = 7
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n)
    for (let i = 0; i < 5000; i++) {
      const digits = Array.from({ length: 1 + rand(20) }, () => rand(10)).join('')
      const at = rand(digits.length + 1)
      texts.push(`${rand(2) ? '+' : '-'}${digits.slice(0, at)}${rand(4) ? '.' : ''}${digits.slice(at)}`)
    }
    for (const t of texts) {
      const bytes = new TextEncoder().encode(t)
      expect(Object.is(parseDecimal(bytes, 0, bytes.length), Number(t)), t).toBe(true)
    }
  })
})

describe('encodeTalBlock', () => {
  const annotations: TalAnnotation[] = [
    { onsetSec: 0.213889, durationSec: null, texts: ['N'] },
    { onsetSec: -1.5, durationSec: 2, texts: ['a', '\u00e9v\u00e9nement'] },
    { onsetSec: 1 / 3, durationSec: 0.1 + 0.2, texts: ['+(AFIB'] },
  ]

  it('round-trips through parseTalBlock, with onsets at 6 decimals', () => {
    const block = encodeTalBlock(12, annotations, 120)
    expect(block).toHaveLength(120)
    const r = parseTalBlock(block, 'a.edf', 0)
    expect(r.recordOnsetSec).toBe(12)
    expect(r.annotations).toEqual([annotations[0], annotations[1], { onsetSec: 0.333333, durationSec: 0.3, texts: ['+(AFIB'] }])
  })

  it('writes numbers without float noise and pads with zeros', () => {
    const block = encodeTalBlock(0, [{ onsetSec: 0.05, durationSec: 10, texts: ['+(N'] }], 24)
    expect(new TextDecoder().decode(block)).toBe('+0\x14\x14\x00+0.05\x1510\x14+(N\x14\x00' + '\x00'.repeat(5))
    expect(new TextDecoder().decode(encodeTalBlock(-0.0000001, [], 6))).toBe('+0\x14\x14\x00\x00')
  })

  it('sizes TALs in UTF-8 bytes', () => {
    expect(talBytes({ onsetSec: 1, durationSec: null, texts: ['\u00e9'] })).toBe('+1\x14'.length + 2 + 1 + 1)
    const need = talBytes({ onsetSec: 12, durationSec: null, texts: [''] }) + annotations.reduce((n, a) => n + talBytes(a), 0)
    expect(() => encodeTalBlock(12, annotations, need)).not.toThrow()
    expect(() => encodeTalBlock(12, annotations, need - 1)).toThrow(expect.objectContaining({ code: 'E_EDF_ANNOTATION', message: expect.stringContaining(`${need} bytes`) }))
  })

  it('refuses texts that would break the TAL', () => {
    expect(() => talBytes({ onsetSec: 0, durationSec: null, texts: ['a\x14b'] })).toThrow(expect.objectContaining({ code: 'E_EDF_ANNOTATION' }))
    expect(() => talBytes({ onsetSec: 0, durationSec: -1, texts: ['a'] })).toThrow(expect.objectContaining({ code: 'E_EDF_ANNOTATION' }))
  })
})

describeShared('EDF+ annotations of the shared recordings', () => {
  it('mitbih100_30min.edf: the TALs of all records equal the annotation CSV', async () => {
    const path = sharedPath('data/edf/mitbih100_30min.edf')
    const { header: h } = await readEdfHeaderFromFile(path)
    const ann = h.signals.findIndex((s) => s.isAnnotation)
    const records = new Uint8Array(h.recordCount * h.recordBytes)
    const handle = await open(path, 'r')
    try {
      await handle.read(records, 0, records.length, h.headerBytes)
    } finally {
      await handle.close()
    }
    const found: { sample: number; text: string; timeMs: number }[] = []
    for (let r = 0; r < h.recordCount; r++) {
      const { recordOnsetSec, annotations } = parseTalBlock(signalBytes(records, h, ann, r), path, r)
      expect(recordOnsetSec).toBe(r * h.recordDurationSec)
      for (const a of annotations) {
        expect(a.texts).toHaveLength(1)
        found.push({ sample: Math.round(a.onsetSec * 360), text: a.texts[0], timeMs: a.onsetSec * 1000 })
      }
    }
    const rows = readFileSync(sharedPath('data/edf/mitbih100_30min.annotations.csv'), 'utf8').trim().split('\n').slice(1)
    const expected = rows.map((line) => {
      const [sample, timeMs, symbol, aux] = line.split(',')
      return { sample: Number(sample), text: symbol + aux, timeMs: Number(timeMs) }
    })
    expect(found.length).toBe(expected.length)
    expect(found.map(({ sample, text }) => ({ sample, text }))).toEqual(expected.map(({ sample, text }) => ({ sample, text })))
    found.forEach((f, i) => expect(Math.abs(f.timeMs - expected[i].timeMs)).toBeLessThan(0.001))
  })

  it('reads the annotations of the other EDF+ files', async () => {
    for (const f of ['test_edfann.edf', 'test_generator_2.edf', 'Subject00_1.edf']) {
      const path = sharedPath(`data/edf/${f}`)
      const { header: h } = await readEdfHeaderFromFile(path)
      const ann = h.signals.find((s) => s.isAnnotation)!
      const block = new Uint8Array(ann.samplesPerRecord * 2)
      const handle = await open(path, 'r')
      try {
        await handle.read(block, 0, block.length, h.headerBytes + ann.byteOffsetInRecord)
      } finally {
        await handle.close()
      }
      const r = parseTalBlock(block, path, 0)
      expect(r.recordOnsetSec, f).toBe(0)
      expect(r.annotations.length, f).toBeGreaterThan(0)
      if (f === 'test_edfann.edf') expect(r.annotations[2]).toEqual({ onsetSec: 33.43, durationSec: 0, texts: ['Lights off@@EEG F4-A1'] })
      if (f === 'test_generator_2.edf') expect(r.annotations[0].texts).toEqual(['RECORD START'])
    }
  })
})
