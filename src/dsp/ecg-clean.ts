// The per-lead filter chain of the `clean` stage: NeuroKit2 0.2.9 `ecg_clean(method="neurokit")`
// as a streaming filter over one contiguous segment of one lead, a 5th-order 0.5 Hz Butterworth
// high-pass run forward and backward (scipy sosfiltfilt), then the powerline moving average run
// forward and backward (scipy filtfilt); `zeroPhase: false` gives the causal variant (no
// look-ahead). Zero phase needs look-ahead: see zero-phase.ts for the margin. The stage
// (src/stages/clean.ts) splits each lead at non-finite samples (cleanLead) and restarts the
// chain at gaps, jumps and rate changes.
import { PipelineError } from '../core/errors.ts'
import { designButterworth, type Sos } from './butterworth.ts'
import { createSosFilter, type LinearFilter } from './sos-filter.ts'
import { createMovingAverage, createZeroPhaseMovingAverage, powerlineWidth } from './moving-average.ts'
import { createZeroPhase, decayMargin } from './zero-phase.ts'
import { concatSamples } from './concat-samples.ts'

/** The clean stage's filter settings. */
export interface CleanOptions {
  method: 'neurokit'
  highpassHz: number
  order: number
  /** Mains frequency whose period sets the moving-average width. */
  powerlineHz: number
  /** false: causal filters (no look-ahead, phase shift) for live use. */
  zeroPhase: boolean
}

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
    // 1.25 passes per sample instead of 2, for 3 margins more held per lead.
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
 * One test per eight samples on the usual path: the scan covers every sample of the record.
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
export function cleanLead(f: SegmentFilter, x: Float32Array, out: (Float64Array | Float32Array)[]): void {
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
