// Unit tests of strip drawing against the layout's own numbers: grid lines every pxPerMm with
// every fifth dark, the trace on the pixel a known value maps to (constants, a step with no gap,
// values clamped to the band, NaN as a gap), the calibration pulse, markers at their sample's x in
// their source's lane, sizes even and fixed by windowSec, and a reused target fully redrawn.
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { type Canvas, getPixel, type Rgb } from '../../src/render/canvas.ts'
import { DEFAULT_STRIP_OPTIONS, drawStrip, formatClock, formatElapsed, STRIP_COLORS, type StripInput, stripGeometry, stripSize } from '../../src/render/draw-strip.ts'
import { gutterMm, resolveStripOptions } from '../../src/render/strip-layout.ts'

const FS = 360
const is = (c: Canvas, x: number, y: number, colour: Rgb) => getPixel(c, x, y).join() === [...colour, 255].join()
const constant = (v: number, n = 10 * FS) => new Float32Array(n).fill(v)
const input = (samples: Float32Array[], extra: Partial<StripInput> = {}): StripInput => ({
  samples, labels: samples.map((_, k) => `L${k + 1}`), fs: FS, startSample: 1000, startMs: 1000 / FS * 1000, windowSec: 10, ...extra,
})
const bare = { calibration: false, markers: false }

describe('stripSize', () => {
  it('is about 1300 x 400 for a default 10 s, 2-lead strip', () => {
    const { width, height } = stripSize(10, 2, DEFAULT_STRIP_OPTIONS)
    expect(width).toBeGreaterThan(1250)
    expect(width).toBeLessThan(1350)
    expect(height).toBeGreaterThan(350)
    expect(height).toBeLessThan(450)
  })

  it.each([
    [10, 1, 5], [10, 2, 5], [10, 3, 5], [7.3, 2, 5], [2.5, 1, 3.7], [30, 2, 4], [1, 12, 2.2], [0.1, 1, 5],
  ])('%s s, %s leads at %s px/mm: both sides even', (windowSec, leads, pxPerMm) => {
    const o = resolveStripOptions({ pxPerMm })
    const { width, height } = stripSize(windowSec, leads, o)
    expect(width % 2).toBe(0)
    expect(height % 2).toBe(0)
    expect(drawStrip(input(Array.from({ length: leads }, () => constant(0.1, 5)), { windowSec }), o)).toMatchObject({ width, height })
  })

  it('holds the closing grid lines, bottom and right, at every pxPerMm from 1 to 20 in steps of 0.1, with and without marker lanes', () => {
    // The size and the geometry once rounded the header and lanes differently: at 1.1, 1.3, 1.5
    // or 1.7 px/mm the bottom line fell one row past the canvas.
    for (let tenth = 10; tenth <= 200; tenth++) {
      for (const markers of [true, false]) {
        for (const leads of [1, 2, 3]) {
          const o = resolveStripOptions({ pxPerMm: tenth / 10, markers })
          const g = stripGeometry(10, leads, o)
          const what = `${tenth / 10} px/mm, ${leads} leads, markers ${markers}`
          expect(g.top + Math.round(leads * o.leadHeightMm * o.pxPerMm), what).toBeLessThan(g.height) // bottom line
          expect(Math.round((gutterMm(o) + 10 * o.speedMmPerS) * o.pxPerMm), what).toBeLessThan(g.width) // right line
        }
      }
    }
    const c = drawStrip(input([constant(Number.NaN)]), { ...bare, pxPerMm: 1.1 })
    const g = stripGeometry(10, 1, resolveStripOptions({ ...bare, pxPerMm: 1.1 }))
    expect(is(c, 5, g.top + Math.round(DEFAULT_STRIP_OPTIONS.leadHeightMm * 1.1), STRIP_COLORS.dark)).toBe(true)
  })

  it('depends on windowSec, not on the data', () => {
    const a = drawStrip(input([constant(0), constant(1)]))
    const b = drawStrip(input([constant(0, 100), constant(2, 9000)], { startSample: 5, markers: [{ sample: 7, label: 'V', source: 'detector' }], title: 'x'.repeat(200) }))
    expect([a.width, a.height]).toEqual([b.width, b.height])
  })

  it.each([
    { o: { pxPerMm: 0 }, field: 'pxPerMm' },
    { o: { speedMmPerS: -25 }, field: 'speedMmPerS' },
    { o: { gainMmPerMv: Number.NaN }, field: 'gainMmPerMv' },
  ])('refuses $field', ({ o, field }) => {
    expect(() => drawStrip(input([constant(0)]), o)).toThrow(expect.objectContaining({ code: 'E_CONFIG_VALUE', context: { field } }))
  })

  it('refuses a window too large to allocate, naming the bound', () => {
    expect(() => stripSize(1e6, 2, DEFAULT_STRIP_OPTIONS)).toThrow(/pixel bound/)
    expect(() => drawStrip(input([constant(0)], { labels: [] }))).toThrow(PipelineError)
  })
})

