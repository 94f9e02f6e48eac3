// Helpers for convert's tests: run convertCommand in process (stderr captured; the error, if any,
// returned rather than thrown), and compare what the read stage gives for two recordings.
import { Writable } from 'node:stream'
import { expect } from 'vitest'
import { convertCommand, type ConvertOptions } from '../../src/commands/convert.ts'
import type { AnnotationItem } from '../../src/core/items.ts'
import { PipelineError } from '../../src/core/errors.ts'

export interface Converted {
  code: number | null
  stderr: string
  error: PipelineError | null
}

/** convertCommand(input, output) with the CLI's defaults (annotator atr, no --clean). */
export async function convert(input: string, output: string, extra: Partial<ConvertOptions> = {}): Promise<Converted> {
  let stderr = ''
  const err = new Writable({
    write(chunk, _enc, cb) {
      stderr += String(chunk)
      cb()
    },
  })
  try {
    const code = await convertCommand(input, output, { annotator: 'atr', signal: new AbortController().signal, err, ...extra })
    return { code, stderr, error: null }
  } catch (error) {
    expect(error).toBeInstanceOf(PipelineError)
    return { code: null, stderr, error: error as PipelineError }
  }
}

/** What must survive a conversion: position, text and duration. */
export const noteKey = (a: AnnotationItem) => [a.sample, a.timeMs, a.symbol, a.aux, a.durationMs ?? null]

/** Largest |a[i] - b[i]| over [from, to). */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>, from = 0, to = Math.min(a.length, b.length)): number {
  let worst = 0
  for (let i = from; i < to; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]))
  return worst
}
