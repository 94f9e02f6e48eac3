// PNG encode/decode: round trips (RGB when opaque, RGBA otherwise), every filter type decodes
// from hand-built files, unsupported or damaged files fail with E_IO saying what was found, and
// the system's ffmpeg reads our PNGs as the same pixels (skipped without ffmpeg unless CI is set).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { type Canvas, createCanvas } from '../../src/render/canvas.ts'
import { decodePng, encodePng } from '../../src/render/png.ts'
import { ffmpegTools, skipWithoutFfmpeg } from '../helpers/ffprobe.ts'
import { tmpDir } from '../helpers/tmp.ts'

// A canvas with varied pixels: gradients, a hard edge, and (optionally) varied alpha.
function pattern(width: number, height: number, alpha = false): Canvas {
  const c = createCanvas(width, height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      c.data.set([(x * 37 + y * 11) & 255, (x * y * 7) & 255, x < width / 2 ? 0 : 250, alpha ? (x * 29 + y * 3) & 255 : 255], i)
    }
  }
  return c
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])))
  return Buffer.concat([head, data, crc])
}

// A PNG built by hand: rows packed at `bpp` bytes per pixel, each filtered with filters[y % n].
function handPng(rows: Uint8Array[], width: number, colorType: number, filters: number[], ihdr: Partial<{ depth: number; interlace: number }> = {}): Buffer {
  const bpp = colorType === 6 ? 4 : 3
  const stride = width * bpp
  const raw: number[] = []
  rows.forEach((row, y) => {
    const f = filters[y % filters.length]
    const prev = y > 0 ? rows[y - 1] : new Uint8Array(stride)
    raw.push(f)
    for (let j = 0; j < stride; j++) {
      const a = j >= bpp ? row[j - bpp] : 0
      const b = prev[j]
      const c = j >= bpp ? prev[j - bpp] : 0
      const p = a + b - c
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c
      const pred = [0, a, b, (a + b) >> 1, paeth][f]
      raw.push((row[j] - pred) & 255)
    }
  })
  const h = Buffer.alloc(13)
  h.writeUInt32BE(width, 0)
  h.writeUInt32BE(rows.length, 4)
  h[8] = ihdr.depth ?? 8
  h[9] = colorType
  h[12] = ihdr.interlace ?? 0
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([sig, chunk('IHDR', h), chunk('IDAT', zlib.deflateSync(Buffer.from(raw))), chunk('IEND', Buffer.alloc(0))])
}

const packed = (c: Canvas, bpp: number) =>
  Array.from({ length: c.height }, (_, y) => {
    const row = new Uint8Array(c.width * bpp)
    for (let x = 0; x < c.width; x++) row.set(c.data.subarray((y * c.width + x) * 4, (y * c.width + x) * 4 + bpp), x * bpp)
    return row
  })

describe('encodePng / decodePng', () => {
  it.each([
    { name: 'opaque (RGB)', c: pattern(37, 23), colorType: 2 },
    { name: 'with alpha (RGBA)', c: pattern(19, 31, true), colorType: 6 },
    { name: 'one pixel', c: createCanvas(1, 1, [9, 8, 7]), colorType: 2 },
  ])('round trips $name', ({ c, colorType }) => {
    for (const level of [0, 1, 6, 9]) {
      const png = encodePng(c, level)
      expect(png[25]).toBe(colorType)
      const back = decodePng(png)
      expect([back.width, back.height]).toEqual([c.width, c.height])
      expect(Buffer.from(back.data).equals(Buffer.from(c.data))).toBe(true)
    }
  })

  it.each([
    { filter: 'None', filters: [0] },
    { filter: 'Sub', filters: [1] },
    { filter: 'Up', filters: [2] },
    { filter: 'Average', filters: [3] },
    { filter: 'Paeth', filters: [4] },
    { filter: 'all five, row by row', filters: [0, 1, 2, 3, 4] },
  ])('decodes filter $filter (RGB and RGBA)', ({ filters }) => {
    for (const [colorType, bpp, c] of [[2, 3, pattern(13, 11)], [6, 4, pattern(13, 11, true)]] as const) {
      const back = decodePng(handPng(packed(c, bpp), c.width, colorType, filters))
      expect(Buffer.from(back.data).equals(Buffer.from(c.data))).toBe(true)
    }
  })

  it.each([
    { name: 'not a PNG', bytes: () => Buffer.from('GIF89a........'), message: /PNG signature/ },
    { name: '16-bit', bytes: () => handPng(packed(pattern(2, 2), 3), 2, 2, [0], { depth: 16 }), message: /bit depth 16, colour type 2/ },
    { name: 'palette', bytes: () => handPng(packed(pattern(2, 2), 3), 2, 3, [0]), message: /colour type 3/ },
    { name: 'interlaced', bytes: () => handPng(packed(pattern(2, 2), 3), 2, 2, [0], { interlace: 1 }), message: /interlace 1/ },
    { name: 'bad CRC', bytes: () => flip(encodePng(pattern(4, 4)), 30), message: /CRC mismatch in chunk IHDR/ },
    { name: 'truncated', bytes: () => encodePng(pattern(4, 4)).subarray(0, 40), message: /truncated/ },
    { name: 'bad filter type', bytes: () => handPng(packed(pattern(2, 2), 3), 2, 2, [7]), message: /filter type 7/ },
  ])('refuses $name with E_IO', ({ bytes, message }) => {
    let err: unknown
    try {
      decodePng(bytes())
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(PipelineError)
    expect((err as PipelineError).code).toBe('E_IO')
    expect((err as PipelineError).message).toMatch(message)
  })
})

function flip(buf: Buffer, at: number): Buffer {
  const out = Buffer.from(buf)
  out[at] ^= 0xff
  return out
}

// ffmpeg as every other test finds it (FFMPEG_PATH, then PATH); skipped only outside CI.
describe.skipIf(skipWithoutFfmpeg())('ffmpeg reads our PNGs', () => {
  const dir = tmpDir('hp-png-')
  it.each([
    { name: 'RGB', c: pattern(64, 48) },
    { name: 'RGBA', c: pattern(33, 17, true) },
  ])('$name: same pixels as encoded', ({ name, c }) => {
    const file = path.join(dir, `${name}.png`)
    writeFileSync(file, encodePng(c))
    const out = execFileSync(ffmpegTools()!.ffmpeg, ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'], { maxBuffer: 1 << 24 })
    expect(out.length).toBe(c.data.length)
    expect(Buffer.from(out).equals(Buffer.from(c.data))).toBe(true)
  })
})
