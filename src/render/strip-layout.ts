// Where everything on an ECG strip goes, as numbers only so tests can check the
// drawing against it. Top to bottom: a header line (title, times), two marker lanes when markers
// are on (reference above detector, so the two sources never overprint), then one band of paper
// per lead. Left to right: a gutter of 10 mm (two large boxes; wider, in whole boxes, when a fast
// speed needs it) holding the lead label and the 1 mV, 0.2 s calibration pulse, then
// windowSec * speed mm of trace. The paper grid starts at the gutter's left edge, so large boxes
// line up with the trace start (one large box = 0.2 s at 25 mm/s) and with each band's baseline
// (the middle of a 30 mm band is a 5 mm line).
//
// The size depends only on windowSec, the lead count and the options, never on the data, so every
// frame of a video has the same size; both sides are rounded up to even because H.264 yuv420p
// needs even sizes.
import { PipelineError } from '../core/errors.ts'

/** How a strip is drawn: standard ECG paper scales and which decorations to draw. */
export interface StripOptions {
  /** Paper speed, mm per second (25 is standard). */
  speedMmPerS: number
  /** Amplitude scale, mm per mV (10 is standard). */
  gainMmPerMv: number
  /** Pixels per mm (5 is 127 dpi). */
  pxPerMm: number
  /** Height of each lead's band, mm. */
  leadHeightMm: number
  grid: boolean
  calibration: boolean
  markers: boolean
}

export const DEFAULT_STRIP_OPTIONS: StripOptions = Object.freeze({
  speedMmPerS: 25,
  gainMmPerMv: 10,
  pxPerMm: 5,
  leadHeightMm: 30,
  grid: true,
  calibration: true,
  markers: true,
})

/** Left gutter (label and calibration pulse), mm, at the standard speed; see gutterMm. */
export const GUTTER_MM = 10
/** Header line height, mm. */
export const HEADER_MM = 8
/** Height of one marker lane, mm (two lanes when markers are on). */
export const LANE_MM = 5
/** Calibration pulse: 1 mV high, 0.2 s wide, starting this far into the gutter (mm). */
export const CAL_START_MM = 2.5
// Strips wider or taller than this are refused: a mistyped windowSec must not allocate gigabytes.
export const MAX_PIXELS = 64_000_000

/** Geometry of a strip: offsets in pixels and the sample/value to pixel mappings. */
export interface StripGeometry {
  width: number
  height: number
  pxPerMm: number
  /** x of the first sample (the end of the gutter). */
  left: number
  /** y of the top of the first lead's band. */
  top: number
  /** Origin of the grid (its first 1 mm and 5 mm lines pass through it). */
  gridLeft: number
  gridTop: number
  /** Width of the trace area, pixels. */
  traceWidth: number
  /** Height of one lead's band, pixels. */
  leadHeight: number
  headerHeight: number
  /** y of the top of marker lane 0 (reference) and 1 (detector); height of each. */
  laneTop: number
  laneHeight: number
  /** x (real) of sample `index` of the window, counted from the window's first sample. */
  xOfSample(index: number, fs: number): number
  /** x (real) of a time in seconds from the window's start. */
  xOfSec(sec: number): number
  /** y (real) of the baseline (0 mV) of lead k. */
  baseline(k: number): number
  /** y (real) of a value in mV on lead k. */
  yOfMv(k: number, mv: number): number
}

/** Options merged over the defaults and checked; throws E_CONFIG_VALUE naming the bad field. */
export function resolveStripOptions(o: Partial<StripOptions> = {}): StripOptions {
  const out = { ...DEFAULT_STRIP_OPTIONS, ...o }
  for (const field of ['speedMmPerS', 'gainMmPerMv', 'pxPerMm', 'leadHeightMm'] as const) {
    const v = out[field]
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      throw new PipelineError('E_CONFIG_VALUE', `strip option ${field} must be a positive number, got ${String(v)}`, { field })
    }
  }
  return out
}

/** Gutter width in mm: 10, or wider in whole large boxes when a fast speed widens the pulse. */
export function gutterMm(o: StripOptions): number {
  const need = 2 * CAL_START_MM + 0.2 * o.speedMmPerS
  return Math.max(GUTTER_MM, Math.ceil(need / 5) * 5)
}

/** Heights of the header and of a marker lane, and where the paper starts: one rounding, for the size and the geometry alike. */
function paperTop(o: StripOptions): { headerHeight: number; laneHeight: number; top: number } {
  const headerHeight = Math.round(HEADER_MM * o.pxPerMm)
  const laneHeight = o.markers ? Math.round(LANE_MM * o.pxPerMm) : 0
  return { headerHeight, laneHeight, top: headerHeight + 2 * laneHeight }
}

/** Canvas size of a strip; both sides even. */
export function stripSize(windowSec: number, leads: number, o: StripOptions): { width: number; height: number } {
  if (!Number.isFinite(windowSec) || windowSec <= 0) {
    throw new PipelineError('E_CONFIG_VALUE', `strip windowSec must be a positive number of seconds, got ${windowSec}`, { field: 'windowSec' })
  }
  if (!Number.isInteger(leads) || leads < 1) {
    throw new PipelineError('E_CONFIG_VALUE', `a strip needs at least one lead, got ${leads}`, { field: 'leads' })
  }
  const px = o.pxPerMm
  const even = (n: number) => n + (n & 1)
  // +1: the closing grid line on the right and at the bottom lies on the paper's edge.
  const width = even(Math.ceil((gutterMm(o) + windowSec * o.speedMmPerS) * px) + 1)
  const height = even(paperTop(o).top + Math.round(leads * o.leadHeightMm * px) + 1)
  if (width * height > MAX_PIXELS) {
    throw new PipelineError('E_CONFIG_VALUE', `a ${windowSec} s strip of ${leads} leads would be ${width}x${height} px, over the ${MAX_PIXELS} pixel bound; shorten windowSec or lower pxPerMm`, { field: 'windowSec' })
  }
  return { width, height }
}

/** Offsets and mappings of a strip (exported for tests and for drawing). */
export function stripGeometry(windowSec: number, leads: number, o: StripOptions): StripGeometry {
  const { width, height } = stripSize(windowSec, leads, o)
  const px = o.pxPerMm
  const { headerHeight, laneHeight, top } = paperTop(o)
  const left = Math.round(gutterMm(o) * px)
  const leadHeight = o.leadHeightMm * px
  const pxPerSec = o.speedMmPerS * px
  const pxPerMv = o.gainMmPerMv * px
  const baseline = (k: number) => top + Math.round((k + 0.5) * leadHeight)
  return {
    width,
    height,
    pxPerMm: px,
    left,
    top,
    gridLeft: 0,
    gridTop: top,
    traceWidth: Math.ceil(windowSec * pxPerSec),
    leadHeight,
    headerHeight,
    laneTop: headerHeight,
    laneHeight,
    xOfSample: (index, fs) => left + (index / fs) * pxPerSec,
    xOfSec: (sec) => left + sec * pxPerSec,
    baseline,
    yOfMv: (k, mv) => baseline(k) - mv * pxPerMv,
  }
}
