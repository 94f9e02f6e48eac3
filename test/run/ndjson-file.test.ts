import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseNdjsonBuffer, readNdjson, repairNdjson } from '../../src/run/ndjson-file.ts'
import { tmpDir } from '../helpers/tmp.ts'

describe('NDJSON reading', () => {
  const dir = tmpDir()

  it('reads complete lines and reports their end offsets', () => {
    const r = parseNdjsonBuffer(Buffer.from('{"a":1}\n{"b":2}\n'), 'x.ndjson')
    expect(r).toEqual({ values: [{ a: 1 }, { b: 2 }], validBytes: 16, tornTail: false, ends: [8, 16] })
  })

  it.each([
    ['a line without newline', '{"a":1}\n{"b":'],
    ['a complete-looking line without newline', '{"a":1}\n{"b":2}'],
    ['a garbled last line', '{"a":1}\n{"b":\u0000\u0000\n'],
  ])('cuts a torn tail: %s', (_n, text) => {
    const r = parseNdjsonBuffer(Buffer.from(text), 'x.ndjson')
    expect(r.values).toEqual([{ a: 1 }])
    expect(r.validBytes).toBe(8)
    expect(r.tornTail).toBe(true)
  })

  it('fails on a damaged line in the middle, naming file and line', () => {
    expect(() => parseNdjsonBuffer(Buffer.from('{"a":1}\nnot json\n{"c":3}\n'), 'runs/x/checkpoints.ndjson')).toThrow(
      expect.objectContaining({ code: 'E_CHECKPOINT', context: expect.objectContaining({ file: 'runs/x/checkpoints.ndjson', line: 2 }) }),
    )
  })

  it('repair truncates the torn tail on disk so appends start clean', async () => {
    const f = path.join(dir, 'j.ndjson')
    writeFileSync(f, '{"a":1}\n{"b":')
    const r = await repairNdjson(f)
    expect(r.values).toEqual([{ a: 1 }])
    appendFileSync(f, '{"c":3}\n')
    expect(readFileSync(f, 'utf8')).toBe('{"a":1}\n{"c":3}\n')
    expect((await readNdjson(path.join(dir, 'missing.ndjson'))).values).toEqual([])
  })
})