describe('grid', () => {
  it.each([5, 4, 6])('at %s px/mm: 1 mm lines every pxPerMm, 5 mm lines dark and 5*pxPerMm apart', (pxPerMm) => {
    const o = { ...bare, pxPerMm }
    const c = drawStrip(input([constant(Number.NaN)]), o)
    const g = stripGeometry(10, 1, resolveStripOptions(o))
    const kind = (x: number, y: number) => (is(c, x, y, STRIP_COLORS.dark) ? 'D' : is(c, x, y, STRIP_COLORS.light) ? 'L' : is(c, x, y, STRIP_COLORS.paper) ? '.' : '?')
    // Along a row between horizontal lines, and down a column between vertical lines.
    const row = Array.from({ length: c.width }, (_, x) => kind(x, g.gridTop + 2))
    const col = Array.from({ length: c.height - g.gridTop }, (_, y) => kind(g.left + 2, g.gridTop + y))
    for (const line of [row, col]) {
      expect(line.includes('?')).toBe(false)
      const dark = line.flatMap((k, i) => (k === 'D' ? [i] : []))
      const light = line.flatMap((k, i) => (k === 'L' ? [i] : []))
      expect(dark[0]).toBe(0)
      expect(dark.length).toBeGreaterThan(2)
      for (let i = 1; i < dark.length; i++) expect(dark[i] - dark[i - 1]).toBe(5 * pxPerMm)
      for (const x of light) expect(x % pxPerMm).toBe(0)
      for (let m = 0; m * pxPerMm < line.length; m++) expect(line[m * pxPerMm]).toBe(m % 5 === 0 ? 'D' : 'L')
    }
    // The trace starts on a dark line, and each baseline lies on one.
    expect(kind(g.left, g.gridTop + 2)).toBe('D')
    expect(kind(g.left + 2, g.baseline(0))).toBe('D')
  })

  it('grid: false leaves plain paper', () => {
    const c = drawStrip(input([constant(Number.NaN)]), { ...bare, grid: false })
    const g = stripGeometry(10, 1, resolveStripOptions(bare))
    for (let x = g.left; x < c.width; x += 7) expect(is(c, x, g.gridTop + 2, STRIP_COLORS.paper)).toBe(true)
  })
})

