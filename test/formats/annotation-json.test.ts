import { describe, expect, it } from 'vitest'
import { createAnnotationJsonParser } from '../../src/formats/annotation-json.ts'
import { MAX_ROW_CHARS } from '../../src/formats/annotation-row.ts'
import { parseInPieces, row } from '../helpers/sidecar-rows.ts'
import { thrown } from '../helpers/thrown.ts'

const parse = (text: string, size?: number) => parseInPieces(createAnnotationJsonParser('ann.ndjson'), text, size)

describe('JSON annotation sidecar parser', () => {
  it('reads NDJSON, one object per line, with the CSV fields', () => {
    const text = '{"sample":18,"time_ms":50,"symbol":"+","aux":"(N","is_beat":0}\n{"sample":77,"time_ms":213.889,"symbol":"N","aux":"","is_beat":1}\n'
    expect(parse(text)).toEqual([row(1, 18, 50, '+', '(N'), row(2, 77, 213.889, 'N')])
  })

  it('reads a JSON array, on one line or pretty-printed, naming the line where each object starts', () => {
    const rows = [{ sample: 1, symbol: 'N', aux: null }, { time_s: 2.5, symbol: 'V' }, { sample: '3', symbol: '+', aux: '(AFIB' }]
    expect(parse(JSON.stringify(rows))).toEqual([row(1, 1, null, 'N'), row(1, null, 2500, 'V'), row(1, 3, null, '+', '(AFIB')])
    expect(parse(JSON.stringify(rows, null, 2))).toEqual([row(2, 1, null, 'N'), row(7, null, 2500, 'V'), row(11, 3, null, '+', '(AFIB')])
  })

  it('gives the same rows whatever the chunk boundaries (braces and quotes inside strings, escapes, CRLF)', () => {
    const text = '\uFEFF{"sample":1,"symbol":"N","aux":"}{\\"[]"}\r\n\r\n{"time_ms":1e3,"symbol":"\\u0056","x":{"nested":[1,{"a":"}"}]}}\r\n'
    const whole = parse(text)
    expect(whole).toEqual([row(1, 1, null, 'N', '}{"[]'), row(3, null, 1000, 'V')])
    for (const size of [1, 2, 3, 5, 7]) expect(parse(text, size)).toEqual(whole)
  })

  it('has no rows for an empty file, blank lines or an empty array', () => {
    expect(parse('')).toEqual([])
    expect(parse('\n \r\n')).toEqual([])
    expect(parse(' [ ]\n')).toEqual([])
  })

  it.each([
    ['a bare value', '{"sample":1,"symbol":"N"}\n42\n', 2, undefined, 'expected an object "{" (one per line), found "4"'],
    ['a value after the array', '[{"sample":1,"symbol":"N"}]\n{"sample":2,"symbol":"N"}\n', 2, undefined, 'expected nothing after the closing "]", found "{"'],
    ['a missing comma in an array', '[{"sample":1,"symbol":"N"}\n {"sample":2,"symbol":"N"}]', 2, undefined, 'expected "," or "]", found "{"'],
    ['bad JSON inside an object', '{"sample":1,"symbol":"N"}\n{"sample":2,symbol:"N"}\n', 2, undefined, 'expected a JSON object, could not parse the one starting here ('],
    ['an unclosed object', '{"sample":1,"symbol":"N"}\n{"sample":2,\n', 2, undefined, 'expected the object starting here to close with "}", found the end of the file; complete or remove it'],
    ['an unclosed array', '[{"sample":1,"symbol":"N"},\n', 2, undefined, 'expected the array to close with "]", found the end of the file'],
    ['a string sample', '{"sample":"abc","symbol":"N"}', 1, 'sample', 'field "sample": expected a number, found "abc"'],
    ['a boolean time', '{"time_ms":true,"symbol":"N"}', 1, 'time_ms', 'field "time_ms": expected a number, found true'],
    ['a fractional sample', '{"sample":1.5,"symbol":"N"}', 1, 'sample', 'expected a whole number >= 0'],
    ['no position', '{"symbol":"N","time_ms":null}', 1, 'sample', 'expected a position in "sample", "time_ms" or "time_s", found none'],
    ['no symbol', '\n{"sample":4}', 2, 'symbol', 'field "symbol": expected an annotation symbol'],
    ['a numeric symbol', '{"sample":4,"symbol":1}', 1, 'symbol', 'field "symbol": expected text, found 1; write it as a string'],
    ['an aux object', '{"sample":4,"symbol":"+","aux":{}}', 1, 'aux', 'field "aux": expected text, found {}'],
  ])('names file:line, the field and the fix for %s', (_, text, line, field, message) => {
    const err = thrown(() => parse(text))
    expect(err.code).toBe('E_ANNOTATION_SIDECAR')
    expect(err.message).toContain(`ann.ndjson:${line}: `)
    expect(err.message).toContain(message)
    expect(err.context).toEqual({ file: 'ann.ndjson', line, ...(field ? { field } : {}) })
  })

  it('bounds an object (an unclosed brace must not swallow a 24 h file)', () => {
    const p = createAnnotationJsonParser('ann.ndjson')
    p.push('{"sample":1,"symbol":"N"}\n{"aux":"')
    const err = thrown(() => p.push('x'.repeat(MAX_ROW_CHARS)))
    expect(err.message).toContain(`ann.ndjson:2: expected annotation objects of at most ${MAX_ROW_CHARS} characters`)
  })
})
