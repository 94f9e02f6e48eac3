// Draws one ECG paper strip with the layout of strip-layout.ts: pure, RGBA in memory.
//
// Speed matters because a 24 h video draws 8,640 of these. The grid is painted row by row from
// three prebuilt rows (plain paper with the vertical lines, a light horizontal line, a dark one),
// one memcpy per row, so the gridded paper costs about what a plain fill does and there is no
// background to cache and keep. Traces are clamped to their lead's band rather than cut at its edge: a flat
// run along the edge shows where the signal saturated, while a hole in the trace means NaN only.
import { PipelineError } from '../core/errors.ts'
import { drawText, textWidth, CELL_HEIGHT } from './bitmap-font.ts'
import { type Canvas, createCanvas, drawPolyline, fillRect, type Rgb } from './canvas.ts'
import { CAL_START_MM, resolveStripOptions, type StripGeometry, stripGeometry, type StripOptions } from './strip-layout.ts'

import { formatElapsed } from './elapsed.ts'
export { DEFAULT_STRIP_OPTIONS, type StripOptions, stripGeometry, stripSize } from './strip-layout.ts'
export { formatElapsed } from './elapsed.ts'

/** A beat or event to mark above the trace. */
export interface StripMarker {
  sample: number
  label: string
  source: 'detector' | 'reference'
}

/** One window of signal to draw; `windowSec` alone sets the width. */
export interface StripInput {
  /** One array per lead, mV, starting at startSample. */
  samples: Float32Array[]
  labels: string[]
  fs: number
  startSample: number
  /** Milliseconds from the record start to the window's first sample. */
  startMs: number
  windowSec: number
  markers?: StripMarker[]
  /** Shown first in the header, e.g. the record id. */
  title?: string
  /** ISO clock time of the record start (no zone), when known. */
  startTime?: string | null
}

/** Colours of the paper, grid, trace and markers (exported so tests can look for them). */
export const STRIP_COLORS = Object.freeze({
  paper: [255, 247, 247] as Rgb,
  light: [246, 196, 196] as Rgb,
  dark: [222, 120, 120] as Rgb,
  margin: [255, 255, 255] as Rgb,
  trace: [0, 0, 0] as Rgb,
  text: [0, 0, 0] as Rgb,
  reference: [0, 120, 0] as Rgb,
  detector: [0, 70, 210] as Rgb,
})

/** Trace and calibration pulse thickness, pixels. */
export const TRACE_PX = 2

/** Draws a strip into `target` when it has the strip's size (video frames reuse one), else into a new canvas. */
export function drawStrip(input: StripInput, options: Partial<StripOptions> = {}, target?: Canvas): Canvas {
  const o = resolveStripOptions(options)
  const leads = input.samples.length
  if (input.labels.length !== leads) {
    throw new PipelineError('E_INTERNAL', `drawStrip: ${leads} sample arrays but ${input.labels.length} labels; pass one label per lead`)
  }
  if (!(input.fs > 0) || !Number.isFinite(input.fs)) throw new PipelineError('E_INTERNAL', `drawStrip: fs must be a positive number, got ${input.fs}`)
  const g = stripGeometry(input.windowSec, leads, o)
  const c = target && target.width === g.width && target.height === g.height ? target : createCanvas(g.width, g.height)
  fillRect(c, 0, 0, g.width, g.top, STRIP_COLORS.margin)
  paintPaper(c, g, o.grid)
  drawHeader(c, g, input, o)
  if (o.markers) drawMarkers(c, g, input)
  for (let k = 0; k < leads; k++) drawLead(c, g, input, k, o)
  return c
}

// Grid lines sit at gridLeft/gridTop + round(m * pxPerMm); every fifth is dark.
function lineKinds(n: number, origin: number, px: number): Uint8Array {
  const kinds = new Uint8Array(n)
  for (let m = 0; ; m++) {
    const at = origin + Math.round(m * px)
    if (at >= n) return kinds
    if (at >= 0) kinds[at] = m % 5 === 0 ? 2 : 1
  }
}

