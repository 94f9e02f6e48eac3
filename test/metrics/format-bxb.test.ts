import { describe, expect, it } from 'vitest'
import { toBeatSeries } from '../../src/formats/aami-classes.ts'
import { grossStats, scoreBeats } from '../../src/metrics/bxb-stats.ts'
import { formatBeatScore, formatBxbStats, formatBxbTable } from '../../src/metrics/format-bxb.ts'

const ref = toBeatSeries([1000, 1400, 1800, 2200], ['N', 'V', 'A', 'N'])
const test = toBeatSeries([1000, 1400, 1800, 3000], ['N', 'V', 'S', 'N'])
const score = scoreBeats(ref, test, { fs: 360, skipMs: 4 })

describe('formatBxbStats', () => {
  it('prints the matrix rows and the statistics like bxb -S', () => {
    expect(formatBxbStats(score.whole)).toBe(
      [
        '                Algorithm',
        '         n     s     v     f     q     o',
        '   _____________________________________',
        ' N |     1     0     0     0     0     1',
        ' S |     0     1     0     0     0     0',
        ' V |     0     0     1     0     0     0',
        ' F |     0     0     0     0     0     0',
        ' Q |     0     0     0     0     0     0',
        ' O |     1     0     0     0     0',
        '',
        '           QRS sensitivity:  75.00% (3/4)',
        ' QRS positive predictivity:  75.00% (3/4)',
        '           VEB sensitivity: 100.00% (1/1)',
        ' VEB positive predictivity: 100.00% (1/1)',
        '   VEB false positive rate:  0.000% (0/3)',
        '          SVEB sensitivity: 100.00% (1/1)',
        'SVEB positive predictivity: 100.00% (1/1)',
        '',
      ].join('\n'),
    )
  })

  it('prints "-" for undefined ratios', () => {
    const empty = scoreBeats(toBeatSeries([]), toBeatSeries([]), { fs: 360 }).whole
    expect(formatBxbStats(empty)).toContain('           QRS sensitivity:      -  (0/0)')
  })
})

describe('formatBeatScore', () => {
  it('reports both the whole record and the period after the skip', () => {
    const text = formatBeatScore(score, { recordId: 'x1', fs: 360, testAnnotator: 'gqrs' })
    expect(text).toMatch(/^Beat-by-beat comparison results for record x1\n/)
    expect(text).toContain('     Test annotator: gqrs')
    expect(text).toContain('Match window: 54 samples')
    expect(text).toContain('Whole record:')
    expect(text).toContain('From 0 s (EC57 skips the first 5 minutes):')
    expect(text.match(/QRS sensitivity/g)).toHaveLength(2)
  })
})

describe('formatBxbTable', () => {
  it('prints one line per record and a gross line', () => {
    const text = formatBxbTable([{ recordId: '100', stats: score.whole }], grossStats([score.whole, score.whole]))
    expect(text.split('\n')).toEqual([
      'Record    Beats   Miss  Extra   Q Se   Q +P   V Se   V +P   S Se   S +P',
      '100            4      1      1  75.00  75.00 100.00 100.00 100.00 100.00',
      'Gross          8      2      2  75.00  75.00 100.00 100.00 100.00 100.00',
      '',
    ])
  })
})
