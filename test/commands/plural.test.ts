// Counts in the commands' lines: the singular for 1, English plurals otherwise (item kinds
// from plugins included), and the info text that uses them.
import { describe, expect, it } from 'vitest'
import { count, pluralOf } from '../../src/commands/plural.ts'
import { renderInfo } from '../../src/commands/info-render.ts'

describe('count', () => {
  const cases: [number, string, string][] = [
    [0, 'record', '0 records'], [1, 'record', '1 record'], [2, 'record', '2 records'],
    [1, 'data record', '1 data record'], [1, 'PNG file', '1 PNG file'], [3, 'PNG file', '3 PNG files'],
    [2, 'summary', '2 summaries'], [2, 'key', '2 keys'], [2, 'box', '2 boxes'], [2, 'match', '2 matches'], [2, 'video-frame', '2 video-frames'],
  ]
  for (const [n, noun, want] of cases) it(`${n} ${noun}`, () => expect(count(n, noun)).toBe(want))
  it('takes an irregular plural', () => expect(count(2, 'child', 'children')).toBe('2 children'))
  it('pluralOf keeps a vowel + y', () => expect(pluralOf('day')).toBe('days'))
})

describe('pipeline info text', () => {
  it('says "1 sample" and "1 beat" for one', () => {
    const text = renderInfo({
      file: 'r.hea', format: 'WFDB', startTime: null, durationSec: 0.004, samples: 1, details: {}, warnings: [],
      signals: [{ index: 0, label: 'MLII', fs: 250, units: 'mV', physicalMin: -1, physicalMax: 1, digitalMin: -100, digitalMax: 100, samples: 2 }],
      annotations: { file: 'r.atr', count: 1, beats: 1 },
    })
    expect(text).toContain('(1 sample per signal)')
    expect(text).toContain('"MLII"             250 Hz (2 samples), ')
    expect(text).toContain('annotations: 1 (1 beat) in r.atr')
  })
})