describe('trace', () => {
  const g = stripGeometry(10, 2, resolveStripOptions(bare))
  const columns = (c: Canvas) => Array.from({ length: g.traceWidth - 2 }, (_, i) => g.left + i)
  const traceRows = (c: Canvas, x: number, k: number) => {
    const out: number[] = []
    for (let y = g.top + k * g.leadHeight; y < g.top + (k + 1) * g.leadHeight; y++) if (is(c, x, y, STRIP_COLORS.trace)) out.push(y)
    return out
  }

  it('a constant lies on its row: 1 mV at baseline - 10*pxPerMm, -0.5 mV at baseline + 5*pxPerMm', () => {
    const c = drawStrip(input([constant(1), constant(-0.5)]), bare)
    expect(g.yOfMv(0, 1)).toBe(g.baseline(0) - 10 * g.pxPerMm)
    for (const x of columns(c)) {
      expect(traceRows(c, x, 0)).toEqual([g.baseline(0) - 50, g.baseline(0) - 49])
      expect(traceRows(c, x, 1)).toEqual([g.baseline(1) + 25, g.baseline(1) + 26])
    }
  })

  it('a step from 0 to 1 mV is one unbroken vertical span at the step\'s x', () => {
    const step = constant(0)
    step.fill(1, 1800)
    const c = drawStrip(input([step]), bare)
    const x = Math.floor(g.xOfSample(1799, FS))
    const rows = new Set([...traceRows(c, x, 0), ...traceRows(c, x + 1, 0)])
    for (let y = g.baseline(0) - 50; y <= g.baseline(0); y++) expect(rows.has(y), `row ${y}`).toBe(true)
    expect(traceRows(c, g.left + 10, 0)).toEqual([g.baseline(0), g.baseline(0) + 1])
    expect(traceRows(c, g.left + 1000, 0)).toEqual([g.baseline(0) - 50, g.baseline(0) - 49])
  })

  it('values outside the band are clamped to its edge, never drawn into the next lead', () => {
    const c = drawStrip(input([constant(100), constant(-100)]), bare)
    const bottom0 = g.top + g.leadHeight
    for (const x of columns(c)) {
      expect(traceRows(c, x, 0)).toEqual([g.top, g.top + 1])
      expect(traceRows(c, x, 1)).toEqual([g.top + 2 * g.leadHeight - 2, g.top + 2 * g.leadHeight - 1])
    }
    expect(is(c, g.left + 100, bottom0 - 1, STRIP_COLORS.trace)).toBe(false)
  })

  it('NaN samples leave a gap', () => {
    const lead = constant(0.5)
    lead.fill(Number.NaN, 1000, 1400)
    const c = drawStrip(input([lead]), bare)
    const inGap = Math.floor(g.xOfSample(1200, FS))
    expect(traceRows(c, inGap, 0)).toEqual([])
    expect(traceRows(c, Math.floor(g.xOfSample(900, FS)), 0)).toEqual([g.baseline(0) - 25, g.baseline(0) - 24])
    expect(traceRows(c, Math.floor(g.xOfSample(1500, FS)), 0).length).toBe(2)
  })

  it('draws a 1 mV, 0.2 s calibration pulse in the gutter', () => {
    const c = drawStrip(input([constant(Number.NaN)]), { markers: false })
    const top = g.baseline(0) - 10 * g.pxPerMm
    const width = 0.2 * 25 * g.pxPerMm
    const topRow = Array.from({ length: g.left }, (_, x) => x).filter((x) => is(c, x, top, STRIP_COLORS.trace))
    expect(topRow.length).toBeGreaterThanOrEqual(width)
    expect(topRow.length).toBeLessThanOrEqual(width + 2)
    expect(is(c, 3, g.baseline(0), STRIP_COLORS.trace)).toBe(true)
    expect(traceRows(c, g.left + 5, 0)).toEqual([]) // the pulse stays in the gutter
  })
})

