// PNG encode/decode for strips (PNG spec, https://www.w3.org/TR/png-3/), on node:zlib only.
//
// encodePng writes 8-bit RGB when every pixel is opaque (a quarter less to filter and deflate,
// and what strips always are), RGBA otherwise, non-interlaced. Every row uses filter Up (2): a
// strip is mostly paper that repeats down the page, so most pixels equal the one above and Up
// turns them into zeros, which one 32-bit compare per pixel finds and the zeroed buffer already
// holds. On a strip, Up gives the smallest files of the fixed filters for about the same deflate
// time; libpng's per-row minimum-sum heuristic would run every filter on every row for a few
// percent at most.
//
// decodePng reads what tests and golden comparisons need: 8-bit RGB/RGBA, non-interlaced, all five
// filter types, CRCs checked. Anything else is refused with E_IO naming what was found.
import zlib from 'node:zlib'
import { PipelineError } from '../core/errors.ts'
import type { Canvas } from './canvas.ts'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const COLOR_RGB = 2
const COLOR_RGBA = 6

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** PNG bytes of a canvas: RGB when fully opaque, else RGBA; every row filtered with Up. */
export function encodePng(c: Canvas, level = 6): Buffer {
  const { width, height, data } = c
  let opaque = true
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] !== 255) {
      opaque = false
      break
    }
  }
  const bpp = opaque ? 3 : 4
  const stride = width * bpp
  const raw = Buffer.alloc(height * (stride + 1)) // zeros: what Up gives a pixel equal to the one above
  const px = pixelWords(data)
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1)
    raw[at] = 2
    const row = y * width
    for (let x = 0; x < width; x++) {
      const p = row + x
      // One 32-bit compare settles most pixels of a strip (paper repeats down the page).
      if (y > 0 && px[p] === px[p - width]) continue
      const i = p * 4
      const above = y > 0 ? i - width * 4 : -1
      const o = at + 1 + x * bpp
      for (let b = 0; b < bpp; b++) raw[o + b] = above < 0 ? data[i + b] : (data[i + b] - data[above + b]) & 0xff
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = opaque ? COLOR_RGB : COLOR_RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

// The canvas as one 32-bit word per pixel (a view when aligned, which createCanvas's always are).
function pixelWords(data: Uint8Array): Uint32Array {
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice()
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2)
}

function fail(message: string, context: Record<string, unknown> = {}, cause?: unknown): never {
  throw new PipelineError('E_IO', message, context, cause === undefined ? undefined : { cause })
}

/** A canvas (RGBA) from PNG bytes: 8-bit RGB or RGBA, non-interlaced, any filter types. */
export function decodePng(buf: Buffer): Canvas {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) fail('not a PNG: the first 8 bytes are not the PNG signature; pass a .png file')
  let offset = 8
  let header: { width: number; height: number; bitDepth: number; colorType: number; interlace: number } | null = null
  const idat: Buffer[] = []
  let ended = false
  while (offset < buf.length && !ended) {
    if (offset + 12 > buf.length) fail(`PNG truncated: a chunk header at byte ${offset} runs past the end (${buf.length} bytes)`, { offset })
    const length = buf.readUInt32BE(offset)
    const type = buf.toString('latin1', offset + 4, offset + 8)
    if (offset + 12 + length > buf.length) fail(`PNG truncated: chunk ${type} at byte ${offset} declares ${length} bytes, the file ends first`, { offset })
    const body = buf.subarray(offset + 8, offset + 8 + length)
    const crc = buf.readUInt32BE(offset + 8 + length)
    if (zlib.crc32(buf.subarray(offset + 4, offset + 8 + length)) !== crc) fail(`PNG corrupt: CRC mismatch in chunk ${type} at byte ${offset}`, { offset })
    if (type === 'IHDR') {
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), bitDepth: body[8], colorType: body[9], interlace: body[12] }
    } else if (type === 'IDAT') idat.push(body)
    else if (type === 'IEND') ended = true
    offset += 12 + length
  }
  if (!header) fail('PNG has no IHDR chunk')
  if (!ended) fail('PNG truncated: no IEND chunk')
  const { width, height, bitDepth, colorType, interlace } = header
  if (bitDepth !== 8 || (colorType !== COLOR_RGB && colorType !== COLOR_RGBA) || interlace !== 0) {
    fail(`unsupported PNG: bit depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}; only 8-bit RGB (2) or RGBA (6), non-interlaced (0) are read`, { bitDepth, colorType, interlace })
  }
  let raw: Buffer
  try {
    raw = zlib.inflateSync(Buffer.concat(idat))
  } catch (err) {
    fail(`PNG corrupt: image data does not inflate (${(err as Error).message})`, {}, err)
  }
  const bpp = colorType === COLOR_RGBA ? 4 : 3
  const stride = width * bpp
  if (raw.length < height * (stride + 1)) fail(`PNG truncated: image data has ${raw.length} bytes, ${width}x${height} needs ${height * (stride + 1)}`)
  const rows = unfilter(raw, height, stride, bpp)
  const data = new Uint8Array(width * height * 4)
  for (let p = 0, q = 0; p < width * height; p++, q += bpp) {
    data[p * 4] = rows[q]
    data[p * 4 + 1] = rows[q + 1]
    data[p * 4 + 2] = rows[q + 2]
    data[p * 4 + 3] = bpp === 4 ? rows[q + 3] : 255
  }
  return { width, height, data }
}

// Reverses the per-row filters (None, Sub, Up, Average, Paeth) into packed rows of `stride` bytes.
function unfilter(raw: Buffer, height: number, stride: number, bpp: number): Uint8Array {
  const out = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)]
    const src = y * (stride + 1) + 1
    const at = y * stride
    const up = (j: number) => (y > 0 ? out[at - stride + j] : 0)
    const left = (j: number) => (j >= bpp ? out[at + j - bpp] : 0)
    for (let j = 0; j < stride; j++) {
      const v = raw[src + j]
      let pred: number
      if (type === 0) pred = 0
      else if (type === 1) pred = left(j)
      else if (type === 2) pred = up(j)
      else if (type === 3) pred = (left(j) + up(j)) >> 1
      else if (type === 4) pred = paeth(left(j), up(j), j >= bpp && y > 0 ? out[at - stride + j - bpp] : 0)
      else return fail(`PNG corrupt: row ${y} has filter type ${type}, expected 0-4`, { row: y })
      out[at + j] = (v + pred) & 0xff
    }
  }
  return out
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}
