// `clean`: NeuroKit2 0.2.9 `ecg_clean(method="neurokit")` over the block stream: a
// 5th-order 0.5 Hz Butterworth high-pass run forward and backward (scipy sosfiltfilt), then the
// powerline moving average run forward and backward (scipy filtfilt), per lead. Zero phase needs
// look-ahead: see src/dsp/zero-phase.ts for the margin (21.35 s at the defaults, any fs); with
// backward chunks of 4 margins the latency is 21.3-106.8 s, plus fs/50 samples for the moving
// average; `zeroPhase: false` is the causal variant for live use (no look-ahead).
// Output blocks keep the input's startSample numbering and total length but not its block
// boundaries. Other items are held while the filters look ahead: marks of a point in the signal
// (annotation, beat, rhythm, quality) come out just before the output block that holds their
// position, as the read stage places annotations; any other item (a gap above all) comes out
// exactly where it was, between the samples before and after it. Cutting a block at every mark
// instead made one block per annotation (108,768 on the 24 h benchmark file), each paid for by
// every later stage.
// A gap, a jump in startSample, a change of fs or leads, and a non-finite sample each end the
// filter segment (scipy's edge handling) and restart it: non-finite samples come out as NaN and
// never poison the filter state for the rest of the record.
// Watermarks from upstream are held with the items: the stage passes on the lowest of the next
// sample it will output and the watermark under the oldest item it still holds.
import { defineStage } from '../core/stage.ts'
import { isPointMark, type Item, type SampleBlock } from '../core/items.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { createWatermarks } from '../core/watermark.ts'
import { cleanLead, createLeadCleaner, type CleanOptions, type SegmentFilter } from '../dsp/ecg-clean.ts'

const schema: z.ZodType<CleanOptions> = z.strictObject({
  method: z.literal('neurokit').default('neurokit'), // the only method so far
  highpassHz: z.number().positive().default(0.5),
  order: z.number().int().min(1).max(10).default(5),
  /** Mains frequency whose period sets the moving-average width. */
  powerlineHz: z.number().positive().default(50),
  /** false: causal filters (no look-ahead, phase shift) for live use. */
  zeroPhase: z.boolean().default(true),
})

export type { CleanOptions }

export default defineStage<CleanOptions>({
  name: 'clean',
  version: 2,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    let cleaners: SegmentFilter[] = []
    let queues: Float32Array[][] = [] // per lead, filtered samples not yet emitted
    let queued: number[] = []
    let [fs, labels] = [0, [] as string[]]
    let inPos = 0 // next input sample index
    let outPos = 0 // next output sample index
    const pending: { at: number; item: Item; wm: number }[] = []
    const marks = createWatermarks(ctx.recordId)
    // What may still come out lies at or after the next output sample, and at or after the
    // upstream watermark of when the oldest held item came in.
    const mark = () => marks.next(Math.min(outPos, pending.length ? pending[0].wm : Infinity))
    let boundaries = 0 // pending items that are not marks

    // Parts are fresh arrays, owned here (the causal chain's come in Float64Array).
    const enqueue = (lead: number, parts: (Float64Array | Float32Array)[]) => {
      for (const p of parts) {
        if (p.length === 0) continue
        queues[lead].push(p instanceof Float32Array ? p : new Float32Array(p))
        queued[lead] += p.length
      }
    }
    const take = (lead: number, n: number): Float32Array => {
      const q = queues[lead]
      if (q[0]?.length === n) {
        // Most blocks: one part, exactly the samples ready (one lead, or leads in step).
        queued[lead] -= n
        return q.shift()!
      }
      const y = new Float32Array(n)
      for (let o = 0; o < n; ) {
        const head = queues[lead][0]
        const k = Math.min(n - o, head.length)
        y.set(head.subarray(0, k), o)
        o += k
        if (k === head.length) queues[lead].shift()
        else queues[lead][0] = head.subarray(k)
      }
      queued[lead] -= n
      return y
    }
    // What is ready to go out, in `ready` (refilled by each call): marks before the next block, the
    // block, then an item that is not a mark once the samples before it are out. A plain function
    // filling an array, not a generator: it runs for every item, and most of the time there is
    // nothing to move.
    const ready: Item[] = []
    function drain(): Item[] {
      ready.length = 0 // the caller has yielded the last ones
      for (;;) {
        let upTo = queued.length ? Infinity : outPos
        for (const q of queued) upTo = Math.min(upTo, outPos + q)
        // A block ends at the first item that is not a mark (the filters restart at a gap).
        if (boundaries > 0) {
          for (const p of pending) {
            if (!isPointMark(p.item.kind)) {
              upTo = Math.min(upTo, p.at)
              break
            }
          }
        }
        if (upTo > outPos) {
          while (pending.length && isPointMark(pending[0].item.kind) && pending[0].at < upTo) ready.push(pending.shift()!.item)
          const n = upTo - outPos
          const block: SampleBlock = { kind: 'block', recordId: ctx.recordId, fs, startSample: outPos, labels, leads: queues.map((_, l) => take(l, n)) }
          outPos = upTo
          ready.push(block)
        }
        if (pending.length && pending[0].at <= outPos) {
          const item = pending.shift()!.item
          if (!isPointMark(item.kind)) boundaries--
          ready.push(item)
        } else return ready
      }
    }
    const flush = () => cleaners.forEach((c, l) => enqueue(l, [c.finish()]))

    for await (const item of source) {
      if (item.kind === 'watermark') {
        marks.seen(item.sample)
        const w = mark()
        if (w) yield w
        continue
      }
      if (item.kind !== 'block') {
        if (item.kind === 'gap') flush()
        if (!isPointMark(item.kind)) boundaries++
        pending.push({ at: inPos, item, wm: marks.upstream })
        // A mark behind others, or ahead of the samples out, waits: nothing can move yet.
        if (isPointMark(item.kind) && (pending.length > 1 || inPos > outPos)) continue
        for (const it of drain()) yield it
        continue
      }
      const block = item
      const n = block.leads[0]?.length ?? 0
      if (block.fs !== fs || block.leads.length !== cleaners.length || block.startSample !== inPos) {
        flush()
        for (const it of drain()) yield it // everything before is out, so the numbering can restart here
        fs = block.fs
        labels = block.labels
        cleaners = block.leads.map(() => createLeadCleaner(ctx.options, fs, 'float32'))
        queues = block.leads.map(() => [])
        queued = block.leads.map(() => 0)
        inPos = outPos = block.startSample
      }
      block.leads.forEach((x, l) => {
        const parts: (Float64Array | Float32Array)[] = []
        cleanLead(cleaners[l], x, parts)
        enqueue(l, parts)
      })
      inPos += n
      for (const it of drain()) yield it
      const w = mark()
      if (w) yield w
    }
    flush()
    for (const it of drain()) yield it
    const w = marks.next()
    if (w) yield w
  },
})
