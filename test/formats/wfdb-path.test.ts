import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { readWfdbHeaderFile, resolveWfdbRecord, wfdbFilePath } from '../../src/formats/wfdb-path.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

describe('resolveWfdbRecord', () => {
  it.each(['x/100.hea', 'x/100'])('names record 100 in x from %s', (p) => {
    expect(resolveWfdbRecord(p)).toEqual({ basePath: 'x/100', headerPath: 'x/100.hea', dir: 'x', name: '100' })
  })

  it('keeps dots in directory names and takes a bare record name', () => {
    expect(resolveWfdbRecord('data.v2/p00000_s00')).toMatchObject({ dir: 'data.v2', name: 'p00000_s00' })
    expect(resolveWfdbRecord('100')).toEqual({ basePath: '100', headerPath: '100.hea', dir: '.', name: '100' })
  })

  it.each(['x/100.dat', 'x/100.atr', '', 'x/'])('refuses %j with E_USAGE and a hint', (p) => {
    try {
      resolveWfdbRecord(p)
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(PipelineError)
      expect((err as PipelineError).code).toBe('E_USAGE')
      expect((err as PipelineError).message).toMatch(/\.(dat|atr)$/.test(p) ? /use x\/100\.hea or x\/100$/ : /\.hea path or its base path/)
    }
  })

  it('resolves .dat names against the header directory', () => {
    expect(wfdbFilePath(resolveWfdbRecord('a/b/100.hea'), '100.dat')).toBe(path.join('a/b', '100.dat'))
  })
})

describe('readWfdbHeaderFile', () => {
  it('reports a missing header as E_FILE_MISSING with a hint', async () => {
    const err = await readWfdbHeaderFile('/nonexistent/dir/rec').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(PipelineError)
    expect((err as PipelineError).code).toBe('E_FILE_MISSING')
    expect((err as PipelineError).message).toBe('WFDB header not found: /nonexistent/dir/rec.hea (name a record by its .hea path or its base path)')
  })
})

describeShared('readWfdbHeaderFile on real records', () => {
  it('reads the same header by its base path and by its .hea path', async () => {
    const byBase = await readWfdbHeaderFile(sharedPath('data/mitdb/208'))
    const byHea = await readWfdbHeaderFile(sharedPath('data/mitdb/208.hea'))
    expect(byBase).toEqual(byHea)
    expect(byBase).toMatchObject({ recordName: '208', file: sharedPath('data/mitdb/208.hea'), age: 23, sex: 'F' })
  })
})
