// The project's own 5x7 bitmap font (with one descender row, so cells are 5x8), drawn here as
// data so strips render identically everywhere: no system fonts, no font library, no
// anti-aliasing. Each glyph is 8 rows written as two hex digits each, top row first; bit 4 (0x10)
// is the leftmost column. Capitals and digits use rows 0-6, lower case has real glyphs with
// descenders (g j p q y) on row 7. Characters outside the table draw as a small box.
import { type Canvas, fillRect, type Rgb } from './canvas.ts'

/** Glyph cell width in font pixels (before scaling). */
export const GLYPH_WIDTH = 5
/** Cap height in font pixels; the cell is one row taller for descenders. */
export const GLYPH_HEIGHT = 7
export const CELL_HEIGHT = 8
/** Horizontal advance per character: the glyph and one column of spacing. */
export const ADVANCE = GLYPH_WIDTH + 1

// prettier-ignore
const GLYPHS: Record<string, string> = {
  ' ': '0000000000000000', '0': '0e11131519110e00', '1': '040c040404040e00', '2': '0e11010204081f00',
  '3': '1f02040201110e00', '4': '02060a121f020200', '5': '1f101e0101110e00', '6': '0608101e11110e00',
  '7': '1f01020408080800', '8': '0e11110e11110e00', '9': '0e11110f01020c00',
  A: '0e1111111f111100', B: '1e11111e11111e00', C: '0e11101010110e00', D: '1c12111111121c00',
  E: '1f10101e10101f00', F: '1f10101e10101000', G: '0e11101711110f00', H: '1111111f11111100',
  I: '0e04040404040e00', J: '0702020202120c00', K: '1112141814121100', L: '1010101010101f00',
  M: '111b151511111100', N: '1111191513111100', O: '0e11111111110e00', P: '1e11111e10101000',
  Q: '0e11111115120d00', R: '1e11111e14121100', S: '0f10100e01011e00', T: '1f04040404040400',
  U: '1111111111110e00', V: '11111111110a0400', W: '1111111515150a00', X: '11110a040a111100',
  Y: '1111110a04040400', Z: '1f01020408101f00',
  a: '00000e010f110f00', b: '1010161911111e00', c: '00000e1010110e00', d: '01010d1311110f00',
  e: '00000e111f100e00', f: '0609081c08080800', g: '00000f11110f010e', h: '1010161911111100',
  i: '04000c0404040e00', j: '020006020202120c', k: '1010121418141200', l: '0c04040404040e00',
  m: '00001a1515111100', n: '0000161911111100', o: '00000e1111110e00', p: '00001e11111e1010',
  q: '00000f11110f0101', r: '0000161910101000', s: '00000e100e011e00', t: '08081c0808090600',
  u: '0000111111130d00', v: '00001111110a0400', w: '0000111115150a00', x: '0000110a040a1100',
  y: '00001111110f010e', z: '00001f0204081f00',
  ':': '000c0c000c0c0000', '.': '00000000000c0c00', '-': '0000001f00000000', '+': '0004041f04040000',
  '/': '0001020408100000', '(': '0204080808040200', ')': '0804020202040800', ',': '000000000c040800',
  '=': '00001f001f000000', _: '0000000000001f00', '%': '1819020408130300', '!': '0404040404000400',
  '?': '0e11010204000400', '*': '0004150e15040000', '[': '0e08080808080e00', ']': '0e02020202020e00',
  '^': '040a110000000000', '~': '0000081502000000', '|': '0404040404040400', '"': '0a0a0a0000000000',
  "'": '0404080000000000', '#': '0a0a1f0a1f0a0a00', '@': '0e11010d15150e00', '<': '0204081008040200',
  '>': '0804020102040800', ';': '000c0c000c040800', '&': '0c12140815120d00',
}

// Drawn for characters the table lacks: visibly "something was here", never an exception.
const UNKNOWN = '001f1111111f0000'

function parseGlyph(hex: string): Uint8Array {
  const rows = new Uint8Array(CELL_HEIGHT)
  for (let r = 0; r < CELL_HEIGHT; r++) rows[r] = parseInt(hex.slice(r * 2, r * 2 + 2), 16)
  return rows
}

// Parsed once: constant data, never mutated (not a cache of anything run-dependent).
const TABLE: ReadonlyMap<string, Uint8Array> = new Map(Object.entries(GLYPHS).map(([ch, hex]) => [ch, parseGlyph(hex)]))
const UNKNOWN_ROWS = parseGlyph(UNKNOWN)

/** The 8 bit rows of a character's glyph (the box for unknown characters). */
export function glyphRows(ch: string): Uint8Array {
  return TABLE.get(ch) ?? UNKNOWN_ROWS
}

/** True when the font has a glyph of its own for this character. */
export function hasGlyph(ch: string): boolean {
  return TABLE.has(ch)
}

/** Width in pixels of `text` drawn at `scale` (no trailing spacing column). */
export function textWidth(text: string, scale = 1): number {
  const n = [...text].length
  return n === 0 ? 0 : (n * ADVANCE - 1) * scale
}

/** Draws `text` with its top-left corner at (x, y), each font pixel a scale x scale square. */
export function drawText(c: Canvas, x: number, y: number, text: string, color: Rgb, scale = 1): void {
  const s = Math.max(1, Math.round(scale))
  let cx = Math.floor(x)
  const top = Math.floor(y)
  for (const ch of text) {
    const rows = glyphRows(ch)
    for (let r = 0; r < CELL_HEIGHT; r++) {
      const bits = rows[r]
      if (bits === 0) continue
      for (let col = 0; col < GLYPH_WIDTH; col++) {
        if (bits & (0x10 >> col)) fillRect(c, cx + col * s, top + r * s, s, s, color)
      }
    }
    cx += ADVANCE * s
  }
}
