// Builds the long benchmark recordings of ../shared/docs/anchors.md from the 30-min EDF+ file of
// MIT-BIH record 100: the file's data records repeated `tiles` times (48 -> 24 h, 2 -> 1 h), with
// every TAL onset of tile k (the time-keeping TAL and each annotation) shifted by k * 1800 s.
// Streamed: the source is read a chunk of records at a time, once per tile, and the output is
// written through writeFileAtomic, so a file that exists is complete.
//
// Onsets grow longer with the tile ('+86399.088889' vs '+1799.088889'), so a first pass sizes the
// annotation signal for the longest record; when the source's bytes per record are too few, the
// tiled file gets a larger annotation signal (its samples-per-record header field is rewritten).
//
//   npx tsx bench/build-tiled-edf.ts              # both bench/data files
//   npx tsx bench/build-tiled-edf.ts --tiles 4 --out /tmp/x.edf [--src file.edf]
import { mkdir, open, stat } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { readEdfHeaderFromFile } from '../src/formats/edf-file.ts'
import { parseEdfHeader, type EdfHeader } from '../src/formats/edf-header.ts'
import { signalBytes } from '../src/formats/edf-decode.ts'
import { writeField } from '../src/formats/edf-ascii.ts'
import { encodeRecordCountField, RECORD_COUNT_OFFSET } from '../src/formats/edf-writer.ts'
import { encodeTalBlock, parseTalBlock, talBytes, type TalAnnotation } from '../src/formats/tal.ts'
import { writeFileAtomic } from '../src/sinks/file-writer.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
export const SOURCE_EDF = path.resolve(here, '../../shared/data/edf/mitbih100_30min.edf')
export const DATA_DIR = path.join(here, 'data')
export const TILED_FILES = [
  { name: '1h', tiles: 2, file: path.join(DATA_DIR, 'mitbih100_1h.edf') },
  { name: '24h', tiles: 48, file: path.join(DATA_DIR, 'mitbih100_24h.edf') },
]
const CHUNK_RECORDS = 300
// Byte offset of the per-signal 'samples per record' fields: 256 + ns * (16+80+8+8+8+8+8+80).
const SPR_FIELD_START = (ns: number) => 256 + ns * 216

export interface TiledEdfResult {
  file: string
  tiles: number
  records: number
  annotations: number
  bytes: number
  /** Bytes of the annotation signal per data record, in the source and in the output. */
  annotationBytes: { source: number; output: number; needed: number }
}

/** Yields chunks of whole data records of `h` (at most CHUNK_RECORDS each) with their first index. */
async function* readRecordChunks(h: EdfHeader): AsyncGenerator<{ r0: number; n: number; buf: Buffer }> {
  const fh = await open(h.file, 'r')
  try {
    const total = Math.min(h.recordCount, h.recordsOnDisk)
    for (let r0 = 0; r0 < total; r0 += CHUNK_RECORDS) {
      const n = Math.min(CHUNK_RECORDS, total - r0)
      const buf = Buffer.allocUnsafe(n * h.recordBytes)
      const { bytesRead } = await fh.read(buf, 0, buf.length, h.headerBytes + r0 * h.recordBytes)
      if (bytesRead !== buf.length) throw new Error(`${h.file}: short read at data record ${r0}`)
      yield { r0, n, buf }
    }
  } finally {
    await fh.close()
  }
}

function shifted(a: TalAnnotation, by: number): TalAnnotation {
  return { onsetSec: a.onsetSec + by, durationSec: a.durationSec, texts: a.texts }
}

