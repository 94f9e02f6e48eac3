// Streaming beat classifier into AAMI EC57 classes: N, S, V and Q (F is never called:
// fusion beats fall to N or V, which EC57 does not count against VEB). Each beat is seen on a
// 250 Hz grid with its own baseline removed (beat-window.ts), measured (beat-features.ts: QRS
// span, amplitude, noise) and matched against running templates in the manner of Hamilton's
// OSEA (beat-templates.ts: the dominant, i.e. normally conducted, template is the narrowest well
// supported one); the rules (beat-rules.ts) then follow the clinical criteria that inter-patient
// classifiers such as de Chazal et al. (IEEE TBME 51(7), 2004) learn from RR and QRS features:
//   Q  no usable waveform (invalid samples, gap, edge), a flat or noisy beat, or an artifact
//      (earlier than half the normal RR and unlike the normal beat);
//   V  wider than the dominant beat (QRS span >= 1.8x and +30 ms) and unlike it (correlation
//      < 0.8) with at least 0.5x its amplitude, plus one more sign: correlation < 0.6, premature
//      or followed by a pause, or at least its amplitude; or moderately wider (1.4x, +20 ms),
//      unlike it (< 0.7) and premature or followed by a pause;
//   S  after a supraventricular beat, earlier than 0.8x the normal RR with the normal shape, in
//      a regular rhythm (not in atrial fibrillation: beat-rhythm.ts);
//   N  everything else.
// The normal RR follows the intervals between supraventricular beats (a post-PVC pause is not
// the rhythm; beat-rhythm.ts). A label is final once the beat's window (to 450 ms after it) has
// been pushed and the next beat is registered (its RR after, for the pause), or at a gap or
// finish. Templates and RR state are updated beat by beat in order, and windows depend on
// samples only, so any blocking gives the same labels. Memory: the last block (read in place),
// a 10 s ring buffer before it, 8 templates, and the few beats still pending.
// Speed (a day holds about 110,000 beats and 20-30 M samples): per sample, only the block's
// copy into the ring (TypedArray.set); per beat, only the samples around it are read, and no
// buffer is allocated (pending beats and their window buffers are recycled): most of the time
// goes to matching the templates (beat-features.ts).
import { type BeatShape, measureShape } from './beat-features.ts'
import { type BeatLabel, isUnclassifiable, labelBeat } from './beat-rules.ts'
import { createRhythmTracker } from './beat-rhythm.ts'
import { createTemplateSet } from './beat-templates.ts'
import { createBeatWindower, WINDOW_LEN } from './beat-window.ts'
import { LATE_SEC } from './qrs-detector.ts'

export type { BeatLabel }

export interface BeatClassifierOptions {
  /** Sampling rate, Hz. */
  fs: number
}

export interface ClassifiedBeat {
  /** The beat's sample as registered. */
  sample: number
  label: BeatLabel
  /** RR interval before this beat, ms (null for the first beat and the first after a gap). */
  rrMs: number | null
  /** QRS span (central 80 % of the slope energy, beat-features.ts), ms; null without a waveform. */
  qrsSpanMs: number | null
  /** Correlation with the dominant (normal) template, 3 decimals; null without a waveform. */
  templateCorr: number | null
}

export interface BeatClassifier {
  /**
   * Feeds samples (one lead, mV, NaN = invalid) starting at absolute index startSample; blocks in order, no overlap; a jump in startSample is a gap.
   * The block is read in place until the next push (do not refill its buffer before then).
   */
  push(samples: Float32Array, startSample: number): ClassifiedBeat[]
  /** Registers a detected beat (increasing order; its sample lies within what has been pushed). Returns the beats whose labels became final, in order. */
  beat(sample: number): ClassifiedBeat[]
  /** End of stream: returns all remaining beats, labelled. */
  finish(): ClassifiedBeat[]
  /** Every beat still to come from it lies at or after this sample (Infinity when none is held). */
  settled(): number
}

