import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { lcsLength, rougeL, rougeSignature, rougeTokens, type RougeScore } from '../../src/metrics/rouge-l.ts'
import { rng } from '../helpers/seeded-random.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

interface GoldenScore {
  precision: number
  recall: number
  f: number
}
interface GoldenPair {
  hypothesis: string
  reference: string
  rougeL: GoldenScore
  rougeL_stemmed: GoldenScore
}

/** Parity bound of issue 15: 0.01 points on the 0-100 scale, i.e. 1e-4 on rouge-score's 0-1. */
const BOUND = 1e-4
const CHINESE = '窦性心律，未见停搏。'

function maxDeviation(ours: RougeScore, gold: GoldenScore): number {
  return Math.max(Math.abs(ours.precision - gold.precision), Math.abs(ours.recall - gold.recall), Math.abs(ours.f - gold.f))
}

describe('rougeTokens', () => {
  it('tokenizes like rouge-score by default: lower case, [a-z0-9] runs, everything else a separator', () => {
    expect(rougeTokens("ST-segment at 54,734,628 ms (isn't)")).toEqual(['st', 'segment', 'at', '54', '734', '628', 'ms', 'isn', 't'])
    expect(rougeTokens('naïve ÉCG')).toEqual(['na', 've', 'cg'])
    expect(rougeTokens(CHINESE)).toEqual([])
  })

  it('stems only tokens longer than 3 characters', () => {
    expect(rougeTokens('Flies dies contractions beats', { stem: true })).toEqual(['fli', 'die', 'contract', 'beat'])
    // Porter alone would make "wa" and "ha" of these 3-letter words.
    expect(rougeTokens('was has ties', { stem: true })).toEqual(['was', 'has', 'tie'])
  })

  it('keeps Unicode letters and digits with the unicode tokenizer, Han characters one each', () => {
    expect(rougeTokens('Naïve ÉCG, 72 bpm', { tokenizer: 'unicode' })).toEqual(['naïve', 'écg', '72', 'bpm'])
    expect(rougeTokens('cafe\u0301 ok', { tokenizer: 'unicode' })).toEqual(['cafe\u0301', 'ok'])
    expect(rougeTokens(CHINESE, { tokenizer: 'unicode' })).toEqual(['窦', '性', '心', '律', '未', '见', '停', '搏'])
    expect(rougeTokens('Σύνοψη ρυθμού', { tokenizer: 'unicode' })).toEqual(['σύνοψη', 'ρυθμού'])
  })

  it('gives the same tokens with either tokenizer on ASCII text, stemmed or not', () => {
    const text = 'We observed 2 events consistent with Premature Atrial Contraction here; HR 72-119 bpm.'
    for (const stem of [false, true]) {
      expect(rougeTokens(text, { stem, tokenizer: 'unicode' })).toEqual(rougeTokens(text, { stem }))
    }
  })
})

