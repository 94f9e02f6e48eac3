// Streaming QRS detector after Pan & Tompkins, "A real-time QRS detection algorithm", IEEE TBME
// 32(3):230-236, 1985: peaks of the integrated energy (qrs-front-end.ts) are QRS when above
// THR1 = NPK + 0.25 (SPK - NPK) (running signal and noise peak estimates), past a 200 ms
// refractory period, and not T waves (within 360 ms of the last QRS with under half its steepest
// slope). After 1.66 mean RR without a QRS, the largest peak since the last one above THR2 =
// THR1 / 2 is taken (search-back). Thresholds start from the first 2 s (learning phase).
// Additions, for 24 h recordings with artifacts: one peak may lift SPK to at most 3x its value
// and noise peaks count at most as SPK (a spike cannot silence the detector); search-back also
// applies the T-wave test, and waits while a peak above THR1 is still rising (else, at high
// rates, it takes a T wave just before the next beat); when it finds nothing after >= 1 s, SPK
// and NPK are halved (recovery from a sudden amplitude drop). Beats are placed on the raw signal
// (qrs-refine.ts). Every decision is taken at the same sample as a sample-by-sample run would
// take it, with the state carried across blocks, so any blocking gives the same beats; a beat is
// confirmed ~0.1-0.3 s after it (up to 1.66 RR by search-back), never more than LATE_SEC after
// it: search-back forgets peaks older than that (settled() says how far beats are final, for the
// detect stage's watermark). Memory is bounded (the block
// plus 1.7-2.9 s of history, a power of two of samples: 2.00 s at 128 Hz, 2.05 s at 250, 1.71 s
// at 300, 2.84 s at 360, 2.05 s at 500 and 1000 Hz; and at most 64 pending peaks).
import { createQrsFrontEnd, type QrsKernel } from './qrs-front-end.ts'
import { PICK_AT, PICK_H, PICK_PEAK, PICK_PREV, PICK_UP } from './qrs-peaks.ts'
import { createQrsPlacer, type QrsPeak } from './qrs-refine.ts'

export interface QrsDetectorOptions {
  /** Sampling rate, Hz. */
  fs: number
  /** Refractory period, ms (Pan-Tompkins: 200). */
  refractoryMs?: number
  /** Learning phase before the first decision, ms (Pan-Tompkins: 2 s). */
  learnMs?: number
  /** The front end's kernel (tests and benchmarks): WebAssembly where available (default), or JavaScript. */
  kernel?: QrsKernel
}

export interface QrsDetector {
  /** Feeds the samples starting at absolute index startSample; returns the beats confirmed by this call. */
  push(samples: Float32Array, startSample: number): number[]
  /** Ends the stream; returns the beats still pending. */
  finish(): number[]
  /** Every beat still to come from push() or finish() lies at or after this sample (-Infinity before the first push). */
  settled(): number
}

// Peaks since the last QRS kept for search-back (within 1.66 RR there are rarely a few).
const MAX_PENDING = 64
// How far one peak may lift the signal estimate, relative to it (see the header).
const CLAMP = 3
// The latest a beat is found after its sample, in seconds: the beat classifier keeps this much
// signal for its window (a beat found later could only be labelled Q), and the watermark of the
// detect stage follows the signal by about this much.
export const LATE_SEC = 10

