// Streaming parser for reference-annotation sidecars in JSON. Two layouts, told apart
// by the first character: NDJSON, one object per line as the pipeline's own outputs are
//   {"sample":77,"time_ms":213.889,"symbol":"N","aux":""}
// (objects may also span lines), or a JSON array of such objects ("[" first). Either way the
// text is scanned object by object as it arrives, so an array is never held whole and an
// error names the line where its object starts. Fields are those of a CSV row (annotation-
// row.ts), as numbers or numeric strings; null counts as absent. An empty file has no rows.
import { MAX_ROW_CHARS, parseSidecarRow, sidecarError, type SidecarParser, type SidecarRow } from './annotation-row.ts'

/** Creates a parser for the JSON/NDJSON sidecar `file` (the name is used in messages). */
export function createAnnotationJsonParser(file: string): SidecarParser {
  let line = 1
  let layout: 'unknown' | 'ndjson' | 'array' | 'closed' = 'unknown'
  let afterValue = false // in an array: a value was read, so "," or "]" comes next
  let depth = 0 // nesting inside the current object; 0 between objects
  let inString = false
  let escaped = false
  let held = '' // text of the current object from earlier chunks
  let objectLine = 0

  const finish = (text: string): SidecarRow => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (err) {
      throw sidecarError(file, objectLine, undefined, `expected a JSON object, could not parse the one starting here (${(err as Error).message}); fix its syntax`, err)
    }
    const obj = value as Record<string, unknown>
    return parseSidecarRow((name) => (Object.hasOwn(obj, name) ? obj[name] : undefined), file, objectLine)
  }
  const unexpected = (c: string): never => {
    const expected = layout === 'closed' ? 'nothing after the closing "]"' : layout === 'array' ? (afterValue ? '"," or "]"' : 'an object "{" or "]"') : 'an object "{" (one per line)'
    throw sidecarError(file, line, undefined, `expected ${expected}, found ${JSON.stringify(c)}; the file must be NDJSON (one annotation object per line) or a JSON array of annotation objects`)
  }

  return {
    push(text) {
      const out: SidecarRow[] = []
      let start = 0 // where the current object starts in `text`, while depth > 0
      for (let i = 0; i < text.length; i++) {
        const c = text[i]
        if (c === '\n') line++
        if (depth > 0) {
          if (inString) {
            if (escaped) escaped = false
            else if (c === '\\') escaped = true
            else if (c === '"') inString = false
          } else if (c === '"') inString = true
          else if (c === '{' || c === '[') depth++
          else if ((c === '}' || c === ']') && --depth === 0) {
            out.push(finish(held + text.slice(start, i + 1)))
            held = ''
          }
          continue
        }
        if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || (c === '\uFEFF' && layout === 'unknown')) continue
        if (layout === 'unknown') {
          layout = c === '[' ? 'array' : 'ndjson'
          if (layout === 'array') continue
        }
        if (c === '{' && (layout === 'ndjson' || (layout === 'array' && !afterValue))) {
          depth = 1
          start = i
          objectLine = line
          afterValue = true
        } else if (layout === 'array' && c === ',' && afterValue) afterValue = false
        else if (layout === 'array' && c === ']') layout = 'closed'
        else unexpected(c)
      }
      if (depth > 0) {
        held += text.slice(start)
        if (held.length > MAX_ROW_CHARS) throw sidecarError(file, objectLine, undefined, `expected annotation objects of at most ${MAX_ROW_CHARS} characters, found a longer one (is a closing "}" missing?); fix the object`)
      }
      return out
    },
    end() {
      if (depth > 0) throw sidecarError(file, objectLine, undefined, 'expected the object starting here to close with "}", found the end of the file; complete or remove it')
      if (layout === 'array') throw sidecarError(file, line, undefined, 'expected the array to close with "]", found the end of the file; complete the file')
      return []
    },
  }
}
