import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { bleuFromStats, bleuSignature, corpusBleu, sentenceBleu } from '../../src/metrics/bleu.ts'
import { tokenize13aLine } from '../../src/metrics/tokenize-13a.ts'
import { rng } from '../helpers/seeded-random.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

interface GoldenPair {
  hypothesis: string
  reference: string
  sentence_bleu1: number
  sentence_bleu4: number
}
interface Golden {
  pairs: GoldenPair[]
  corpus: { bleu1: number; bleu4: number; signature_bleu4: string }
}

/** Parity bound of issue 15: 0.01 BLEU points. */
const POINTS = 0.01

describe('tokenize13a', () => {
  it.each([
    ['Hello, world!', 'Hello , world !'],
    ['Rate 72 bpm; range 60-119 bpm.', 'Rate 72 bpm ; range 60 - 119 bpm .'],
    ['1,000 beats at 3.5 mm', '1,000 beats at 3.5 mm'],
    ['a.b,c', 'a . b , c'],
    ['ST-segment (V4–V6) isn\'t', 'ST-segment ( V4–V6 ) isn\'t'],
    ['&quot;x&quot; &amp;amp; &lt;y&gt;', '" x " & amp ; < y >'],
    ['line-\nbreak<skipped> here\nnow', 'linebreak here now'],
    ['trailing hyphen-\n', 'trailing hyphen-'],
    ['tab\tand\u00a0nbsp\u2009thin', 'tab and nbsp thin'],
    ['窦性心律，未见停搏。', '窦性心律，未见停搏。'],
    ['', ''],
  ])('%j -> %j', (text, tokens) => {
    expect(tokenize13aLine(text)).toBe(tokens)
  })
})

