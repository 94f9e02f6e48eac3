// Streaming parser for reference-annotation sidecars in CSV, e.g.
//   sample,time_ms,symbol,aux,is_beat
//   18,50.000,+,(N,0
// RFC 4180: a header line names the columns (any order, case-insensitive, unknown ones ignored;
// annotation-row.ts says which are needed); a field in double quotes may hold commas, line breaks
// and doubled quotes (""); lines end in LF, CRLF or CR; blank lines and a UTF-8 BOM are skipped;
// unquoted fields are trimmed. A row may stop early (missing trailing fields count as empty)
// but not run past the header's column count: that is an unquoted comma. Text is pushed in
// chunks of any size, so a 24 h file (~100k rows) is never held whole.
import { MAX_ROW_CHARS, parseSidecarRow, POSITION_FIELDS, sidecarError, type SidecarParser, type SidecarRow } from './annotation-row.ts'

/** Creates a parser for the CSV sidecar `file` (the name is used in messages). */
export function createAnnotationCsvParser(file: string): SidecarParser {
  let line = 1 // line of the character being read
  let rowLine = 1 // line where the current row starts
  let fields: string[] = []
  let field = ''
  let quoted = false // inside a quoted field
  let quoteSeen = false // a '"' inside a quoted field: doubled ("") or closing, the next character says
  let wasQuoted = false // the current field was quoted (kept verbatim, not trimmed)
  let closed = false // a quoted field was closed: only a comma or a line end may follow
  let skipLf = false // the last character was a CR ending a row
  let crInQuotes = false // the last character was a CR inside a quoted field (CRLF counts one line)
  let rowQuoted = false // some field of the current row was quoted (a row of "" is not blank)
  let started = false
  let columns: Map<string, number> | null = null
  let width = 0

  const endField = () => {
    fields.push(wasQuoted ? field : field.trim())
    field = ''
    wasQuoted = closed = false
  }
  const endRow = (out: SidecarRow[]) => {
    const blank = fields.length === 1 && fields[0] === '' && !rowQuoted
    const row = fields
    fields = []
    rowQuoted = false
    if (blank) return
    if (!columns) {
      columns = readHeader(row, file, rowLine)
      width = row.length
      return
    }
    if (row.length > width) {
      throw sidecarError(file, rowLine, undefined, `expected at most ${width} fields as in the header, found ${row.length}; put a field that contains a comma in double quotes ("a,b")`)
    }
    const at = columns
    out.push(parseSidecarRow((name) => row[at.get(name) ?? width], file, rowLine))
  }

  return {
    push(text) {
      const out: SidecarRow[] = []
      for (let i = 0; i < text.length; i++) {
        const c = text[i]
        if (!started) {
          started = true
          if (c === '\uFEFF') continue
        }
        if (skipLf) {
          skipLf = false
          if (c === '\n') continue
        }
        if (quoted) {
          if (quoteSeen) {
            quoteSeen = false
            if (c === '"') {
              field += '"'
              continue
            }
            quoted = false
            closed = true // and c is read below as the character after the field
          } else {
            if (c === '"') quoteSeen = true
            else field += c
            if (c === '\r' || (c === '\n' && !crInQuotes)) line++
            crInQuotes = c === '\r'
            continue
          }
        }
        if (c === ',') {
          endField()
        } else if (c === '\n' || c === '\r') {
          endField()
          endRow(out)
          skipLf = c === '\r'
          rowLine = ++line
        } else if (closed) {
          if (c !== ' ' && c !== '\t') throw sidecarError(file, line, undefined, `expected a comma or the end of the line after a quoted field, found ${JSON.stringify(c)}; write a quote inside a quoted field as two ("")`)
        } else if (c === '"' && field.trim() === '' && !wasQuoted) {
          quoted = wasQuoted = rowQuoted = true
          crInQuotes = false
          field = ''
        } else {
          field += c
        }
      }
      if (field.length + fields.reduce((n, f) => n + f.length, 0) > MAX_ROW_CHARS) {
        throw sidecarError(file, rowLine, undefined, `expected rows of at most ${MAX_ROW_CHARS} characters, found a longer one${quoted ? ' inside a quoted field (is a closing quote missing?)' : ''}; fix the row`)
      }
      return out
    },
    end() {
      const out: SidecarRow[] = []
      if (quoted && !quoteSeen) throw sidecarError(file, rowLine, undefined, 'expected a closing double quote, found the end of the file; close the quoted field')
      if (quoted) closed = true
      quoted = quoteSeen = false
      if (field !== '' || fields.length > 0 || rowQuoted) {
        endField()
        endRow(out)
      }
      if (!columns) throw sidecarError(file, 1, undefined, 'expected a header line naming the columns (e.g. sample,time_ms,symbol,aux), found an empty file; write the header line')
      return out
    },
  }
}

function readHeader(names: string[], file: string, line: number): Map<string, number> {
  const columns = new Map<string, number>()
  names.forEach((raw, i) => {
    const name = raw.trim().toLowerCase()
    if (name !== '' && columns.has(name)) throw sidecarError(file, line, name, `expected each column once in the header, found "${name}" twice; rename or remove one`)
    if (name !== '') columns.set(name, i)
  })
  const found = `found the columns ${names.map((n) => JSON.stringify(n)).join(', ')}`
  if (!columns.has('symbol')) throw sidecarError(file, line, 'symbol', `expected a header with a "symbol" column, ${found}; name the columns in the first line, e.g. sample,time_ms,symbol,aux`)
  if (!POSITION_FIELDS.some((f) => columns.has(f))) throw sidecarError(file, line, 'sample', `expected a header with a "sample", "time_ms" or "time_s" column, ${found}; add one of them`)
  return columns
}
