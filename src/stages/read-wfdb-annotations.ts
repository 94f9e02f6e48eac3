// Reads a WFDB annotation file in chunks, handing out the annotations before a given sample, so
// annotations stream alongside the signal instead of being loaded whole.
import { open, type FileHandle } from 'node:fs/promises'
import type { AnnotationItem } from '../core/items.ts'
import type { RecordSpec } from '../core/config-schema.ts'
import { createMitAnnotationParser, type WfdbAnnotation } from '../formats/wfdb-annotations.ts'
import type { ReadContext } from './read-context.ts'

export interface AnnotationStream {
  /** Every annotation not yet handed out whose sample is < `end` (and possibly a few beyond). */
  until(end: number): Promise<AnnotationItem[]>
  /** Everything left. */
  rest(): Promise<AnnotationItem[]>
  /** Closes the file early (after an error or abort); a no-op once everything was read. */
  close(): Promise<void>
}

// 8 KB of an annotation file is ~4,000 annotations (about 35 min of beats): the reader holds
// those it read ahead as items, and 64 KB chunks (hours of beats as items) raised the 23 h
// Icentia record's peak RSS by about 4 MB for no gain in speed.
const CHUNK = 8 * 1024

/** Opens `file`, or returns null (with a warning when the annotator was named explicitly) when absent. */
export async function readAnnotationStream(file: string, spec: RecordSpec, fs: number, ctx: ReadContext): Promise<AnnotationStream | null> {
  let fh: FileHandle
  try {
    fh = await open(file, 'r')
  } catch {
    if (spec.annotatorExplicit) ctx.warn('W_NO_ANNOTATIONS', `annotation file ${file} not found; the record is read without reference annotations`)
    return null
  }
  const parser = createMitAnnotationParser(file, { fs })
  const buf = Buffer.allocUnsafe(CHUNK)
  let position = 0
  let done = false
  let last = -1
  const toItem = (a: WfdbAnnotation): AnnotationItem => ({
    kind: 'annotation', recordId: spec.id, source: 'reference', sample: a.sample, timeMs: Math.round((a.sample / fs) * 1e6) / 1e3,
    symbol: a.symbol, aux: a.aux, subtype: a.subtype, chan: a.chan, num: a.num,
  })
  const more = async (): Promise<AnnotationItem[]> => {
    if (done) return []
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position)
    position += bytesRead
    let got: WfdbAnnotation[]
    if (bytesRead === 0) {
      done = true
      await fh.close() // before end(), which throws on a file cut inside an annotation
      got = parser.end()
    } else got = parser.push(buf.subarray(0, bytesRead))
    if (got.length) last = got[got.length - 1].sample
    return got.map(toItem)
  }
  return {
    async until(end) {
      const out: AnnotationItem[] = []
      while (!done && last < end) out.push(...(await more()))
      return out
    },
    async rest() {
      const out: AnnotationItem[] = []
      while (!done) out.push(...(await more()))
      return out
    },
    async close() {
      if (done) return
      done = true
      await fh.close()
    },
  }
}
