// Streaming parser for MIT-format annotation files (annot(5); getann() in WFDB's annot.c).
// The file is a sequence of 16-bit little-endian words: code in the top 6 bits, data in the
// low 10. Codes 0-58 start an annotation `data` ticks after the previous one; the pseudo-codes
// that follow modify it: SKIP (59, then a PDP-11 long: high word first, each word little-endian,
// added to the time of the next annotation), NUM (60), SUB (61), CHN (62), AUX (63: data & 255
// bytes of text, padded to an even length). A zero word ends the file. chan and num carry over
// to later annotations; subtype and aux do not. Because pseudo-codes follow their annotation,
// an annotation is emitted only once the next one (or the end) is seen.
// Like annopen(), a leading table of NOTE annotations at time 0 ("## time resolution: 250",
// mnemonic definitions) and the null annotation closing it are read, not returned.
// Fields keep the C library's types: subtype and num are signed chars, chan an unsigned char.

import { PipelineError } from '../core/errors.ts'
import { isBeatCode, WFDB_CODE, wfdbAnnotationSymbol } from './wfdb-annotation-codes.ts'

export { isBeatCode, wfdbAnnotationSymbol } from './wfdb-annotation-codes.ts'

/** One annotation as getann() returns it. */
export interface WfdbAnnotation {
  /** Sample index (ticks converted to samples when the file has its own time resolution and fs is known). */
  sample: number
  /** MIT annotation code (ecgcodes.h). */
  code: number
  /** Mnemonic of the code (N, V, +, ...), or the file's own definition. */
  symbol: string
  subtype: number
  chan: number
  num: number
  /** Auxiliary text up to its first NUL (e.g. "(AFIB"); '' when none. */
  aux: string
}

/** A live parser; push chunks in file order, then call end(). */
export interface MitAnnotationParser {
  push(chunk: Uint8Array): WfdbAnnotation[]
  end(): WfdbAnnotation[]
  /** Ticks per second declared by the file ("## time resolution"), if any. */
  readonly timeResolution: number | undefined
}

interface Pending extends Omit<WfdbAnnotation, 'sample' | 'symbol'> {
  ticks: number
}

const SKIP = 59
const NUM = 60
const SUB = 61
const CHN = 62
const AUX = 63

/** Creates a parser for one annotation file; `fs`, when given, converts ticks of a file with its own time resolution. */
export function createMitAnnotationParser(file: string, options: { fs?: number } = {}): MitAnnotationParser {
  let rest = new Uint8Array(0) // bytes of an incomplete word, SKIP or AUX, at file offset restAt
  let restAt = 0
  let ticks = 0
  let chan = 0
  let num = 0
  let pending: Pending | null = null
  let ended = false
  let inTable = true
  let sawTable = false
  let afreq: number | undefined
  const symbols = new Map<number, string>()
  const auxDecoder = new TextDecoder('utf-8')

  const fail = (offset: number, msg: string) =>
    new PipelineError('E_WFDB_ANNOTATION', `${file}: byte ${offset}: ${msg}`, { file, offset })

  // Emits the pending annotation unless it belongs to the leading definition table.
  function flush(out: WfdbAnnotation[]): void {
    const p = pending
    pending = null
    if (p === null) return
    if (inTable && p.ticks === 0 && p.code === WFDB_CODE.NOTE && p.subtype === 0 && readTableEntry(p.aux)) return
    const closesTable = inTable && sawTable && p.ticks === 0 && p.code === WFDB_CODE.NOTQRS
    inTable = false
    if (closesTable) return
    const scale = afreq && options.fs ? options.fs / afreq : 1
    const sample = scale === 1 ? p.ticks : Math.floor(p.ticks * scale + 0.5)
    const symbol = symbols.get(p.code) ?? wfdbAnnotationSymbol(p.code)
    out.push({ sample, code: p.code, symbol, subtype: p.subtype, chan: p.chan, num: p.num, aux: p.aux })
  }

  function readTableEntry(aux: string): boolean {
    const res = /^## time resolution:\s*([0-9.eE+-]+)/.exec(aux)
    if (res && Number(res[1]) > 0) afreq = Number(res[1])
    const def = /^(\d+)\s+(\S+)/.exec(aux)
    if (def && Number(def[1]) <= 49) symbols.set(Number(def[1]), def[2])
    const known = aux.startsWith('#') || def !== null
    sawTable ||= known
    return known
  }

  function parse(b: Uint8Array, base: number, out: WfdbAnnotation[]): number {
    let p = 0
    while (!ended && p + 2 <= b.length) {
      const word = b[p] | (b[p + 1] << 8)
      const code = word >> 10
      const data = word & 0x3ff
      if (word === 0) {
        flush(out)
        ended = true
        return b.length // bytes after the end mark are not annotations
      }
      if (code === SKIP) {
        if (p + 6 > b.length) break
        ticks += (((b[p + 3] << 24) | (b[p + 2] << 16)) | ((b[p + 5] << 8) | b[p + 4]))
        p += 6
        continue
      }
      if (code >= NUM) {
        const size = code === AUX ? 2 + (((data & 0xff) + 1) & ~1) : 2
        if (p + size > b.length) break
        if (pending === null) {
          throw fail(base + p, `pseudo-annotation ${['NUM', 'SUB', 'CHN', 'AUX'][code - NUM]} comes before any annotation; expected an annotation word first; the file is not an MIT annotation file or is damaged`)
        }
        if (code === NUM) pending.num = num = (data << 24) >> 24
        else if (code === SUB) pending.subtype = (data << 24) >> 24
        else if (code === CHN) pending.chan = chan = data & 0xff
        else {
          const text = b.subarray(p + 2, p + 2 + (data & 0xff))
          const nul = text.indexOf(0)
          pending.aux = auxDecoder.decode(nul < 0 ? text : text.subarray(0, nul))
        }
        p += size
        continue
      }
      flush(out)
      ticks += data
      if (ticks < 0) throw fail(base + p, `annotation time is ${ticks} ticks; expected >= 0 (a SKIP before it went back too far); the file is damaged`)
      pending = { ticks, code, subtype: 0, chan, num, aux: '' }
      p += 2
    }
    return p
  }

  return {
    get timeResolution() {
      return afreq
    },
    push(chunk) {
      const out: WfdbAnnotation[] = []
      if (ended) return out
      // The carry is at most one partial AUX (258 bytes); joining costs one chunk copy, only after a split.
      const b = rest.length === 0 ? chunk : concat(rest, chunk)
      const used = parse(b, restAt, out)
      // A copy: callers reuse their read buffer, and a Buffer's slice() would be a view of it.
      rest = Uint8Array.prototype.slice.call(b, used)
      restAt += used
      return out
    },
    end() {
      if (!ended) {
        const what = rest.length > 0 ? `an incomplete annotation word, SKIP or AUX (${rest.length} byte(s) of it)` : 'no end mark (a zero word)'
        throw fail(restAt, `file ends with ${what}; expected a complete annotation file; it is truncated, copy it again`)
      }
      const out: WfdbAnnotation[] = []
      flush(out)
      return out
    },
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
