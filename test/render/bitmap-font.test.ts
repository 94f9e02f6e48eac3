// Unit tests of the bitmap font: the required characters all have glyphs of their own, widths
// follow the advance, glyphs land where drawText puts them (scaled), unknown characters draw as
// a box instead of throwing, and a few glyphs read as what they are.
import { describe, expect, it } from 'vitest'
import { ADVANCE, CELL_HEIGHT, drawText, glyphRows, GLYPH_WIDTH, hasGlyph, textWidth } from '../../src/render/bitmap-font.ts'
import { type Canvas, createCanvas, getPixel, type Rgb } from '../../src/render/canvas.ts'

const INK: Rgb = [10, 20, 30]
const inked = (c: Canvas, x: number, y: number) => getPixel(c, x, y).join() === '10,20,30,255'
// The glyph as '#'/'.' rows, read back from the canvas.
const picture = (c: Canvas, x0: number, y0: number, w = GLYPH_WIDTH, h = CELL_HEIGHT) =>
  Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) => (inked(c, x0 + x, y0 + y) ? '#' : '.')).join(''))

describe('glyph table', () => {
  const required = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz :.-+/(),=_%'
  it.each([...required])('has a glyph for %j', (ch) => {
    expect(hasGlyph(ch)).toBe(true)
    const rows = glyphRows(ch)
    expect(rows.length).toBe(CELL_HEIGHT)
    for (const r of rows) expect(r).toBeLessThan(1 << GLYPH_WIDTH)
    if (ch !== ' ') expect(rows.some((r) => r !== 0)).toBe(true)
  })

  it('every visible glyph differs from every other', () => {
    const seen = new Map<string, string>()
    for (const ch of required) {
      const key = glyphRows(ch).join()
      expect(seen.get(key), `${ch} looks like ${seen.get(key)}`).toBeUndefined()
      seen.set(key, ch)
    }
  })
})

describe('textWidth', () => {
  it.each([
    { text: '', scale: 1, width: 0 },
    { text: 'A', scale: 1, width: 5 },
    { text: 'AB', scale: 1, width: 11 },
    { text: 'MLII', scale: 2, width: 46 },
    { text: 't = 750000 ms', scale: 1, width: 13 * ADVANCE - 1 },
    { text: '\u{1F600}x', scale: 1, width: 11 }, // one code point, not two UTF-16 units
  ])('$text at scale $scale is $width px', ({ text, scale, width }) => {
    expect(textWidth(text, scale)).toBe(width)
  })
})

describe('drawText', () => {
  it('draws the glyph rows at (x, y)', () => {
    const c = createCanvas(20, 12)
    drawText(c, 3, 2, 'L1', INK)
    expect(picture(c, 3, 2)).toEqual(['#....', '#....', '#....', '#....', '#....', '#....', '#####', '.....'])
    expect(picture(c, 3 + ADVANCE, 2)).toEqual(['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.', '.....'])
    expect(inked(c, 3 + GLYPH_WIDTH, 8)).toBe(false) // the spacing column stays empty
  })

  it('scales each font pixel to a square', () => {
    const c = createCanvas(12, 18)
    drawText(c, 0, 0, '-', INK, 2)
    expect(picture(c, 0, 0, 10, 16).filter((r) => r.includes('#'))).toEqual(['##########', '##########'])
    expect(inked(c, 0, 6) && inked(c, 9, 7) && !inked(c, 0, 5) && !inked(c, 0, 8)).toBe(true)
  })

  it('draws descenders below the cap height', () => {
    const c = createCanvas(8, 10)
    drawText(c, 0, 0, 'g', INK)
    expect(picture(c, 0, 0)[7]).toBe('.###.')
  })

  it('draws unknown characters as a box and never throws', () => {
    const c = createCanvas(8, 10)
    expect(hasGlyph('\u00e9')).toBe(false)
    expect(() => drawText(c, 0, 0, '\u00e9', INK)).not.toThrow()
    expect(picture(c, 0, 0)).toEqual(['.....', '#####', '#...#', '#...#', '#...#', '#####', '.....', '.....'])
  })

  it('clips text running off the canvas: what is inside is what a larger canvas shows there', () => {
    const c = createCanvas(8, 4)
    drawText(c, -1, -1, 'W%@', INK, 3)
    const big = createCanvas(40, 40)
    drawText(big, 10 - 1, 10 - 1, 'W%@', INK, 3)
    const inside = (k: Canvas, x0: number, y0: number) => Array.from({ length: 4 }, (_, y) => Array.from({ length: 8 }, (_, x) => getPixel(k, x0 + x, y0 + y).join()).join(' '))
    expect(inside(c, 0, 0)).toEqual(inside(big, 10, 10))
    expect(inside(c, 0, 0).join(' ')).toContain(INK.join()) // some ink shows
  })
})
