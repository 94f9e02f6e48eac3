// The Vega-Lite spec of a 'bars-with-ci' chart: grouped bars in the view's order of tasks and
// models, whiskers only where an interval is given, the same spec for the same chart, a spec
// Vega-Lite compiles without warnings, and charts that cannot be drawn faithfully refused.
import { describe, expect, it } from 'vitest'
import { compile } from 'vega-lite'
import { chartSpec } from '../../src/report/chart-spec.ts'
import type { ReportChart } from '../../src/report/html-types.ts'
import { thrown } from '../helpers/thrown.ts'

const chart: ReportChart = {
  id: 'closed-accuracy',
  title: 'Closed tasks',
  kind: 'bars-with-ci',
  yLabel: 'Accuracy (%)',
  data: [
    { task: 'rhythm', model: 'random', value: 25, low: 18, high: 33 },
    { task: 'rhythm', model: 'holter-dsp', value: 81, low: null, high: null },
    { task: 'beats', model: 'holter-dsp', value: 64, low: 55, high: 72.5 },
    { task: 'beats', model: 'random', value: 21, low: 14, high: 29 },
  ],
}

// The spec as plain JSON, to look inside without Vega-Lite's wide union types.
const json = (c: ReportChart) => JSON.parse(JSON.stringify(chartSpec(c)))

describe('chartSpec (bars-with-ci)', () => {
  it('groups bars by task with one colour per model, both in order of first appearance', () => {
    const s = json(chart)
    expect(s.encoding.x).toMatchObject({ field: 'task', scale: { domain: ['rhythm', 'beats'] } })
    expect(s.encoding.xOffset).toMatchObject({ field: 'model', scale: { domain: ['random', 'holter-dsp'] } })
    expect(s.layer[0]).toMatchObject({ mark: 'bar', encoding: { y: { field: 'value', title: 'Accuracy (%)' }, color: { field: 'model', scale: { domain: ['random', 'holter-dsp'], scheme: 'tableau10' } } } })
    expect(s.title).toBe('Closed tasks')
    expect(s.data.values).toEqual(chart.data)
  })

  it('draws whiskers (rule plus two caps) from low to high only where both are given', () => {
    const s = json(chart)
    expect(s.layer.map((l: { mark: unknown }) => (typeof l.mark === 'string' ? l.mark : (l.mark as { type: string }).type))).toEqual(['bar', 'rule', 'tick', 'tick'])
    expect(s.layer[1].encoding).toMatchObject({ y: { field: 'low' }, y2: { field: 'high' } })
    expect([s.layer[2].encoding.y.field, s.layer[3].encoding.y.field]).toEqual(['low', 'high'])
    for (const l of s.layer.slice(1)) expect(l.transform).toEqual([{ filter: 'isValid(datum.low) && isValid(datum.high)' }])
  })

  it('shares one value scale from 0 to the highest bar or whisker across layers', () => {
    const domains = json(chart).layer.flatMap((l: { encoding: { y: { scale: { domain: number[] } } } }) => [l.encoding.y.scale.domain])
    expect(new Set(domains.map((d: number[]) => JSON.stringify(d)))).toEqual(new Set(['[0,81]']))
    expect(json({ ...chart, data: [{ task: 't', model: 'm', value: -2, low: -5, high: 1 }] }).layer[0].encoding.y.scale.domain).toEqual([-5, 1])
    expect(json({ ...chart, data: [{ task: 't', model: 'm', value: 0, low: null, high: null }] }).layer[0].encoding.y.scale.domain).toEqual([0, 1])
  })

  it('is deterministic and leaves the chart untouched', () => {
    const copy = structuredClone(chart)
    expect(JSON.stringify(chartSpec(chart))).toBe(JSON.stringify(chartSpec(copy)))
    const s = chartSpec(chart) as { data: { values: unknown[] } }
    ;(s.data.values[0] as { value: number }).value = -1
    expect(chart).toEqual(copy)
  })

  it('compiles with Vega-Lite without warnings', () => {
    const warnings: unknown[] = []
    const logger = { level: () => logger, warn: (...a: unknown[]) => (warnings.push(a), logger), info: () => logger, debug: () => logger, error: (...a: unknown[]) => (warnings.push(a), logger) }
    compile(chartSpec(chart), { logger } as never)
    expect(warnings).toEqual([])
  })

  it('switches to a 20-colour palette past ten models', () => {
    const data = Array.from({ length: 11 }, (_, i) => ({ task: 't', model: `m${i}`, value: i, low: null, high: null }))
    expect(json({ ...chart, data }).layer[0].encoding.color.scale.scheme).toBe('tableau20')
  })

  it.each([
    ['an id that is not a file name', { id: '../evil' }, /id must be/],
    ['an unknown kind', { kind: 'pie' }, /unknown kind "pie"/],
    ['a value that is not finite', { data: [{ task: 't', model: 'm', value: Number.NaN, low: null, high: null }] }, /data\[0\] \(t, m\): value is NaN/],
    ['low without high', { data: [{ task: 't', model: 'm', value: 1, low: 0, high: null }] }, /low and high must both be numbers or both null/],
    ['low above high', { data: [{ task: 't', model: 'm', value: 1, low: 2, high: 0.5 }] }, /interval \[2, 0.5\]/],
  ])('refuses %s with E_INTERNAL naming the chart', (_, patch, message) => {
    const err = thrown(() => chartSpec({ ...chart, ...patch } as ReportChart))
    expect(err.code).toBe('E_INTERNAL')
    expect(err.message).toMatch(message)
    expect(err.message).toContain('report chart')
  })
})