describe('rougeL', () => {
  it('is the LCS over hypothesis (precision) and reference (recall) lengths', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd'])).toBe(3)
    const r = rougeL('a c x d e', 'a b c d')
    expect(r.precision).toBeCloseTo(3 / 5, 12)
    expect(r.recall).toBeCloseTo(3 / 4, 12)
    expect(r.f).toBeCloseTo((2 * 0.6 * 0.75) / (0.6 + 0.75), 12)
  })

  it('scores identical text 1 and disjoint text 0', () => {
    expect(rougeL('Sinus rhythm with no pauses.', 'sinus rhythm, with no pauses')).toEqual({ precision: 1, recall: 1, f: 1 })
    expect(rougeL('alpha beta', 'gamma delta')).toEqual({ precision: 0, recall: 0, f: 0 })
  })

  it('scores 0 when either side has no token, as rouge-score does', () => {
    const zero = { precision: 0, recall: 0, f: 0 }
    expect(rougeL('', 'Sinus rhythm with no pauses.')).toEqual(zero)
    expect(rougeL('Sinus rhythm.', '')).toEqual(zero)
    expect(rougeL('', '')).toEqual(zero)
    expect(rougeL('...', 'Sinus rhythm')).toEqual(zero)
  })

  it('matches stems only with stemming on', () => {
    expect(rougeL('contractions detected', 'contraction detect').f).toBe(0)
    expect(rougeL('contractions detected', 'contraction detect', { stem: true }).f).toBe(1)
  })

  it('does not score non-ASCII text 0 with the unicode tokenizer (rouge-score mode does)', () => {
    expect(rougeL(CHINESE, CHINESE)).toEqual({ precision: 0, recall: 0, f: 0 })
    expect(rougeL(CHINESE, CHINESE, { tokenizer: 'unicode' })).toEqual({ precision: 1, recall: 1, f: 1 })
    const partial = rougeL('窦性心律，可见停搏。', CHINESE, { tokenizer: 'unicode' })
    expect(partial.f).toBeGreaterThan(0)
    expect(partial.f).toBeLessThan(1)
  })

  it('keeps precision, recall and F in [0, 1] on random text', () => {
    const next = rng(1515)
    const words = ['sinus', 'rhythm', 'beats', 'beat', 'PVC', '72', 'bpm', '心律', 'é', '-', ',', 'Detected']
    const text = () => Array.from({ length: Math.floor(next() * 15) }, () => words[Math.floor(next() * words.length)]).join(' ')
    for (let i = 0; i < 500; i++) {
      const opts = { stem: next() < 0.5, tokenizer: next() < 0.5 ? ('unicode' as const) : ('rouge-score' as const) }
      for (const v of Object.values(rougeL(text(), text(), opts))) {
        expect(v).toBeGreaterThanOrEqual(0)
        expect(v).toBeLessThanOrEqual(1)
      }
    }
  })

  it('rejects an unknown tokenizer with a PipelineError naming the choices', () => {
    expect(() => rougeL('a', 'a', { tokenizer: 'words' as never })).toThrow(PipelineError)
    expect(() => rougeSignature({ tokenizer: 'words' as never })).toThrow(/'rouge-score' or 'unicode'/)
  })
})

describe('rougeSignature', () => {
  it('states the variant, tokenizer, stemming and implementation', () => {
    expect(rougeSignature()).toBe('rougeL|tok:rouge-score|stem:no|impl:holter-pipeline-1')
    expect(rougeSignature({ stem: true, tokenizer: 'unicode' })).toBe('rougeL|tok:unicode|stem:porter-nltk|impl:holter-pipeline-1')
  })
})

describeShared('ROUGE-L parity with rouge-score on golden/metrics/text-and-tests.json', () => {
  const pairs = (JSON.parse(readFileSync(sharedPath('golden/metrics/text-and-tests.json'), 'utf8')) as { pairs: GoldenPair[] }).pairs

  it.each([
    ['rougeL', false],
    ['rougeL_stemmed', true],
  ] as const)('%s precision, recall and F of every pair are within 0.01 points', (key, stem) => {
    expect(pairs.length).toBeGreaterThan(60)
    const deviations = pairs.map((p) => maxDeviation(rougeL(p.hypothesis, p.reference, { stem }), p[key]))
    expect(Math.max(...deviations)).toBeLessThan(BOUND)
  })

  it('the golden exercises stemming: some pairs score differently with it', () => {
    expect(pairs.some((p) => p.rougeL.f !== p.rougeL_stemmed.f)).toBe(true)
  })

  it('the non-ASCII pair scores 0 in rouge-score mode, as the golden says, and 1 with the unicode tokenizer', () => {
    const pair = pairs.find((p) => p.hypothesis !== '' && !/[a-z0-9]/i.test(p.hypothesis) && p.hypothesis === p.reference)
    expect(pair).toBeDefined()
    expect(pair!.rougeL.f).toBe(0)
    expect(rougeL(pair!.hypothesis, pair!.reference).f).toBe(0)
    expect(rougeL(pair!.hypothesis, pair!.reference, { tokenizer: 'unicode' }).f).toBe(1)
  })
})