describe('sentenceBleu (sacrebleu, effective order, exp smoothing)', () => {
  it('scores identical text 100 at both orders', () => {
    const s = 'The slowest heart rate occurs precisely at 50354512 ms.'
    expect(sentenceBleu(s, s, { maxOrder: 1 }).score).toBeCloseTo(100, 10)
    expect(sentenceBleu(s, s, { maxOrder: 4 }).score).toBeCloseTo(100, 10)
  })

  it('uses the orders a short hypothesis has (effective order)', () => {
    const r = sentenceBleu('Sinus rhythm', 'Sinus rhythm', { maxOrder: 4 })
    expect(r.totals).toEqual([2, 1, 0, 0])
    expect(r.score).toBeCloseTo(100, 10)
  })

  it('smooths orders with no match by 1 / 2^k (exp)', () => {
    const r = sentenceBleu('a b c d', 'a b x y', { maxOrder: 4 })
    expect(r.counts).toEqual([2, 1, 0, 0])
    expect(r.totals).toEqual([4, 3, 2, 1])
    expect(r.precisions).toEqual([50, 100 / 3, 100 / (2 * 2), 100 / (4 * 1)])
    const expected = Math.exp((Math.log(50) + Math.log(100 / 3) + Math.log(25) + Math.log(25)) / 4)
    expect(r.score).toBeCloseTo(expected, 10)
    expect(r.bp).toBe(1)
  })

  it('applies the brevity penalty exp(1 - ref/sys) to a short hypothesis', () => {
    const r = sentenceBleu('a b', 'a b c d', { maxOrder: 1 })
    expect(r).toMatchObject({ sysLen: 2, refLen: 4, bp: Math.exp(-1) })
    expect(r.score).toBeCloseTo(100 * Math.exp(-1), 10)
  })

  it('clips repeated n-grams at their reference count', () => {
    const r = sentenceBleu('the the the', 'the cat', { maxOrder: 1 })
    expect(r.counts).toEqual([1])
    expect(r.score).toBeCloseTo(100 / 3, 10)
  })

  it('is case sensitive (mixed case, as sacrebleu by default)', () => {
    expect(sentenceBleu('SINUS RHYTHM', 'sinus rhythm', { maxOrder: 1 }).score).toBe(0)
  })

  it('scores 0 with no overlap, an empty hypothesis, an empty reference, or both', () => {
    expect(sentenceBleu('alpha beta', 'gamma delta', { maxOrder: 4 }).score).toBe(0)
    const emptyHyp = sentenceBleu('', 'Sinus rhythm with no pauses.', { maxOrder: 4 })
    expect(emptyHyp).toMatchObject({ score: 0, sysLen: 0, refLen: 6, bp: 0 })
    // sacrebleu raises on an empty reference; we score it as a reference of no tokens.
    expect(sentenceBleu('Sinus rhythm.', '', { maxOrder: 4 })).toMatchObject({ score: 0, refLen: 0, bp: 1 })
    expect(sentenceBleu('', '', { maxOrder: 1 }).score).toBe(0)
  })

  it('counts the same n-grams with numeric keys and with the string keys of large vocabularies', () => {
    // 100 distinct tokens: exact numeric keys for BLEU-4 (101^4 < 2^53), string keys for order 9.
    const next = rng(9)
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`)
    const text = () => Array.from({ length: 300 }, () => words[Math.floor(next() * 100)]).join(' ')
    const [hyp, ref] = [text(), text()]
    const four = sentenceBleu(hyp, ref, { maxOrder: 4 })
    const nine = sentenceBleu(hyp, ref, { maxOrder: 9 })
    expect(nine.counts.slice(0, 4)).toEqual(four.counts)
    expect(nine.totals.slice(0, 4)).toEqual(four.totals)
    expect(four.counts[1]).toBeGreaterThan(0)
  })

  it('keeps every score in [0, 100] on random text', () => {
    const next = rng(15)
    const words = ['sinus', 'rhythm', 'PVC', 'at', '120', 'ms', '.', ',', 'heart', 'rate', '-', '72', 'bpm']
    const text = () => Array.from({ length: Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]).join(' ')
    for (let i = 0; i < 500; i++) {
      for (const maxOrder of [1, 4]) {
        const s = sentenceBleu(text(), text(), { maxOrder }).score
        expect(s).toBeGreaterThanOrEqual(0)
        expect(s).toBeLessThanOrEqual(100 + 1e-9)
      }
    }
  })

  it('rejects an order it cannot compute, with a PipelineError naming the field', () => {
    expect(() => sentenceBleu('a', 'a', { maxOrder: 0 })).toThrow(PipelineError)
    expect(() => sentenceBleu('a', 'a', { maxOrder: 2.5 })).toThrow(/maxOrder/)
  })
})

describe('corpusBleu (sacrebleu defaults)', () => {
  it('sums statistics over segments before scoring, without effective order', () => {
    const r = corpusBleu(['a b c', 'd e'], ['a b c', 'd x'], { maxOrder: 4 })
    expect(r.counts).toEqual([4, 2, 1, 0])
    expect(r.totals).toEqual([5, 3, 1, 0])
    // No 4-gram at all: sacrebleu's log(0) stand-in makes the corpus score 0.
    expect(r.score).toBe(0)
    expect(corpusBleu(['a b c', 'd e'], ['a b c', 'd x'], { maxOrder: 1 }).score).toBeCloseTo(80, 10)
  })

  it('needs one reference per hypothesis', () => {
    expect(() => corpusBleu(['a'], [], { maxOrder: 4 })).toThrow(PipelineError)
  })
})

describe('bleuSignature', () => {
  it('states references, case, effective order, tokenizer, smoothing, order and implementation', () => {
    expect(bleuSignature({ maxOrder: 4 })).toBe('nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|order:4|impl:holter-pipeline-1')
    expect(bleuSignature({ maxOrder: 1, effectiveOrder: false })).toBe('nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:1|impl:holter-pipeline-1')
  })
})

describeShared('BLEU parity with sacrebleu on golden/metrics/text-and-tests.json', () => {
  const golden = JSON.parse(readFileSync(sharedPath('golden/metrics/text-and-tests.json'), 'utf8')) as Golden

  it.each([
    ['sentence_bleu1', 1],
    ['sentence_bleu4', 4],
  ] as const)('%s of every pair is within 0.01 points', (key, maxOrder) => {
    expect(golden.pairs.length).toBeGreaterThan(60)
    const deviations = golden.pairs.map((p) => Math.abs(sentenceBleu(p.hypothesis, p.reference, { maxOrder }).score - p[key]))
    expect(Math.max(...deviations)).toBeLessThan(POINTS)
  })

  it('corpus BLEU-1 and BLEU-4 over all pairs are within 0.01 points', () => {
    const hyps = golden.pairs.map((p) => p.hypothesis)
    const refs = golden.pairs.map((p) => p.reference)
    expect(Math.abs(corpusBleu(hyps, refs, { maxOrder: 1 }).score - golden.corpus.bleu1)).toBeLessThan(POINTS)
    expect(Math.abs(corpusBleu(hyps, refs, { maxOrder: 4 }).score - golden.corpus.bleu4)).toBeLessThan(POINTS)
  })

  it('sentence BLEU-1 from BLEU-4\'s statistics, and corpus BLEU from the sentences\' statistics summed (as `pipeline score` keeps them), equal the golden', () => {
    const sum = { counts: [0, 0, 0, 0], totals: [0, 0, 0, 0], sysLen: 0, refLen: 0 }
    for (const p of golden.pairs) {
      const s = sentenceBleu(p.hypothesis, p.reference, { maxOrder: 4 })
      expect(Math.abs(bleuFromStats(s, { maxOrder: 1, effectiveOrder: true }).score - p.sentence_bleu1)).toBeLessThan(POINTS)
      for (let n = 0; n < 4; n++) {
        sum.counts[n] += s.counts[n]
        sum.totals[n] += s.totals[n]
      }
      sum.sysLen += s.sysLen
      sum.refLen += s.refLen
    }
    expect(Math.abs(bleuFromStats(sum, { maxOrder: 1, effectiveOrder: false }).score - golden.corpus.bleu1)).toBeLessThan(POINTS)
    expect(Math.abs(bleuFromStats(sum, { maxOrder: 4, effectiveOrder: false }).score - golden.corpus.bleu4)).toBeLessThan(POINTS)
  })

  it('signs corpus BLEU with the settings of the golden sacrebleu signature', () => {
    const fields = (sig: string) => new Map(sig.split('|').map((f) => f.split(':') as [string, string]))
    const ours = fields(bleuSignature({ maxOrder: 4, effectiveOrder: false }))
    for (const [key, value] of fields(golden.corpus.signature_bleu4)) {
      if (key !== 'version') expect(ours.get(key)).toBe(value)
    }
  })
})
