// Shared by the CSV and JSON sidecar parser tests: feeding a parser in pieces, and expected rows.
import type { SidecarParser, SidecarRow } from '../../src/formats/annotation-row.ts'

/** The rows `parser` gives for `text` pushed in pieces of `size` characters (whole when omitted). */
export function parseInPieces(parser: SidecarParser, text: string, size = text.length || 1): SidecarRow[] {
  const out: SidecarRow[] = []
  for (let i = 0; i < text.length; i += size) out.push(...parser.push(text.slice(i, i + size)))
  return [...out, ...parser.end()]
}

export const row = (line: number, sample: number | null, timeMs: number | null, symbol: string, aux = ''): SidecarRow => ({ line, sample, timeMs, symbol, aux })
