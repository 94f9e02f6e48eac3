// order.bin (src/formats/item-order.ts), unit layer: what the writer records is read back from a
// real file, range by range, as input-run.ts reads it. The reader works in 64 KB chunks, so the
// long round trip places a watermark and a kind's definition across chunk boundaries on purpose
// (and checks that they do).
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { createOrderWriter, readOrder, type OrderEntry } from '../../src/formats/item-order.ts'
import { rng } from '../helpers/seeded-random.ts'
import { rejection, thrown } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const CHUNK = 64 * 1024

type Op = { line: string } | { watermark: number }

/** Records `ops`, taking the bytes after every op as a sink does after each batch. */
function record(ops: Op[]): { bytes: Buffer; spans: { op: Op; start: number; length: number }[] } {
  const w = createOrderWriter()
  const pieces: Buffer[] = []
  const spans: { op: Op; start: number; length: number }[] = []
  let n = 0
  for (const op of ops) {
    if ('line' in op) w.line(op.line)
    else w.watermark(op.watermark)
    const b = w.take()
    spans.push({ op, start: n, length: b?.length ?? 0 })
    if (b) pieces.push(b)
    n += b?.length ?? 0
  }
  expect(w.take()).toBeNull()
  return { bytes: Buffer.concat(pieces), spans }
}

/** What reading the ops back should give: every line, and the watermarks that moved forward. */
function expected(ops: Op[]): OrderEntry[] {
  let last = -1
  const out: OrderEntry[] = []
  for (const op of ops) {
    if ('line' in op) out.push({ kind: op.line })
    else if (op.watermark > last) {
      out.push({ watermark: op.watermark })
      last = op.watermark
    }
  }
  return out
}

async function readAll(file: string, start: number, end: number): Promise<OrderEntry[]> {
  const out: OrderEntry[] = []
  for await (const e of readOrder(file, start, end)) out.push(e)
  return out
}

function fileWith(bytes: Uint8Array): string {
  const file = path.join(tmpDir('hp-order-'), 'order.bin')
  writeFileSync(file, bytes)
  return file
}

