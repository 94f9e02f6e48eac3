// Unit tests of the raster primitives: fills clip to the canvas and to the clip rect, lines land
// on the pixels they name, and polylines are continuous (a steep segment leaves no vertical gap,
// NaN leaves a gap, a lone valid point is a dot).
import { describe, expect, it } from 'vitest'
import { type Canvas, createCanvas, drawPolyline, fillRect, getPixel, hLine, type Rgb, setPixel, vLine } from '../../src/render/canvas.ts'

const RED: Rgb = [255, 0, 0]
const isRed = (c: Canvas, x: number, y: number) => getPixel(c, x, y).join() === '255,0,0,255'
const redPixels = (c: Canvas) => {
  const out: string[] = []
  for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) if (isRed(c, x, y)) out.push(`${x},${y}`)
  return out
}
// Rows painted in one column.
const rowsIn = (c: Canvas, x: number) => Array.from({ length: c.height }, (_, y) => y).filter((y) => isRed(c, x, y))

describe('createCanvas', () => {
  it('fills with the background, opaque', () => {
    const c = createCanvas(3, 2, [1, 2, 3])
    expect(c.data.length).toBe(3 * 2 * 4)
    expect(getPixel(c, 2, 1)).toEqual([1, 2, 3, 255])
    expect(getPixel(createCanvas(1, 1), 0, 0)).toEqual([255, 255, 255, 255])
  })
})

describe('fillRect', () => {
  it.each([
    { name: 'inside', rect: [1, 1, 2, 2], count: 4 },
    { name: 'clipped left/top', rect: [-3, -3, 5, 5], count: 4 },
    { name: 'clipped right/bottom', rect: [4, 4, 10, 10], count: 4 },
    { name: 'fully outside', rect: [10, 0, 3, 3], count: 0 },
    { name: 'empty', rect: [2, 2, 0, 5], count: 0 },
    { name: 'whole canvas and more', rect: [-100, -100, 1000, 1000], count: 36 },
  ])('$name', ({ rect, count }) => {
    const c = createCanvas(6, 6)
    const [x, y, w, h] = rect
    fillRect(c, x, y, w, h, RED)
    expect(redPixels(c).length).toBe(count)
  })

  it('setPixel ignores pixels off the canvas', () => {
    const c = createCanvas(2, 2)
    for (const [x, y] of [[-1, 0], [0, -1], [2, 0], [0, 2]]) setPixel(c, x, y, RED)
    setPixel(c, 1.7, 0.2, RED)
    expect(redPixels(c)).toEqual(['1,0'])
  })
})

describe('hLine and vLine', () => {
  it('draw inclusive ends, either order, clipped', () => {
    const c = createCanvas(5, 5)
    hLine(c, 3, 1, 2, RED)
    expect(redPixels(c)).toEqual(['1,2', '2,2', '3,2'])
    const d = createCanvas(5, 5)
    vLine(d, 4, -2, 1, RED, 2)
    expect(redPixels(d)).toEqual(['4,0', '4,1'])
  })
})

describe('drawPolyline', () => {
  const line = (pts: number[][]) => [Float64Array.from(pts.map((p) => p[0])), Float64Array.from(pts.map((p) => p[1]))] as const

  it('a steep segment fills every row between its ends (no vertical gap)', () => {
    const c = createCanvas(10, 40)
    const [xs, ys] = line([[2, 35], [3, 2], [4, 30]])
    drawPolyline(c, xs, ys, 3, RED, 1)
    const painted = new Set([...rowsIn(c, 2), ...rowsIn(c, 3)])
    for (let y = 2; y <= 35; y++) expect(painted.has(y), `row ${y}`).toBe(true)
    for (let y = 2; y <= 30; y++) expect(rowsIn(c, 3).includes(y) || rowsIn(c, 4).includes(y), `row ${y} on the way down`).toBe(true)
  })

  it('dense points (several per column) give one continuous span per column', () => {
    const c = createCanvas(4, 20)
    const xs = Float64Array.from({ length: 9 }, (_, i) => 1 + i * 0.2)
    const ys = Float64Array.from({ length: 9 }, (_, i) => [5, 15, 3, 10, 4, 12, 6, 8, 7][i])
    drawPolyline(c, xs, ys, 9, RED, 1)
    expect(rowsIn(c, 1)).toEqual(Array.from({ length: 13 }, (_, i) => 3 + i)) // 3..15
  })

  it('a flat line of thickness 2 covers two rows, thickness 3 one row each side', () => {
    const c = createCanvas(6, 10)
    const [xs, ys] = line([[0, 4], [5.99, 4]])
    drawPolyline(c, xs, ys, 2, RED, 2)
    expect(rowsIn(c, 3)).toEqual([4, 5])
    const d = createCanvas(6, 10)
    drawPolyline(d, xs, ys, 2, RED, 3)
    expect(rowsIn(d, 3)).toEqual([3, 4, 5])
  })

  it('NaN leaves a gap; a lone finite point is a dot', () => {
    const c = createCanvas(10, 5)
    const [xs, ys] = line([[0, 2], [2, 2], [4, NaN], [6, 2], [8, NaN]])
    drawPolyline(c, xs, ys, 5, RED, 1)
    expect(redPixels(c)).toEqual(['0,2', '1,2', '2,2', '6,2'])
  })

  it('clips to the canvas and to the clip rect, never throws', () => {
    const c = createCanvas(10, 10)
    const [xs, ys] = line([[-50, -50], [50, 50]])
    drawPolyline(c, xs, ys, 2, RED, 2, { x: 2, y: 3, w: 4, h: 4 })
    const px = redPixels(c).map((p) => p.split(',').map(Number))
    expect(px.length).toBeGreaterThan(0)
    for (const [x, y] of px) {
      expect(x >= 2 && x < 6 && y >= 3 && y < 7, `${x},${y}`).toBe(true)
    }
    expect(() => drawPolyline(c, xs, ys, 2, RED, 1, { x: 20, y: 20, w: 5, h: 5 })).not.toThrow()
  })
})