describe('markers and header', () => {
  const o = resolveStripOptions({})
  const g = stripGeometry(10, 1, o)
  const markers = [
    { sample: 1000 + 360, label: 'N', source: 'reference' as const },
    { sample: 1000 + 1234, label: 'V', source: 'detector' as const },
    { sample: 1000 + 3600, label: 'X', source: 'detector' as const }, // just past the window
    { sample: 999, label: 'X', source: 'reference' as const }, // just before it
  ]
  const c = drawStrip(input([constant(0)], { markers }))
  const lanePixels = (lane: number, colour: Rgb) => {
    const out: number[] = []
    const y = g.laneTop + (lane + 1) * g.laneHeight - 1 // the ticks' bottom row
    for (let x = g.left; x < c.width; x++) if (is(c, x, y, colour)) out.push(x)
    return out
  }

  it('draws a tick at each marker\'s x, in its source\'s lane and colour', () => {
    const xRef = Math.floor(g.xOfSample(360, FS))
    const xDet = Math.floor(g.xOfSample(1234, FS))
    expect(lanePixels(0, STRIP_COLORS.reference)).toEqual([xRef, xRef + 1])
    expect(lanePixels(1, STRIP_COLORS.detector)).toEqual([xDet, xDet + 1])
    expect(lanePixels(0, STRIP_COLORS.detector)).toEqual([])
    // The label sits above its tick.
    const above = (x: number, colour: Rgb) => Array.from({ length: g.laneHeight / 2 }, (_, i) => g.laneTop + 1 + i).some((y) => is(c, x, y, colour))
    expect(above(xRef, STRIP_COLORS.reference) || above(xRef + 1, STRIP_COLORS.reference)).toBe(true)
  })

  it('writes each marker\'s own label: relabelling one changes only the pixels above its tick', () => {
    const relabelled = drawStrip(input([constant(0)], { markers: markers.map((m, k) => (k === 0 ? { ...m, label: 'V' } : m)) }))
    const xRef = Math.floor(g.xOfSample(360, FS))
    const changed: [number, number][] = []
    for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) if (getPixel(c, x, y).join() !== getPixel(relabelled, x, y).join()) changed.push([x, y])
    expect(changed.length).toBeGreaterThan(4) // N and V differ in more than a pixel or two
    for (const [x, y] of changed) expect(Math.abs(x - xRef) <= 8 && y >= g.laneTop && y < g.laneTop + g.laneHeight, `${x},${y}`).toBe(true)
  })

  it('markers: false draws no lanes and a shorter strip', () => {
    const plain = drawStrip(input([constant(0)], { markers }), { markers: false })
    expect(plain.height).toBeLessThan(c.height)
    expect(stripGeometry(10, 1, resolveStripOptions({ markers: false })).laneHeight).toBe(0)
  })

  it.each([
    { ms: 0, text: '00:00:00.000' },
    { ms: 750000, text: '00:12:30.000' },
    { ms: 86_399_999.6, text: '24:00:00.000' },
    { ms: 90_061_001, text: '25:01:01.001' },
  ])('elapsed time $ms ms reads $text', ({ ms, text }) => {
    expect(formatElapsed(ms)).toBe(text)
  })

  it.each([
    { start: '2026-03-01T23:59:55', ms: 10_250, text: '2026-03-02 00:00:05.250' },
    { start: '2020-02-28T12:00:00.5', ms: 86_400_000, text: '2020-02-29 12:00:00.500' },
    { start: 'yesterday', ms: 0, text: null },
  ])('clock time $start + $ms ms reads $text', ({ start, ms, text }) => {
    expect(formatClock(start, ms)).toBe(text)
  })

  it('the header changes with the window\'s time and clock', () => {
    const header = (extra: Partial<StripInput>) => Buffer.from(drawStrip(input([constant(0)], extra)).data.subarray(0, g.headerHeight * c.width * 4))
    const a = header({ startMs: 750000 })
    expect(header({ startMs: 750000 }).equals(a)).toBe(true)
    expect(header({ startMs: 750001 }).equals(a)).toBe(false)
    expect(header({ startMs: 750000, startTime: '2026-01-01T08:00:00' }).equals(a)).toBe(false)
  })
})

describe('target reuse', () => {
  it('draws into a target of the right size, overwriting all of it', () => {
    const first = drawStrip(input([constant(1), constant(-1)], { markers: [{ sample: 1500, label: 'V', source: 'detector' }], title: 'one' }))
    const second = input([constant(0.2), constant(Number.NaN)], { startMs: 5, title: 'two' })
    const reused = drawStrip(second, {}, first)
    expect(reused).toBe(first)
    expect(Buffer.from(reused.data).equals(Buffer.from(drawStrip(second).data))).toBe(true)
  })

  it('ignores a target of another size', () => {
    const small = drawStrip(input([constant(0)], { windowSec: 2 }))
    const out = drawStrip(input([constant(0)]), {}, small)
    expect(out).not.toBe(small)
    expect(out.width).toBe(stripSize(10, 1, DEFAULT_STRIP_OPTIONS).width)
  })
})
