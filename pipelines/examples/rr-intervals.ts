// An example custom stage (TypeScript): RR intervals from the reference beat annotations.
// It passes every item through and adds one `rr` item per beat after the first, so the run
// writes rr.ndjson beside the other outputs. Use it from a dataset file by path:
//   stages: [read, { use: ./examples/rr-intervals.ts, options: { maxRrMs: 3000 } }]
import { defineStage, PipelineError, type AnnotationItem } from 'holter-pipeline'

// MIT beat mnemonics (WFDB isqrs); rhythm, noise and comment marks are not beats.
const BEATS = new Set(['N', 'L', 'R', 'a', 'V', 'F', 'J', 'A', 'S', 'E', 'j', '/', 'Q', 'B', '?', '!', 'e', 'n', 'r'])

interface RrOptions {
  /** Intervals longer than this are gaps in the annotation, not RR intervals. */
  maxRrMs: number
}

export default defineStage<RrOptions>({
  name: 'rr-intervals',
  version: 1,
  parseOptions(raw, where) {
    const opts = { maxRrMs: 3000, ...(raw as Partial<RrOptions>) }
    if (typeof opts.maxRrMs !== 'number' || !(opts.maxRrMs > 0)) {
      throw new PipelineError('E_CONFIG_VALUE', `maxRrMs must be a positive number of milliseconds, found ${JSON.stringify(opts.maxRrMs)}`, { file: where.file, yamlPath: `${where.yamlPath}.maxRrMs`, line: where.lineOf?.(['maxRrMs']) ?? where.line })
    }
    return opts
  },
  async *transform(source, ctx) {
    let previous: AnnotationItem | null = null
    for await (const item of source) {
      yield item
      if (item.kind !== 'annotation') continue // narrows item to AnnotationItem
      const beat = item
      if (!BEATS.has(beat.symbol)) continue
      if (previous) {
        const rrMs = Math.round((beat.timeMs - previous.timeMs) * 1000) / 1000
        if (rrMs <= ctx.options.maxRrMs) {
          yield { kind: 'rr', recordId: ctx.recordId, sample: beat.sample, timeMs: beat.timeMs, rrMs, fromSymbol: previous.symbol, toSymbol: beat.symbol }
        }
      }
      previous = beat
    }
  },
})