/** Builds `dest` as `tiles` copies of the EDF+C file `src`, TAL onsets shifted per tile. */
export async function buildTiledEdf(src: string, dest: string, tiles: number, signal = new AbortController().signal): Promise<TiledEdfResult> {
  const { header: h } = await readEdfHeaderFromFile(src)
  const tals = h.signals.filter((s) => s.isAnnotation)
  if (!h.isPlus || h.format.endsWith('+D') || tals.length !== 1 || h.bytesPerSample !== 2) {
    throw new Error(`${src}: expected an EDF+C file with one 'EDF Annotations' signal, found ${h.format} with ${tals.length}`)
  }
  const ann = tals[0]
  const n = Math.min(h.recordCount, h.recordsOnDisk)
  const period = n * h.recordDurationSec
  const sourceAnnBytes = ann.samplesPerRecord * 2

  // Pass 1: the largest TAL bytes any output record needs (time-keeping TAL included).
  let needed = 0
  let perTile = 0
  for await (const { r0, n: k, buf } of readRecordChunks(h)) {
    for (let r = 0; r < k; r++) {
      const p = parseTalBlock(signalBytes(buf, h, ann.index, r), src, r0 + r)
      const onset = p.recordOnsetSec ?? (r0 + r) * h.recordDurationSec
      for (const a of p.annotations) perTile += a.texts.length
      for (let t = 0; t < tiles; t++) {
        const by = t * period
        let need = talBytes({ onsetSec: onset + by, durationSec: null, texts: [''] })
        for (const a of p.annotations) need += talBytes(shifted(a, by))
        if (need > needed) needed = need
      }
    }
  }
  const outAnnBytes = Math.max(sourceAnnBytes, 2 * Math.ceil(needed / 2))
  const outRecordBytes = h.recordBytes - sourceAnnBytes + outAnnBytes

  // Header: copied, record count patched, annotation samples per record rewritten if needed.
  const hb = await open(src, 'r')
  const headerOut = new Uint8Array(h.headerBytes)
  try {
    await hb.read(headerOut, 0, h.headerBytes, 0)
  } finally {
    await hb.close()
  }
  headerOut.set(encodeRecordCountField(n * tiles), RECORD_COUNT_OFFSET)
  if (outAnnBytes !== sourceAnnBytes) {
    writeField(headerOut, SPR_FIELD_START(h.nSignals) + ann.index * 8, 8, String(outAnnBytes / 2), 'annotation samples per record')
  }
  const check = parseEdfHeader(headerOut, dest, h.headerBytes + n * tiles * outRecordBytes)
  if (check.recordCount !== n * tiles || check.recordBytes !== outRecordBytes || check.trailingBytes !== 0) {
    throw new Error(`patched header does not read back: ${check.recordCount} records of ${check.recordBytes} bytes`)
  }

  // Pass 2: every tile's records, data signals copied byte for byte, TALs re-encoded.
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield headerOut
    for (let t = 0; t < tiles; t++) {
      const by = t * period
      for await (const { r0, n: k, buf } of readRecordChunks(h)) {
        signal.throwIfAborted()
        const out = new Uint8Array(k * outRecordBytes)
        for (let r = 0; r < k; r++) {
          let p = r * outRecordBytes
          for (const s of h.signals) {
            const bytes = signalBytes(buf, h, s.index, r)
            if (s.isAnnotation) {
              const tal = parseTalBlock(bytes, src, r0 + r)
              const onset = (tal.recordOnsetSec ?? (r0 + r) * h.recordDurationSec) + by
              out.set(encodeTalBlock(onset, tal.annotations.map((a) => shifted(a, by)), outAnnBytes), p)
              p += outAnnBytes
            } else {
              out.set(bytes, p)
              p += bytes.length
            }
          }
        }
        yield out
      }
    }
  }
  const bytes = await writeFileAtomic(dest, chunks(), signal)
  return { file: dest, tiles, records: n * tiles, annotations: perTile * tiles, bytes, annotationBytes: { source: sourceAnnBytes, output: outAnnBytes, needed } }
}

/** Builds the 1 h and 24 h files in bench/data unless they exist; returns what was built. */
export async function ensureTiledFiles(log: (line: string) => void = () => undefined): Promise<TiledEdfResult[]> {
  const built: TiledEdfResult[] = []
  await mkdir(DATA_DIR, { recursive: true })
  for (const f of TILED_FILES) {
    if (await stat(f.file).then(() => true, () => false)) continue
    const t0 = performance.now()
    const r = await buildTiledEdf(SOURCE_EDF, f.file, f.tiles)
    log(`built ${path.relative(process.cwd(), f.file)}: ${r.records} records, ${r.annotations} annotations, ${(r.bytes / 1e6).toFixed(1)} MB, annotation signal ${r.annotationBytes.output} B/record (source ${r.annotationBytes.source}, needed ${r.annotationBytes.needed}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    built.push(r)
  }
  return built
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { tiles: { type: 'string' }, out: { type: 'string' }, src: { type: 'string' } } })
  if (values.out || values.tiles) {
    const tiles = Number(values.tiles ?? 48)
    const out = values.out ?? path.join(DATA_DIR, `mitbih100_x${tiles}.edf`)
    const r = await buildTiledEdf(path.resolve(values.src ?? SOURCE_EDF), path.resolve(out), tiles)
    console.log(JSON.stringify(r))
  } else {
    const built = await ensureTiledFiles(console.log)
    if (built.length === 0) console.log('bench/data files exist; delete them to rebuild')
  }
}
