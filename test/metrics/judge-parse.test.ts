// Validation of a judge's reply (table-driven) and the ScoreGPT signature.
import { describe, expect, it } from 'vitest'
import { judgeSignature, parseJudgeReply, zeroScores } from '../../src/metrics/judge-parse.ts'

const FULL = 'report_general_summary'
const OVERVIEW = 'report_statistical_overview'
const all = (v: unknown, keys = Array.from({ length: 17 }, (_, i) => String(i + 1))) => Object.fromEntries(keys.map((k) => [k, v]))
const SUBSET = ['1', '2', '3', '10', '11', '15', '16']
const mixed = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [String(i + 1), (i * 7) % 101]))
const mixedMean = Object.values(mixed).reduce((s, x) => s + x, 0) / 17

describe('parseJudgeReply: accepted', () => {
  it.each([
    ['a bare object', JSON.stringify(mixed)],
    ['with whitespace around', `\n  ${JSON.stringify(mixed, null, 2)}\n`],
    ['in a ```json fence', `\`\`\`json\n${JSON.stringify(mixed)}\n\`\`\``],
    ['in a bare ``` fence', `\`\`\`\n${JSON.stringify(mixed, null, 2)}\n\`\`\``],
    ['in a one-line fence', `\`\`\`${JSON.stringify(mixed)}\`\`\``],
  ])('%s', (_, reply) => {
    expect(parseJudgeReply(reply, FULL)).toEqual({ scores: mixed, mean: mixedMean })
  })

  it('decimals, 0 and 100 are in range; keys in any order', () => {
    const reply: Record<string, unknown> = { ...all(100), '3': 0, '17': 72.5 }
    const keys = Object.keys(reply).reverse()
    const v = parseJudgeReply(JSON.stringify(Object.fromEntries(keys.map((k) => [k, reply[k]]))), FULL)
    expect(v).toEqual({ scores: reply, mean: (15 * 100 + 0 + 72.5) / 17 })
  })

  it('a string holding only a number counts as that number', () => {
    const v = parseJudgeReply(JSON.stringify({ ...all(80), '5': '85', '6': ' 90.5 ' }), FULL)
    expect(v).toMatchObject({ scores: { '5': 85, '6': 90.5, '7': 80 } })
  })

  it('the statistical overview: exactly its subset, mean over those', () => {
    const scores = { '1': 90, '2': 80, '3': 70, '10': 100, '11': 60, '15': 50, '16': 40 }
    expect(parseJudgeReply(JSON.stringify(scores), OVERVIEW)).toEqual({ scores, mean: 70 })
  })
})

describe('parseJudgeReply: refused, saying why', () => {
  it.each([
    ['not JSON', 'The report is good. Scores: 90', /not a JSON object of scores \(found "The report is good/],
    ['an empty reply', '', /found an empty reply/],
    ['prose around the object', `Here you are: ${JSON.stringify(mixed)}`, /not a JSON object of scores/],
    ['an array', JSON.stringify([1, 2, 3]), /JSON but not an object keyed by criterion/],
    ['null', 'null', /JSON but not an object/],
    ['a key missing', JSON.stringify({ ...all(50), '17': undefined }), /exactly the keys 1, 2,.* 17 for report_general_summary: missing 17$/],
    ['an extra key', JSON.stringify({ ...all(50), '18': 50 }), /: unexpected "18"$/],
    ['missing and extra', JSON.stringify({ ...all(50), '4': undefined, overall: 50 }), /missing 4; unexpected "overall"/],
    ['above 100', JSON.stringify({ ...all(50), '9': 101 }), /criterion 9 is out of range: 101 \(expected 0 to 100\)/],
    ['below 0', JSON.stringify({ ...all(50), '2': -5 }), /criterion 2 is out of range: -5/],
    ['a negative string', JSON.stringify({ ...all(50), '2': '-5' }), /criterion 2 is out of range: -5/],
    ['a percent string', JSON.stringify({ ...all(50), '4': '85%' }), /criterion 4 must be a number from 0 to 100, found "85%"/],
    ['a fraction string', JSON.stringify({ ...all(50), '4': '85/100' }), /found "85\/100"/],
    ['null score', JSON.stringify({ ...all(50), '1': null }), /criterion 1 must be a number .* found null/],
    ['a boolean', JSON.stringify({ ...all(50), '1': true }), /found true/],
    ['a nested object', JSON.stringify({ ...all(50), '1': { score: 50 } }), /found \{"score":50\}/],
  ])('%s', (_, reply, why) => {
    const v = parseJudgeReply(reply, FULL)
    expect(v).not.toHaveProperty('scores')
    expect((v as { error: string }).error).toMatch(why)
  })

  it('the statistical overview refuses all 17 keys (the extra ones named)', () => {
    const v = parseJudgeReply(JSON.stringify(all(50)), OVERVIEW)
    expect((v as { error: string }).error).toMatch(/exactly the keys 1, 2, 3, 10, 11, 15, 16 for report_statistical_overview: unexpected "4", "5", "6", "7", "8", "9", "12", "13", "14", "17"/)
  })

  it('the statistical overview refuses its subset with one missing', () => {
    const v = parseJudgeReply(JSON.stringify({ ...all(50, SUBSET), '16': undefined }), OVERVIEW)
    expect((v as { error: string }).error).toMatch(/missing 16/)
  })

  it('a long reply is quoted cut', () => {
    const v = parseJudgeReply('x'.repeat(500), FULL) as { error: string }
    expect(v.error).toContain(`"${'x'.repeat(120)}..."`)
    expect(v.error.length).toBeLessThan(220)
  })
})

describe('zeroScores', () => {
  it('every criterion of the task at 0', () => {
    expect(zeroScores(OVERVIEW)).toEqual({ scores: all(0, SUBSET), mean: 0 })
    expect(Object.keys(zeroScores(FULL).scores)).toHaveLength(17)
  })
})

describe('judgeSignature', () => {
  const o = { model: 'gpt-4o-2024-08-06', temperature: 0, promptHash: 'ab'.repeat(32), version: 'hp-judge-1' }

  it('names the judge model, temperature, prompt version and hash, and the rules', () => {
    expect(judgeSignature(o)).toBe(`score-gpt|judge:gpt-4o-2024-08-06|temp:0|prompt:hp-judge-1#${'ab'.repeat(8)}|scale:0-100|mean:unweighted|numeric-strings:accepted|empty:zero`)
  })

  it('with a task, its criteria; with a seed, the seed', () => {
    expect(judgeSignature({ ...o, taskType: OVERVIEW, seed: 7 })).toBe(`score-gpt|judge:gpt-4o-2024-08-06|temp:0|seed:7|prompt:hp-judge-1#${'ab'.repeat(8)}|criteria:1,2,3,10,11,15,16|scale:0-100|mean:unweighted|numeric-strings:accepted|empty:zero`)
  })

  it('differs when anything judged differs', () => {
    const base = judgeSignature(o)
    for (const change of [{ model: 'gpt-4o-mini' }, { temperature: 0.2 }, { promptHash: 'cd'.repeat(32) }, { version: 'hp-judge-2' }]) expect(judgeSignature({ ...o, ...change })).not.toBe(base)
  })

  it('a "|" in a model id cannot split the signature', () => {
    expect(judgeSignature({ ...o, model: 'a|b' })).toContain('judge:a%7Cb|')
  })
})
