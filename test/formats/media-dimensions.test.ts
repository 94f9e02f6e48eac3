// The pixel size of a strip or a clip from its header (src/formats/media-dimensions.ts), unit
// layer: PNGs from the strip encoder, MP4 box trees built here (moov after a 64-bit mdat, track
// headers of version 0 and 1, a sound track first); files that are neither are refused.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readMp4Dimensions, readPngDimensions } from '../../src/formats/media-dimensions.ts'
import { createCanvas } from '../../src/render/canvas.ts'
import { encodePng } from '../../src/render/png.ts'
import { pipelineRejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('hp-media-dims-')
let n = 0
const file = (buf: Buffer) => {
  const f = path.join(dir, `f${n++}`)
  writeFileSync(f, buf)
  return f
}

const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload)
  const head = Buffer.alloc(8)
  head.writeUInt32BE(8 + body.length)
  head.write(type, 4, 'latin1')
  return Buffer.concat([head, body])
}
// A 64-bit box (size field 1, the size after the type).
const largeBox = (type: string, payload: Buffer) => {
  const head = Buffer.alloc(16)
  head.writeUInt32BE(1)
  head.write(type, 4, 'latin1')
  head.writeBigUInt64BE(BigInt(16 + payload.length), 8)
  return Buffer.concat([head, payload])
}
const tkhd = (version: 0 | 1, width: number, height: number) => {
  const body = Buffer.alloc(4 + (version === 1 ? 32 : 20) + 60)
  body[0] = version
  const at = 4 + (version === 1 ? 32 : 20) + 52
  body.writeUInt32BE(width * 65536, at)
  body.writeUInt32BE(height * 65536, at + 4)
  return box('tkhd', body)
}
const mp4 = (...traks: Buffer[]) => Buffer.concat([box('ftyp', Buffer.from('isom0000')), largeBox('mdat', Buffer.alloc(1000, 7)), box('moov', box('mvhd', Buffer.alloc(100)), ...traks)])

describe('readPngDimensions', () => {
  it.each([[1302, 392], [1, 1], [40, 7]])('reads %i x %i from an encoded strip', async (w, h) => {
    expect(await readPngDimensions(file(encodePng(createCanvas(w, h))))).toEqual({ width: w, height: h })
  })

  it('refuses a file that is not a PNG, naming it', async () => {
    const f = file(Buffer.from('not a png at all, but long enough'))
    const err = await pipelineRejection(readPngDimensions(f))
    expect(err.message).toBe(`${f} is not a PNG file (no PNG signature and IHDR chunk at its start); replace it with the strip it stands for`)
  })
})

describe('readMp4Dimensions', () => {
  it.each([
    ['a version 0 track header', mp4(box('trak', tkhd(0, 1302, 392))), { width: 1302, height: 392 }],
    ['a version 1 track header', mp4(box('trak', tkhd(1, 640, 360))), { width: 640, height: 360 }],
    ['the picture track after a sound track', mp4(box('trak', tkhd(0, 0, 0)), box('trak', box('edts'), tkhd(0, 320, 240))), { width: 320, height: 240 }],
    ['moov first (faststart)', Buffer.concat([box('ftyp'), box('moov', box('trak', tkhd(0, 8, 6))), box('mdat', Buffer.alloc(10))]), { width: 8, height: 6 }],
  ])('reads the size from %s', async (_, buf, want) => {
    expect(await readMp4Dimensions(file(buf))).toEqual(want)
  })

  it.each([
    ['a PNG', encodePng(createCanvas(4, 4))],
    ['an MP4 without a picture track', mp4(box('trak', tkhd(0, 0, 0)))],
    ['a file cut inside its first box', box('ftyp', Buffer.alloc(40)).subarray(0, 20)],
  ])('refuses %s, naming the file', async (_, buf) => {
    const f = file(buf)
    const err = await pipelineRejection(readMp4Dimensions(f))
    expect(err.message).toBe(`${f} is not an MP4 file with a video track (no moov/trak/tkhd with a picture size); replace it with the clip it stands for`)
  })
})