function paintPaper(c: Canvas, g: StripGeometry, grid: boolean): void {
  const { paper, light, dark } = STRIP_COLORS
  if (!grid) return fillRect(c, 0, g.top, c.width, c.height - g.top, paper)
  const cols = lineKinds(c.width, g.gridLeft, g.pxPerMm)
  const rows = lineKinds(c.height - g.gridTop, 0, g.pxPerMm)
  const w = c.width
  const patterns = [new Uint8Array(w * 4), new Uint8Array(w * 4), new Uint8Array(w * 4)]
  for (let x = 0; x < w; x++) {
    const colours = [[paper, light, dark][cols[x]], cols[x] === 2 ? dark : light, dark]
    for (let p = 0; p < 3; p++) patterns[p].set([...colours[p], 255], x * 4)
  }
  for (let y = g.gridTop; y < c.height; y++) c.data.set(patterns[rows[y - g.gridTop]], y * w * 4)
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')


// The clock time `ms` after an ISO start (read as written: recordings carry local time without a
// zone), or null when the start does not parse: a decoration must not fail a 24 h render.
export function formatClock(startTime: string, ms: number): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?/.exec(startTime)
  if (!m) return null
  const frac = m[7] ? Math.round(Number(m[7]) * 1000) : 0
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], frac) + Math.round(ms))
  if (Number.isNaN(d.getTime())) return null
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  return `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
}

function drawHeader(c: Canvas, g: StripGeometry, input: StripInput, o: StripOptions): void {
  const parts = [input.title, formatElapsed(input.startMs), `t = ${Math.round(input.startMs)} ms`]
  const clock = input.startTime ? formatClock(input.startTime, input.startMs) : null
  if (clock) parts.push(`clock ${clock}`)
  const leftText = parts.filter((p) => p).join('   ')
  const rightText = `${o.speedMmPerS} mm/s   ${o.gainMmPerMv} mm/mV`
  const margin = Math.round(g.pxPerMm)
  // Twice the font size when it fits the header and the strip's width, else the font's own size.
  const fits = (s: number) => CELL_HEIGHT * s <= g.headerHeight && textWidth(leftText, s) + textWidth(rightText, s) + 4 * margin * s <= c.width
  const s = fits(2) ? 2 : 1
  const y = Math.floor((g.headerHeight - CELL_HEIGHT * s) / 2) + s
  drawText(c, margin, y, leftText, STRIP_COLORS.text, s)
  drawText(c, c.width - margin - textWidth(rightText, s), y, rightText, STRIP_COLORS.text, s)
}

function drawMarkers(c: Canvas, g: StripGeometry, input: StripInput): void {
  const s = g.laneHeight >= 24 ? 2 : 1
  const tick = Math.max(2, Math.round(g.laneHeight * 0.24))
  const end = input.windowSec * input.fs
  for (const [lane, source] of (['reference', 'detector'] as const).entries()) {
    const top = g.laneTop + lane * g.laneHeight
    const colour = STRIP_COLORS[source]
    drawText(c, 2, top + 1, source === 'reference' ? 'ref' : 'det', colour, s)
    for (const m of input.markers ?? []) {
      const i = m.sample - input.startSample
      if (m.source !== source || i < 0 || i >= end) continue
      const x = Math.floor(g.xOfSample(i, input.fs))
      fillRect(c, x, top + g.laneHeight - tick, TRACE_PX, tick, colour)
      drawText(c, x + TRACE_PX / 2 - Math.floor(textWidth(m.label, s) / 2), top + 1, m.label, colour, s)
    }
  }
}

function drawLead(c: Canvas, g: StripGeometry, input: StripInput, k: number, o: StripOptions): void {
  const bandTop = g.top + Math.round(k * g.leadHeight)
  const bandBottom = g.top + Math.round((k + 1) * g.leadHeight) // exclusive
  const clampY = (y: number) => Math.min(bandBottom - TRACE_PX, Math.max(bandTop, y))
  const band = { x: 0, y: bandTop, w: c.width, h: bandBottom - bandTop }
  if (o.calibration) {
    const x0 = CAL_START_MM * g.pxPerMm
    const x1 = x0 + 0.2 * o.speedMmPerS * g.pxPerMm
    const base = g.baseline(k)
    const high = clampY(g.yOfMv(k, 1))
    const xs = Float64Array.of(1, x0, x0, x1, x1, g.left - 1)
    const ys = Float64Array.of(base, base, high, high, base, base)
    drawPolyline(c, xs, ys, 6, STRIP_COLORS.trace, TRACE_PX, { ...band, w: g.left })
  }
  const label = input.labels[k]
  const s = g.leadHeight >= 60 ? 2 : 1
  const ly = bandTop + Math.round(g.pxPerMm)
  fillRect(c, 1, ly - 1, textWidth(label, s) + 2, CELL_HEIGHT * s + 1, STRIP_COLORS.paper)
  drawText(c, 2, ly, label, STRIP_COLORS.text, s)
  const lead = input.samples[k]
  const n = Math.min(lead.length, Math.ceil(input.windowSec * input.fs) + 1)
  const xs = new Float64Array(n)
  const ys = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    xs[i] = g.xOfSample(i, input.fs)
    ys[i] = clampY(g.yOfMv(k, lead[i])) // NaN stays NaN: a gap
  }
  drawPolyline(c, xs, ys, n, STRIP_COLORS.trace, TRACE_PX, { ...band, x: g.left, w: g.traceWidth })
}
