// A minimal RGBA raster for ECG strips: pure, no I/O, no system libraries, so a strip
// is the same bytes on every machine. Pixel (x, y) covers [x, x+1) x [y, y+1); a real coordinate
// lands in pixel floor(x). Every primitive clips to the canvas (and to an optional clip rect), so
// callers never check bounds and drawing never throws.
//
// drawPolyline rasterises each segment as one vertical span per pixel column it crosses (the y
// range the segment covers inside that column). This is how dense ECG traces (several samples per
// pixel column) are drawn without gaps: a steep QRS upstroke fills every row between two samples,
// which point plotting or thin Bresenham lines would leave dotted.

/** An RGBA raster, row-major, 4 bytes per pixel. */
export interface Canvas {
  width: number
  height: number
  data: Uint8Array
}

/** An opaque colour, 0-255 per channel. */
export type Rgb = readonly [number, number, number]

/** A rectangle in pixels, [x, x + w) x [y, y + h). */
export interface ClipRect {
  x: number
  y: number
  w: number
  h: number
}

export const WHITE: Rgb = [255, 255, 255]
export const BLACK: Rgb = [0, 0, 0]

/** A canvas filled with one opaque colour (white by default). */
export function createCanvas(width: number, height: number, background: Rgb = WHITE): Canvas {
  const c: Canvas = { width, height, data: new Uint8Array(width * height * 4) }
  fillRect(c, 0, 0, width, height, background)
  return c
}

/** Fills [x, x + w) x [y, y + h), clipped to the canvas (coordinates are floored). */
export function fillRect(c: Canvas, x: number, y: number, w: number, h: number, color: Rgb): void {
  const x0 = Math.max(0, Math.floor(x))
  const y0 = Math.max(0, Math.floor(y))
  const x1 = Math.min(c.width, Math.floor(x + w))
  const y1 = Math.min(c.height, Math.floor(y + h))
  if (x0 >= x1 || y0 >= y1) return
  const d = c.data
  const rowStart = (y0 * c.width + x0) * 4
  const rowBytes = (x1 - x0) * 4
  // Paint the first row pixel by pixel, then copy it: copyWithin is a memmove, far faster than
  // writing four bytes at a time for the wide fills (backgrounds, grid rows) strips are made of.
  for (let i = rowStart; i < rowStart + rowBytes; i += 4) {
    d[i] = color[0]
    d[i + 1] = color[1]
    d[i + 2] = color[2]
    d[i + 3] = 255
  }
  for (let yy = y0 + 1; yy < y1; yy++) {
    d.copyWithin((yy * c.width + x0) * 4, rowStart, rowStart + rowBytes)
  }
}

/** Sets one pixel when it lies on the canvas. */
export function setPixel(c: Canvas, x: number, y: number, color: Rgb): void {
  const xi = Math.floor(x)
  const yi = Math.floor(y)
  if (xi < 0 || yi < 0 || xi >= c.width || yi >= c.height) return
  const i = (yi * c.width + xi) * 4
  c.data[i] = color[0]
  c.data[i + 1] = color[1]
  c.data[i + 2] = color[2]
  c.data[i + 3] = 255
}

/** The RGBA of one pixel (tests and golden comparisons). */
export function getPixel(c: Canvas, x: number, y: number): [number, number, number, number] {
  const i = (y * c.width + x) * 4
  return [c.data[i], c.data[i + 1], c.data[i + 2], c.data[i + 3]]
}

/** A horizontal line on row y from x0 to x1 inclusive, `thickness` rows downwards. */
export function hLine(c: Canvas, x0: number, x1: number, y: number, color: Rgb, thickness = 1): void {
  const lo = Math.min(x0, x1)
  fillRect(c, lo, y, Math.floor(Math.max(x0, x1)) - Math.floor(lo) + 1, thickness, color)
}

/** A vertical line in column x from y0 to y1 inclusive, `thickness` columns to the right. */
export function vLine(c: Canvas, x: number, y0: number, y1: number, color: Rgb, thickness = 1): void {
  const lo = Math.min(y0, y1)
  fillRect(c, x, lo, thickness, Math.floor(Math.max(y0, y1)) - Math.floor(lo) + 1, color)
}

/**
 * Draws points 0..n-1 as connected segments, `thickness` px wide, clipped to the canvas and to
 * `clip`. A segment with a non-finite end is skipped (a gap); a finite point with no finite
 * neighbour is drawn as a dot, so a lone valid sample stays visible.
 */
export function drawPolyline(c: Canvas, xs: Float64Array, ys: Float64Array, n: number, color: Rgb, thickness: number, clip?: ClipRect): void {
  const t = Math.max(1, Math.round(thickness))
  const before = (t - 1) >> 1 // the extra width goes first right/down, then left/up
  const after = t - 1 - before
  const cx0 = Math.max(0, clip ? Math.floor(clip.x) : 0)
  const cy0 = Math.max(0, clip ? Math.floor(clip.y) : 0)
  const cx1 = Math.min(c.width, clip ? Math.floor(clip.x + clip.w) : c.width)
  const cy1 = Math.min(c.height, clip ? Math.floor(clip.y + clip.h) : c.height)
  if (cx0 >= cx1 || cy0 >= cy1) return
  const d = c.data
  const [r, g, b] = color
  const span = (col: number, yLo: number, yHi: number): void => {
    const xa = Math.max(cx0, col - before)
    const xb = Math.min(cx1 - 1, col + after)
    const ya = Math.max(cy0, Math.floor(yLo) - before)
    const yb = Math.min(cy1 - 1, Math.floor(yHi) + after)
    for (let y = ya; y <= yb; y++) {
      for (let x = xa, i = (y * c.width + xa) * 4; x <= xb; x++, i += 4) {
        d[i] = r
        d[i + 1] = g
        d[i + 2] = b
        d[i + 3] = 255
      }
    }
  }
  const ok = (i: number) => i >= 0 && i < n && Number.isFinite(xs[i]) && Number.isFinite(ys[i])
  for (let i = 0; i < n; i++) {
    if (!ok(i)) continue
    if (!ok(i + 1)) {
      if (!ok(i - 1)) span(Math.floor(xs[i]), ys[i], ys[i])
      continue
    }
    segment(xs[i], ys[i], xs[i + 1], ys[i + 1], cx0 - after, cx1 + before, span)
  }
}

// One vertical span per column the segment crosses, [xLo, xHi) limiting the columns visited so a
// segment far outside the clip costs nothing.
function segment(xa: number, ya: number, xb: number, yb: number, xLo: number, xHi: number, span: (col: number, y0: number, y1: number) => void): void {
  if (xb < xa) [xa, ya, xb, yb] = [xb, yb, xa, ya]
  const first = Math.max(Math.floor(xa), xLo)
  const last = Math.min(Math.floor(xb), xHi - 1)
  const slope = xb > xa ? (yb - ya) / (xb - xa) : 0
  for (let col = first; col <= last; col++) {
    if (xb === xa) {
      span(col, Math.min(ya, yb), Math.max(ya, yb))
      continue
    }
    const y0 = ya + (Math.max(xa, col) - xa) * slope
    const y1 = ya + (Math.min(xb, col + 1) - xa) * slope
    span(col, Math.min(y0, y1), Math.max(y0, y1))
  }
}
