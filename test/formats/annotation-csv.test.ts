import { describe, expect, it } from 'vitest'
import { createAnnotationCsvParser } from '../../src/formats/annotation-csv.ts'
import { MAX_ROW_CHARS } from '../../src/formats/annotation-row.ts'
import { parseInPieces, row } from '../helpers/sidecar-rows.ts'
import { thrown } from '../helpers/thrown.ts'

const parse = (text: string, size?: number) => parseInPieces(createAnnotationCsvParser('ann.csv'), text, size)

describe('CSV annotation sidecar parser', () => {
  it('reads the columns of the real example (sample,time_ms,symbol,aux,is_beat)', () => {
    const text = 'sample,time_ms,symbol,aux,is_beat\n18,50.000,+,(N,0\n77,213.889,N,,1\n2044,5677.778,A,,1\n'
    expect(parse(text)).toEqual([row(2, 18, 50, '+', '(N'), row(3, 77, 213.889, 'N'), row(4, 2044, 5677.778, 'A')])
  })

  it('keeps commas, doubled quotes and line breaks inside quoted fields, and counts their lines', () => {
    const text = 'sample,symbol,aux\n10,",","a,b"\n20,"""",\n30,"""",  "x\ny"  \n40,N,"say ""hi"""\n'
    expect(parse(text)).toEqual([row(2, 10, null, ',', 'a,b'), row(3, 20, null, '"'), row(4, 30, null, '"', 'x\ny'), row(6, 40, null, 'N', 'say "hi"')])
  })

  it('accepts CRLF, CR, a BOM, blank lines, spaces around fields and a last line without a line end', () => {
    const rows = [row(2, 1, null, 'N'), row(4, 2, null, 'V', '(AFIB'), row(5, 3, null, 'N')]
    expect(parse('\uFEFFsample,symbol,aux\r\n1,N,\r\n\r\n2 , V ,(AFIB\r\n3,N')).toEqual(rows)
    expect(parse('sample,symbol,aux\r1,N,\r\r2,V,(AFIB\r3,N\r')).toEqual(rows)
  })

  it('gives the same rows whatever the chunk boundaries (a CR, a quote pair, a BOM split)', () => {
    const text = '\uFEFFsample,symbol,aux\r\n1,"a""b",\r\n2,",\r\n",x\r\n\r\n3,N,\r\n'
    const whole = parse(text)
    expect(whole).toEqual([row(2, 1, null, 'a"b'), row(3, 2, null, ',', 'x'), row(6, 3, null, 'N')])
    for (const size of [1, 2, 3, 5, 7]) expect(parse(text, size)).toEqual(whole)
  })

  it('takes the columns in any order and case, ignores unknown ones, and lets rows stop early', () => {
    expect(parse('Symbol,Time_MS,note\nN,1000.5,whatever\nV,2000\n')).toEqual([row(2, null, 1000.5, 'N'), row(3, null, 2000, 'V')])
  })

  it('reads time-only rows in ms or s (ms wins when both are given), and mixes positions per row', () => {
    expect(parse('time_s,symbol\n0.5,N\n1.027778,V\n')).toEqual([row(2, null, 500, 'N'), row(3, null, 1027.778, 'V')])
    expect(parse('sample,time_ms,time_s,symbol\n,100,9,N\n360,,,N\n,,2,V\n')).toEqual([row(2, null, 100, 'N'), row(3, 360, null, 'N'), row(4, null, 2000, 'V')])
  })

  it('has no rows for a header alone', () => {
    expect(parse('sample,symbol\n')).toEqual([])
  })

  it.each([
    ['an empty file', '', 1, undefined, 'expected a header line naming the columns (e.g. sample,time_ms,symbol,aux), found an empty file; write the header line'],
    ['blank lines only', '\n\r\n', 1, undefined, 'found an empty file'],
    ['no symbol column', 'sample,label\n1,N\n', 1, 'symbol', 'expected a header with a "symbol" column, found the columns "sample", "label"; name the columns in the first line'],
    ['no position column', 'symbol,aux\nN,\n', 1, 'sample', 'expected a header with a "sample", "time_ms" or "time_s" column'],
    ['a column twice', 'sample,symbol,Sample\n', 1, 'sample', 'found "sample" twice'],
    ['an unquoted comma', 'sample,symbol,aux\n1,N,\n2,N,a,b\n', 3, undefined, 'expected at most 3 fields as in the header, found 4; put a field that contains a comma in double quotes ("a,b")'],
    ['a word for a sample', 'sample,symbol\n1,N\nx12,N\n', 3, 'sample', 'field "sample": expected a number, found "x12"; write it as a plain decimal number'],
    ['a fractional sample', 'sample,symbol\n12.5,N\n', 2, 'sample', 'field "sample": expected a whole number >= 0 (a sample index at the recording\'s rate), found "12.5"'],
    ['a negative sample', 'sample,symbol\n-3,N\n', 2, 'sample', 'expected a whole number >= 0'],
    ['a bad time', 'time_ms,symbol\n1e,N\n', 2, 'time_ms', 'field "time_ms": expected a number, found "1e"'],
    ['a negative time', 'time_s,symbol\n-0.5,N\n', 2, 'time_s', 'field "time_s": expected a time >= 0 from the start of the recording, found "-0.5"'],
    ['a row without a position', 'sample,time_ms,symbol\n1,,N\n,,N\n', 3, 'sample', 'expected a position in "sample", "time_ms" or "time_s", found none; fill in one of them'],
    ['a row without a symbol', 'sample,symbol\n5, \n', 2, 'symbol', 'field "symbol": expected an annotation symbol'],
    ['a missing symbol field', 'sample,symbol\n5\n', 2, 'symbol', 'field "symbol": expected an annotation symbol'],
    ['an unclosed quote', 'sample,symbol,aux\n1,N,"(AFIB\n2,N,\n', 2, undefined, 'expected a closing double quote, found the end of the file; close the quoted field'],
    ['text after a closing quote', 'sample,symbol\n1,"N"x\n', 2, undefined, 'expected a comma or the end of the line after a quoted field, found "x"; write a quote inside a quoted field as two ("")'],
  ])('names file:line, the field and the fix for %s', (_, text, line, field, message) => {
    const err = thrown(() => parse(text))
    expect(err.code).toBe('E_ANNOTATION_SIDECAR')
    expect(err.message).toContain(`ann.csv:${line}: `)
    expect(err.message).toContain(message)
    expect(err.context).toEqual({ file: 'ann.csv', line, ...(field ? { field } : {}) })
  })

  it('bounds a row (an unclosed quote must not swallow a 24 h file)', () => {
    const p = createAnnotationCsvParser('ann.csv')
    p.push('sample,symbol,aux\n1,N,"')
    const err = thrown(() => p.push('x'.repeat(MAX_ROW_CHARS + 1)))
    expect(err.message).toBe(`ann.csv:2: expected rows of at most ${MAX_ROW_CHARS} characters, found a longer one inside a quoted field (is a closing quote missing?); fix the row`)
  })
})