interface Pending {
  sample: number
  /** RR before and after, samples (null: unknown). */
  rrPre: number | null
  rrPost: number | null
  /** The next beat (or a gap, or the end) is known, so rrPost is final. */
  closed: boolean
  /** 'waiting' until the window is complete, 'missing' when it cannot be had, else 'ready'. */
  window: 'waiting' | 'missing' | 'ready'
  /** The beat's window and features once ready; its wave buffer is reused for later beats. */
  shape: BeatShape
}

// Seconds of signal kept: the detector confirms a beat up to ~1.66 mean RR (+0.3 s) after it,
// which stays well under this even at 30 bpm, and never later than this (qrs-detector.ts). A
// beat whose successor, if any, must lie more than this after it is closed then (push): its RR
// after is at least this long, a pause whatever the next beat turns out to be, so its label is
// the same, and it does not wait for the signal to come back (a lead off for an hour).
const RING_SEC = LATE_SEC

/** Creates a streaming beat classifier; see the file header for the method. */
export function createBeatClassifier(options: BeatClassifierOptions): BeatClassifier {
  const { fs } = options
  if (!(fs >= 50 && fs <= 10_000)) throw new RangeError(`beat classifier: fs must be between 50 and 10000 Hz, found ${fs}`)
  const windower = createBeatWindower(fs)
  const { before, after } = windower
  let size = 1
  while (size < RING_SEC * fs) size *= 2
  const mask = size - 1
  const closeAfter = Math.round(RING_SEC * fs)
  const ring = new Float32Array(size)
  let first = -1 // first sample ever pushed
  let next = -1 // next expected sample
  let block: Float32Array | null = null // the last block, copied into the ring at the next push
  let blockStart = 0
  let lastBeat = -1
  let lastGap = -1 // first sample after the latest gap
  const pending: Pending[] = []
  const spare: Pending[] = [] // finalized, to be reused
  const templates = createTemplateSet()
  const rhythm = createRhythmTracker()

  // Extracts the window of the beat at `beat` into `shape` (windower.extractShape); false when
  // one of its samples is not available. The last block is read in place (by the JavaScript
  // windower; the WebAssembly one copies the window into its memory either way); the ring holds the
  // RING_SEC before it, so a beat confirmed late still finds its window whatever the block size.
  // A window inside the block or inside the ring (not across its wrap) is read where it lies; one
  // across the block's start or the wrap is first copied into the windower's input.
  function extractWindow(beat: number, shape: BeatShape): boolean {
    const lo = beat - before
    const end = beat + after + 1
    if (lo < first || end > next || lo < blockStart - size) return false
    if (lo >= blockStart) return windower.extractShape(block!, lo - blockStart, shape)
    if (end <= blockStart && (lo & mask) + (end - lo) <= size) return windower.extractShape(ring, lo & mask, shape)
    const input = windower.input
    const split = Math.min(end, blockStart)
    let k = 0
    for (let n = lo; n < split; n++) input[k++] = ring[n & mask]
    for (let n = Math.max(lo, blockStart); n < end; n++) input[k++] = block![n - blockStart]
    return windower.extractShape(input, 0, shape)
  }

  function extractReady(ending: boolean): void {
    for (const p of pending) {
      if (p.window !== 'waiting') continue
      if (p.sample + after >= next && !ending) break
      if (p.sample + after < next && extractWindow(p.sample, p.shape)) {
        p.window = 'ready'
        // The WebAssembly windower measured the shape beside the window (same bits).
        if (!windower.measures) measureShape(p.shape)
      } else p.window = 'missing'
    }
  }

  const toMs = (n: number | null) => (n === null ? null : (n * 1000) / fs)

  function classify(p: Pending): ClassifiedBeat {
    const rrPre = toMs(p.rrPre)
    const rrPost = toMs(p.rrPost)
    const onTime = rhythm.onTime(rrPre)
    const prev = rrPre === null ? null : rhythm.previous()
    const out: ClassifiedBeat = { sample: p.sample, label: 'Q', rrMs: rrPre === null ? null : Math.round(rrPre), qrsSpanMs: null, templateCorr: null }
    if (p.window !== 'ready') return out
    const shape = p.shape
    out.qrsSpanMs = Math.round(shape.spanMs)
    if (isUnclassifiable(shape)) return out
    templates.assign(shape, onTime)
    const dom = templates.dominant()!
    const corr = templates.matchDominant(shape).corr
    out.templateCorr = Math.round(corr * 1000) / 1000
    out.label = labelBeat({
      spanMs: shape.spanMs, domSpanMs: dom.spanMs, corr, gain: dom.ptp > 0 ? shape.ptp / dom.ptp : 0,
      rrPre, rrPost, rrRef: rhythm.normalRr(), irregularity: rhythm.irregularity(), afterSupraventricular: prev === 'N' || prev === 'S',
    })
    return out
  }

  function finalize(): ClassifiedBeat[] {
    const out: ClassifiedBeat[] = []
    while (pending.length > 0 && pending[0].closed && pending[0].window !== 'waiting') {
      const p = pending.shift()!
      const b = classify(p)
      rhythm.add(b.label, toMs(p.rrPre))
      out.push(b)
      spare.push(p)
    }
    return out
  }

  // Copies the last block's final `size` samples into the ring, in at most two pieces.
  function keepBlock(b: Float32Array): void {
    for (let k = Math.max(0, b.length - size); k < b.length; ) {
      const at = (blockStart + k) & mask
      const m = Math.min(b.length - k, size - at)
      ring.set(b.subarray(k, k + m), at)
      k += m
    }
  }

  return {
    push(samples, startSample) {
      if (next >= 0 && startSample < next) {
        throw new RangeError(`beat classifier: block starts at sample ${startSample} but sample ${next} was expected; push blocks in order without overlap`)
      }
      if (first < 0) first = next = startSample
      if (block !== null) keepBlock(block)
      if (startSample > next) {
        for (let n = Math.max(next, startSample - size); n < startSample; n++) ring[n & mask] = NaN
        lastGap = startSample
        const last = pending[pending.length - 1]
        if (last !== undefined) last.closed = true
      }
      block = samples
      blockStart = startSample
      next = startSample + samples.length
      // The detector has seen everything before this block, and finds a beat at most LATE_SEC
      // after it: a successor still to come lies at or after startSample - LATE_SEC. Once that is
      // LATE_SEC past the last beat, its RR after is at least that long: a pause, whatever it is.
      const last = pending[pending.length - 1]
      if (last !== undefined && !last.closed && startSample - closeAfter - last.sample > closeAfter) {
        // Longer than LATE_SEC: a pause whatever the exact value, and Infinity does not depend on
        // where the blocks happen to end.
        last.rrPost = Infinity
        last.closed = true
      }
      extractReady(false)
      return finalize()
    },
    beat(sample) {
      if (!(sample > lastBeat) || !(sample < next)) {
        throw new RangeError(`beat classifier: beat at sample ${sample} must follow the previous one (${lastBeat}) and lie within the pushed samples (before ${next})`)
      }
      const rrPre = lastBeat >= 0 && !(lastGap > lastBeat && lastGap <= sample) ? sample - lastBeat : null
      const prev = pending[pending.length - 1]
      if (prev !== undefined && !prev.closed) {
        prev.rrPost = rrPre
        prev.closed = true
      }
      const p = spare.pop() ?? { sample, rrPre, rrPost: null, closed: false, window: 'waiting', shape: { wave: new Float64Array(WINDOW_LEN), spanMs: 0, ptp: 0, baselinePtp: 0, noise: 0 } }
      p.sample = sample
      p.rrPre = rrPre
      p.rrPost = null
      p.closed = false
      p.window = 'waiting'
      pending.push(p)
      lastBeat = sample
      extractReady(false)
      return finalize()
    },
    settled: () => pending[0]?.sample ?? Infinity,
    finish() {
      extractReady(true)
      for (const p of pending) p.closed = true
      return finalize()
    },
  }
}
