// Reads a WFDB annotation file in chunks, handing out the annotations before a given sample, so
// annotations stream alongside the signal instead of being loaded whole.
import { open, type FileHandle } from 'node:fs/promises'
import type { AnnotationItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { createMitAnnotationParser, type WfdbAnnotation } from '../formats/wfdb-annotations.ts'
import type { ReadContext } from './read-context.ts'

export interface AnnotationStream {
  /**
   * The annotations not yet handed out, in file order, up to the first whose sample is >= `end`
   * (which stays for a later call). Annotation files are in sample order, so these are the ones
   * before `end`; after a step back (WFDB writes a negative SKIP for a null annotation) an
   * annotation comes out behind the later one before it, never out of file order. The result
   * does not depend on how the file is read.
   */
  until(end: number): Promise<AnnotationItem[]>
  /** Everything left. */
  rest(): Promise<AnnotationItem[]>
  /** Closes the file early (after an error or abort); a no-op once everything was read. */
  close(): Promise<void>
}

// 8 KB of an annotation file is ~1,000 annotations (about 10 min of beats) of Icentia11k, whose
// annotations take 8 bytes each (55,346 bytes for 6,923 in p00000_s00.atr), and ~4,000 (about
// 54 min) of MIT-BIH 100 at 2 bytes each (4,558 bytes for 2,274): the reader holds
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
  const queue: AnnotationItem[] = [] // read, not handed out yet, from `head` on
  let head = 0
  const toItem = (a: WfdbAnnotation): AnnotationItem => ({
    kind: 'annotation', recordId: spec.id, source: 'reference', sample: a.sample, timeMs: Math.round((a.sample / fs) * 1e6) / 1e3,
    symbol: a.symbol, aux: a.aux, subtype: a.subtype, chan: a.chan, num: a.num,
  })
  // Reads the next chunk into the queue.
  const more = async (): Promise<void> => {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position)
    position += bytesRead
    let got: WfdbAnnotation[]
    if (bytesRead === 0) {
      done = true
      await fh.close() // before end(), which throws on a file cut inside an annotation
      got = parser.end()
    } else got = parser.push(buf.subarray(0, bytesRead))
    if (head > 0) {
      queue.splice(0, head)
      head = 0
    }
    for (const a of got) queue.push(toItem(a))
  }
  return {
    async until(end) {
      const out: AnnotationItem[] = []
      for (;;) {
        while (head < queue.length && queue[head].sample < end) out.push(queue[head++])
        if (head < queue.length || done) return out
        await more()
      }
    },
    async rest() {
      while (!done) await more()
      const out = queue.slice(head)
      head = queue.length
      return out
    },
    async close() {
      if (done) return
      done = true
      await fh.close()
    },
  }
}