describe('order.bin', () => {
  it('take() gives the bytes recorded since the last call, null when there are none', () => {
    const w = createOrderWriter()
    expect(w.take()).toBeNull()
    w.line('beat')
    const first = w.take()!
    expect([...first]).toEqual([0xfc, 4, ...Buffer.from('beat'), 0])
    w.line('beat')
    w.watermark(258)
    expect([...w.take()!]).toEqual([0, 0xfd, 2, 1, 0, 0, 0, 0])
    expect(w.take()).toBeNull()
  })

  it('reads back many entries, more than 64 KB, with entries across chunk boundaries', async () => {
    const random = rng(42)
    const ops: Op[] = []
    const kinds: string[] = []
    const named = new Set<string>()
    let fresh = 0
    const newKind = () => `kind-${fresh++}-${'ü'.repeat(fresh % 30)}` // UTF-8: its length byte counts bytes
    let n = 0
    let mark = 0
    const push = (op: Op) => {
      ops.push(op)
      if ('line' in op) {
        if (!named.has(op.line)) {
          named.add(op.line)
          kinds.push(op.line)
          n += 2 + Buffer.byteLength(op.line)
        }
        n += 1
      } else if (op.watermark > mark) {
        mark = op.watermark
        n += 7
      }
    }
    const lineUpTo = (pos: number) => {
      while (n < pos) push({ line: kinds[Math.floor(random() * kinds.length)] })
    }
    push({ line: newKind() })
    while (n < 4 * CHUNK) {
      // A watermark over the first boundary, a definition over the second; the rest at random.
      if (n < CHUNK && n > CHUNK - 100) {
        lineUpTo(CHUNK - 3)
        push({ watermark: mark + 1 })
      } else if (n < 2 * CHUNK && n > 2 * CHUNK - 100) {
        lineUpTo(2 * CHUNK - 4)
        push({ line: newKind() })
      }
      const r = random()
      if (r < 0.1) push({ watermark: mark + 1 + Math.floor(random() * 2_000_000) })
      else if (r < 0.12) push({ watermark: mark - Math.floor(random() * 10) }) // not forward: not recorded
      else if (r < 0.125 && kinds.length < 200) push({ line: newKind() })
      else push({ line: kinds[Math.floor(random() * kinds.length)] })
    }
    const { bytes, spans } = record(ops)
    expect(bytes.length).toBe(n)
    const across = (code: number) => spans.filter((s) => bytes[s.start] === code && s.length > 1 && Math.floor(s.start / CHUNK) !== Math.floor((s.start + s.length - 1) / CHUNK))
    expect(across(0xfd).length).toBeGreaterThan(0)
    expect(across(0xfc).length).toBeGreaterThan(0)
    const file = fileWith(bytes)
    expect(await readAll(file, 0, bytes.length)).toEqual(expected(ops))
  })

  it("reads two records' ranges back to back in one file, each alone with its own table", async () => {
    const a: Op[] = [{ line: 'beat' }, { watermark: 360 }, { line: 'rr' }, { line: 'beat' }, { watermark: 720 }]
    const b: Op[] = [{ line: 'rr' }, { line: 'rr' }, { watermark: 10 }, { line: 'beat' }, { line: 'quality' }, { line: 'rr' }]
    const ra = record(a)
    const rb = record(b)
    // In b, index 0 is rr: read with a's table it would say beat.
    expect(rb.bytes[rb.bytes.length - 1]).toBe(0)
    const file = fileWith(Buffer.concat([ra.bytes, rb.bytes]))
    const end = ra.bytes.length + rb.bytes.length
    expect(await readAll(file, 0, ra.bytes.length)).toEqual(expected(a))
    expect(await readAll(file, ra.bytes.length, end)).toEqual(expected(b))
    expect(await readAll(file, end, end)).toEqual([])
  })

  it.each<[string, number[], number[]]>([
    ['a repeat and a step back', [100, 100, 50, 100.7, 101], [100, 101]],
    ['negative samples as 0', [-5, 0, 0.5, 1], [0, 1]],
    ['fractions floored', [5.9, 5, 6], [5, 6]],
    ['nothing that is not a finite sample', [Number.NaN, Number.POSITIVE_INFINITY, 3], [3]],
    ['up to 6 bytes', [2 ** 48 - 1, 2 ** 48], [2 ** 48 - 1]],
  ])('records a watermark once, only when it moves forward (%s)', async (_, samples, recorded) => {
    const ops: Op[] = [{ line: 'block' }, ...samples.map((watermark) => ({ watermark }))]
    const { bytes } = record(ops)
    expect(await readAll(fileWith(bytes), 0, bytes.length)).toEqual([{ kind: 'block' }, ...recorded.map((watermark) => ({ watermark }))])
  })

  it('takes 252 kinds and refuses the 253rd with E_STAGE_OUTPUT, leaving what was recorded readable', async () => {
    const w = createOrderWriter()
    const names = Array.from({ length: 252 }, (_, i) => `k${i}`)
    for (const k of names) w.line(k)
    w.line('k0')
    const err = thrown(() => w.line('one-too-many'))
    expect(err.code).toBe('E_STAGE_OUTPUT')
    expect(err.message).toContain('one-too-many')
    w.line('k251')
    const bytes = w.take()!
    expect(await readAll(fileWith(bytes), 0, bytes.length)).toEqual([...names, 'k0', 'k251'].map((kind) => ({ kind })))
  })

  it('takes a kind name of 255 bytes and refuses a longer one with E_STAGE_OUTPUT (its length is one byte)', async () => {
    const w = createOrderWriter()
    const longest = 'k'.repeat(255)
    w.line(longest)
    expect(thrown(() => w.line('k'.repeat(256))).code).toBe('E_STAGE_OUTPUT')
    expect(thrown(() => w.line('ü'.repeat(128))).code).toBe('E_STAGE_OUTPUT') // 256 bytes of UTF-8
    w.line('short')
    const bytes = w.take()!
    expect(await readAll(fileWith(bytes), 0, bytes.length)).toEqual([{ kind: longest }, { kind: 'short' }])
  })

  // The ops are: beat (fc 04 "beat" 00), watermark (fd + 6 bytes), rr (fc 02 "rr" 01), beat (00), rr (01).
  it.each<[string, (s: { start: number; length: number }[]) => [number, number]]>([
    ['ending inside a watermark', (s) => [0, s[1].start + 3]],
    ['ending inside a kind name', (s) => [0, s[2].start + 3]],
    ['ending after a definition marker', (s) => [0, s[2].start + 1]],
    ['starting after the definitions', (s) => [s[3].start, s[4].start + s[4].length]],
  ])('a damaged range (%s) is E_CHECKPOINT naming the file and the bytes', async (_, cut) => {
    const { bytes, spans } = record([{ line: 'beat' }, { watermark: 7 }, { line: 'rr' }, { line: 'beat' }, { line: 'rr' }])
    const file = fileWith(bytes)
    const [start, end] = cut(spans)
    const err = (await rejection(readAll(file, start, end))) as PipelineError
    expect(err).toBeInstanceOf(PipelineError)
    expect(err.code).toBe('E_CHECKPOINT')
    expect(err.context.file).toBe(file)
    expect(err.message).toContain(`bytes ${start}-${end}`)
  })

  it('a file cut short of its range, even between two entries, is E_CHECKPOINT', async () => {
    const { bytes, spans } = record([{ line: 'beat' }, { watermark: 7 }, { line: 'beat' }, { line: 'beat' }])
    const cutAt = spans[2].start // the file ends cleanly after the watermark
    const file = fileWith(bytes.subarray(0, cutAt))
    const err = (await rejection(readAll(file, 0, bytes.length))) as PipelineError
    expect(err).toBeInstanceOf(PipelineError)
    expect(err.code).toBe('E_CHECKPOINT')
    expect(err.context.file).toBe(file)
  })
})
