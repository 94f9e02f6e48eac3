// `clean`: NeuroKit2 0.2.9 `ecg_clean(method="neurokit")` over the block stream (issue 3): a
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
import { defineStage } from '../core/stage.ts'
import { isPointMark, type Item, type SampleBlock } from '../core/items.ts'
import { PipelineError } from '../core/errors.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { designButterworth, type Sos } from '../dsp/butterworth.ts'
import { createSosFilter, type LinearFilter } from '../dsp/sos-filter.ts'
import { createMovingAverage, createZeroPhaseMovingAverage, powerlineWidth } from '../dsp/moving-average.ts'
import { createZeroPhase, decayMargin } from '../dsp/zero-phase.ts'
import { concatSamples } from '../dsp/concat-samples.ts'

const schema = z.strictObject({
  method: z.literal('neurokit').default('neurokit'), // the only method so far
  highpassHz: z.number().positive().default(0.5),
  order: z.number().int().min(1).max(10).default(5),
  /** Mains frequency whose period sets the moving-average width. */
  powerlineHz: z.number().positive().default(50),
  /** false: causal filters (no look-ahead, phase shift) for live use. */
  zeroPhase: z.boolean().default(true),
})

export type CleanOptions = z.infer<typeof schema>


/** A filter over one contiguous segment of one lead; `finish` flushes and makes it ready to restart. */
export interface SegmentFilter {
  /**
   * Feeds samples (copied, not kept); returns the outputs that are final. createLeadCleaner's
   * chain returns fresh arrays; the high-pass inside it reuses one buffer (zero-phase.ts,
   * reuseOutput), which the moving average after it copies at once.
   */
  push(x: Float64Array | Float32Array): Float64Array | Float32Array
  finish(): Float64Array | Float32Array
  held(): number
  maxHeld: number
}

// scipy sosfiltfilt's default padlen: 3 * (2*sections + 1 - min(#b2 == 0, #a2 == 0)).
function sosPadlen(sos: Sos): number {
  const b2 = sos.filter((s) => s[2] === 0).length
  const a2 = sos.filter((s) => s[5] === 0).length
  return 3 * (2 * sos.length + 1 - Math.min(b2, a2))
}

// Causal use of a LinearFilter; starts from the steady state of the segment's first sample.
function causal(filter: LinearFilter): SegmentFilter {
  const state = new Float64Array(filter.stateSize)
  let started = false
  return {
    maxHeld: 0,
    held: () => 0,
    push(x) {
      if (!started && x.length > 0) filter.steady(state, x[0])
      started ||= x.length > 0
      const y = new Float64Array(x.length)
      y.set(x)
      filter.run(state, y, y, 0, x.length, 1)
      return y
    },
    finish() {
      started = false
      return new Float64Array(0)
    },
  }
}

function chain(a: SegmentFilter, b: SegmentFilter): SegmentFilter {
  return {
    maxHeld: a.maxHeld + b.maxHeld,
    held: () => a.held() + b.held(),
    push: (x) => b.push(a.push(x)),
    finish() {
      const head = b.push(a.finish())
      return concatSamples([head, b.finish()], (n) => (head instanceof Float32Array ? new Float32Array(n) : new Float64Array(n)))
    },
  }
}

/**
 * The per-lead filter chain for `options` at sampling rate `fs` (exported for tests of its memory
 * bound). `output: 'float32'`: the zero-phase chain's outputs come as Float32Array, the blocks'
 * sample type, rounded from the same doubles (the stage hands them on without another copy).
 */
export function createLeadCleaner(options: CleanOptions, fs: number, output: 'float64' | 'float32' = 'float64'): SegmentFilter {
  let sos: Sos
  try {
    sos = designButterworth({ order: options.order, cutoffHz: options.highpassHz, fs, type: 'highpass' })
  } catch (err) {
    throw new PipelineError('E_CONFIG_VALUE', `clean: cannot design a ${options.highpassHz} Hz high-pass at ${fs} Hz: ${(err as Error).message}; lower highpassHz below fs/2`, { field: 'highpassHz' }, { cause: err })
  }
  const hp = createSosFilter(sos)
  const margin = decayMargin(sos)
  const width = powerlineWidth(fs, options.powerlineHz)
  if (!options.zeroPhase) return chain(causal(hp), causal(createMovingAverage(width)))
  return chain(
    // The backward pass also runs over the margin of every chunk: chunks of 4 margins make that
    // 1.25 passes per sample instead of 2 (bench/dsp-kernels.ts), for 0.3 MB more per lead.
    // The moving average takes each output at once, so the high-pass may reuse its buffer.
    createZeroPhase({ filter: hp, padlen: sosPadlen(sos), margin, chunk: 4 * margin, reuseOutput: true }),
    // Both passes of the moving average in one (an FIR needs width-1 samples of look-ahead).
    output === 'float32' ? createZeroPhaseMovingAverage(width, { float32: true }) : createZeroPhaseMovingAverage(width),
  )
}

/**
 * The end of the run of finite samples of x from i. Eight at a time while their sum is finite (in
 * double a sum of eight float32 values cannot overflow, so it is finite exactly when each value
 * is), then sample by sample from the first eight that fail: the result never depends on the sum.
 * About half the time of testing each sample (a microbenchmark; the scan covers every sample).
 */
export function finiteRunEnd(x: Float32Array, i: number): number {
  const n = x.length
  let j = i
  for (; j + 8 <= n; j += 8) {
    const s = x[j] + x[j + 1] + x[j + 2] + x[j + 3] + x[j + 4] + x[j + 5] + x[j + 6] + x[j + 7]
    if (s - s !== 0) break
  }
  while (j < n && Number.isFinite(x[j])) j++
  return j
}

/** Splits at non-finite samples: the segment before is finished, the bad samples come out as NaN. */
function cleanLead(f: SegmentFilter, x: Float32Array, out: (Float64Array | Float32Array)[]): void {
  let i = 0
  while (i < x.length) {
    // The filters take the Float32 view as it is (they copy what they keep).
    const j = finiteRunEnd(x, i)
    if (j > i) out.push(f.push(x.subarray(i, j)))
    if (j === x.length) break
    out.push(f.finish())
    let k = j
    while (k < x.length && !Number.isFinite(x[k])) k++
    out.push(new Float32Array(k - j).fill(NaN))
    i = k
  }
}

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
    const pending: { at: number; item: Item }[] = []
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

    for await (const item of source as AsyncIterable<Item>) {
      if (item.kind !== 'block') {
        if (item.kind === 'gap') flush()
        if (!isPointMark(item.kind)) boundaries++
        pending.push({ at: inPos, item })
        // A mark behind others, or ahead of the samples out, waits: nothing can move yet.
        if (isPointMark(item.kind) && (pending.length > 1 || inPos > outPos)) continue
        for (const it of drain()) yield it
        continue
      }
      const block = item as SampleBlock
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
    }
    flush()
    for (const it of drain()) yield it
  },
})