/** Creates a streaming QRS detector; see the file header for the algorithm. */
export function createQrsDetector(options: QrsDetectorOptions): QrsDetector {
  const { fs } = options
  if (!(fs >= 50 && fs <= 10_000)) throw new RangeError(`QRS detector: fs must be between 50 and 10000 Hz, found ${fs}`)
  const front = createQrsFrontEnd(fs, options.kernel)
  const refractory = Math.round(((options.refractoryMs ?? 200) * fs) / 1000)
  const learnLen = Math.round(((options.learnMs ?? 2000) * fs) / 1000)
  const tWave = Math.round(0.36 * fs)
  const stuckLen = fs // 1 s: below 60 bpm the 1.66 RR window alone decides
  const lateLen = Math.round(LATE_SEC * fs)
  const placer = createQrsPlacer(fs, front.delay, front.mwiWidth)
  let next = -1 // absolute index of the next expected sample
  let segStart = 0 // first sample after the last start or gap
  const edge = Math.round(0.05 * fs)
  let learning = true
  let learnMax = 0, learnSum = 0 // energy statistics of the learning phase
  const learned: QrsPeak[] = []
  let spk = 0, npk = 0 // signal and noise peak estimates
  let lastR = -Infinity, lastSlope = 0 // the last QRS
  let silentUntil = Infinity // sample after which the search-back runs
  const rr = new Float64Array(8) // last 8 RR intervals (RR average 1 of the paper)
  let rrCount = 0, rrSum = 0
  let pending: QrsPeak[] = []
  let out: number[] = []
  // The peak picker on the integrated energy (qrs-peaks.ts) runs inside the front end; it starts on a rising edge.
  front.pick[PICK_UP] = 1
  // The front end's raw and band-passed buffers of the last block, and the sample of their index 0.
  let raw: Float32Array = new Float32Array(0)
  let bp: Float64Array = new Float64Array(0)
  let base = 0

  const thr1 = () => npk + 0.25 * (spk - npk)
  const rrMean = () => (rrCount > 0 ? rrSum / Math.min(rrCount, rr.length) : fs)

  function accept(p: QrsPeak, weight: number): void {
    spk = weight * (spk > 0 ? Math.min(p.height, CLAMP * spk) : p.height) + (1 - weight) * spk
    if (lastR > -Infinity) {
      const interval = p.at - lastR
      const slot = rrCount % rr.length
      rrSum += interval - (rrCount >= rr.length ? rr[slot] : 0)
      rr[slot] = interval
      rrCount++
    }
    lastR = p.at
    silentUntil = p.at + 1.66 * rrMean()
    lastSlope = p.slope
    out.push(p.at)
  }

  // Pan-Tompkins T-wave test: soon after a QRS and with less than half its steepest slope.
  function isTWave(p: QrsPeak): boolean {
    return p.at - lastR < tWave && p.slope < 0.5 * lastSlope
  }

  function classify(p: QrsPeak): void {
    const since = p.at - lastR
    if (p.height > thr1() && since > refractory && !isTWave(p)) {
      accept(p, 0.125)
      pending = pending.filter((q) => q.at - p.at > refractory)
      return
    }
    npk = 0.125 * (spk > 0 ? Math.min(p.height, spk) : p.height) + 0.875 * npk
    if (since > refractory) {
      if (pending.length === MAX_PENDING) pending.shift()
      pending.push(p)
    }
  }

  // Search-back: the largest pending peak above THR2 becomes a QRS (signal estimate moves faster).
  function searchBack(): void {
    const thr2 = 0.5 * thr1()
    let best = -1
    for (let i = 0; i < pending.length; i++) {
      const q = pending[i]
      if (q.height > thr2 && q.at - lastR > refractory && !isTWave(q) && (best < 0 || q.height > pending[best].height)) best = i
    }
    if (best < 0) return
    const p = pending[best]
    pending = pending.slice(best + 1).filter((q) => q.at - p.at > refractory)
    accept(p, 0.25)
  }

  function take(): number[] {
    const found = out
    out = []
    return found
  }

  function onPeak(p: QrsPeak): void {
    // The filters' start-up transient peaks in the first 50 ms of a segment; a real R peak that
    // close to the start has its QRS cut off anyway. Without this, a record shorter than the
    // learning phase (2 s) could report its transient as a beat.
    if (p.at - segStart < edge) return
    if (learning) learned.push(p)
    else classify(p)
  }

  // Pan-Tompkins initial estimates: SPK a third of the maximal energy, NPK half its mean.
  function endLearning(): void {
    learning = false
    silentUntil = next + 1.66 * rrMean()
    spk = learnMax / 3
    npk = next > segStart ? learnSum / (next - segStart) / 2 : 0
    for (const p of learned) classify(p)
    learned.length = 0
  }

  function learn(n: number, e: number): void {
    learnMax = Math.max(learnMax, e)
    learnSum += e
    if (n - segStart + 1 >= learnLen) endLearning()
  }

  // Search-back is due at sample n; if it finds nothing, the estimates are probably stuck high: halve them.
  function silence(n: number): void {
    while (pending.length && pending[0].at < n - lateLen) pending.shift()
    const before = lastR
    searchBack()
    if (lastR === before && n - lastR > stuckLen) {
      spk *= 0.5
      npk *= 0.5
      searchBack()
    }
    silentUntil = n + 1.66 * rrMean()
  }

  return {
    push(samples, startSample) {
      if (next >= 0 && startSample < next) {
        throw new RangeError(`QRS detector: block starts at sample ${startSample} but sample ${next} was expected; push blocks in order without overlap`)
      }
      if (next < 0 || startSample > next) {
        // First block, or a gap: the filters restart; thresholds and RR history carry over. A
        // learning phase cut by a gap starts again on the signal after it (what it learned would
        // otherwise come out as beats long after their time).
        if (next >= 0) front.reset()
        if (next >= 0 && learning) {
          learned.length = 0
          learnMax = learnSum = 0
        }
        segStart = startSample
        front.pick[PICK_UP] = 1
        front.pick[PICK_H] = 0
      }
      const fe = front.load(samples, placer.history)
      raw = fe.raw
      bp = fe.bp
      base = startSample - placer.history
      const pick = front.pick
      // The front end stops at each peak and at `until`, the sample after which the slow path runs:
      // every sample while learning, else the search-back time (re-read after every call that
      // may move it). stop(k) is one past the first sample from k on that is past `until`.
      let until = learning ? -1 : silentUntil
      const len = samples.length
      const stop = (k: number) => Math.min(len, Math.max(k, Math.floor(until) - startSample + 1) + 1)
      for (let k = 0; k < len; k++) {
        k = front.scan(k, stop(k), startSample)
        const n = startSample + k
        next = n + 1
        if (pick[PICK_PEAK] !== 0) {
          onPeak(placer.place(raw, bp, base, pick[PICK_AT], pick[PICK_H], segStart, n))
          until = learning ? -1 : silentUntil
        }
        if (n > until) {
          if (learning) learn(n, pick[PICK_PREV])
          else if (!(pick[PICK_UP] !== 0 && pick[PICK_H] > thr1())) silence(n)
          until = learning ? -1 : silentUntil
        }
      }
      if (len > 0) next = startSample + len // an empty block leaves the expected sample as it was
      return take()
    },
    settled() {
      if (next < 0) return -Infinity
      let low = next - placer.history
      for (const p of learning ? learned : pending) {
        if (p.at >= next - lateLen) {
          low = Math.min(low, p.at)
          break
        }
      }
      return low
    },
    finish() {
      const pick = front.pick
      if (pick[PICK_UP] !== 0 && pick[PICK_H] > 0) onPeak(placer.place(raw, bp, base, pick[PICK_AT], pick[PICK_H], segStart, next - 1))
      if (learning) endLearning()
      return take()
    },
  }
}
