// The pixel size of a strip or a clip, read from its header only: a PNG's IHDR chunk (the first
// 24 bytes, PNG spec 11.2.2) and an MP4's first video track header (ISO/IEC 14496-12 8.3.2,
// `tkhd` in `moov/trak`; width and height are 16.16 fixed point). Top-level boxes are skipped by
// their sizes, so an `mdat` before `moov` (a file without faststart) is never read.
import { open, type FileHandle } from 'node:fs/promises'
import { PipelineError } from '../core/errors.ts'

export interface Dimensions {
  width: number
  height: number
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
// A `moov` box holds the sample tables: a few KB for a clip, a few MB for hours of video.
const MAX_MOOV = 64 * 1024 * 1024

/** A PNG file's width and height. */
export async function readPngDimensions(file: string): Promise<Dimensions> {
  const head = await withFile(file, (fh) => readAt(fh, 0, 24))
  if (head.length < 24 || !head.subarray(0, 8).equals(PNG_SIGNATURE) || head.toString('latin1', 12, 16) !== 'IHDR') {
    throw new PipelineError('E_IO', `${file} is not a PNG file (no PNG signature and IHDR chunk at its start); replace it with the strip it stands for`, { file })
  }
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) }
}

/** An MP4 file's width and height (its first track with a picture). */
export async function readMp4Dimensions(file: string): Promise<Dimensions> {
  const found = await withFile(file, async (fh) => {
    const { size } = await fh.stat()
    for (let at = 0; at + 8 <= size; ) {
      const box = parseBox(await readAt(fh, at, 16), 0, size - at)
      if (!box) break
      if (box.type === 'moov') {
        if (box.end - box.start > MAX_MOOV) throw new PipelineError('E_IO', `${file}: its moov box is ${box.end - box.start} bytes, over the ${MAX_MOOV} read for a clip's header; give clips of at most a few hours`, { file })
        return trackDimensions(await readAt(fh, at + box.start, box.end - box.start))
      }
      at += box.end
    }
    return null
  })
  if (!found) throw new PipelineError('E_IO', `${file} is not an MP4 file with a video track (no moov/trak/tkhd with a picture size); replace it with the clip it stands for`, { file })
  return found
}

// A box at `at` of `buf`: its type and where its payload starts and ends (relative to `at`), or
// null when it does not fit in `room` bytes.
function parseBox(buf: Buffer, at: number, room: number): { type: string; start: number; end: number } | null {
  if (buf.length - at < 8) return null
  const size32 = buf.readUInt32BE(at)
  const type = buf.toString('latin1', at + 4, at + 8)
  let start = 8
  let end = size32
  if (size32 === 1) {
    if (buf.length - at < 16) return null
    start = 16
    end = Number(buf.readBigUInt64BE(at + 8))
  } else if (size32 === 0) end = room
  return end >= start && end <= room ? { type, start, end } : null
}

// The children of the box payload buf[from, to).
function* children(buf: Buffer, from: number, to: number): Generator<{ type: string; start: number; end: number }> {
  for (let at = from; at < to; ) {
    const box = parseBox(buf, at, to - at)
    if (!box) return
    yield { type: box.type, start: at + box.start, end: at + box.end }
    at += box.end
  }
}

function trackDimensions(moov: Buffer): Dimensions | null {
  for (const trak of children(moov, 0, moov.length)) {
    if (trak.type !== 'trak') continue
    for (const b of children(moov, trak.start, trak.end)) {
      if (b.type !== 'tkhd') continue
      // version and flags, the times and ids (20 bytes, 32 in version 1), then 52 bytes to the size.
      const at = b.start + 4 + (moov[b.start] === 1 ? 32 : 20) + 52
      if (at + 8 > b.end) continue
      const width = Math.round(moov.readUInt32BE(at) / 65536)
      const height = Math.round(moov.readUInt32BE(at + 4) / 65536)
      if (width > 0 && height > 0) return { width, height }
    }
  }
  return null
}

async function withFile<T>(file: string, fn: (fh: FileHandle) => Promise<T>): Promise<T> {
  const fh = await open(file, 'r').catch((cause: Error) => {
    throw new PipelineError('E_IO', `cannot read ${file}: ${cause.message}`, { file }, { cause })
  })
  try {
    return await fn(fh)
  } finally {
    await fh.close()
  }
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length)
  const { bytesRead } = await fh.read(buf, 0, length, position)
  return buf.subarray(0, bytesRead)
}
