// Sliding windows over a multi-lead sample stream (pure, typed arrays). Samples arrive in blocks
// of any length; a window of `length` samples is emitted every `step` samples (step < length:
// overlapping windows; step > length: samples between windows are skipped). Memory is one
// window per lead, whatever the stream's length.

export interface WindowOut {
  startSample: number
  samples: Float32Array[]
}

export interface Windower {
  /** Feeds a block that starts at absolute sample `startSample`; returns the windows it completes. */
  push(leads: Float32Array[], startSample: number): WindowOut[]
  /** Drops a partly filled window (at a discontinuity) and restarts at the next sample pushed. */
  reset(): void
  /** The partly filled window at the end of the stream, if any (for `partial: true`). */
  flush(): WindowOut | null
  /** The first sample of the window being filled (Infinity when none is: the next starts with a later block). */
  openStart(): number
}

/** Creates a windower for `nLeads` leads. */
export function createWindower(nLeads: number, length: number, step: number): Windower {
  if (!(Number.isInteger(length) && length > 0 && Number.isInteger(step) && step > 0)) {
    throw new RangeError(`window length and step must be positive integers (got ${length}, ${step})`)
  }
  const buf = Array.from({ length: nLeads }, () => new Float32Array(length))
  let filled = 0
  let skip = 0
  let bufStart = -1

  return {
    push(leads, startSample) {
      const out: WindowOut[] = []
      const n = leads[0]?.length ?? 0
      let i = 0
      while (i < n) {
        if (skip > 0) {
          const k = Math.min(skip, n - i)
          skip -= k
          i += k
          continue
        }
        if (filled === 0) bufStart = startSample + i
        const k = Math.min(length - filled, n - i)
        for (let l = 0; l < nLeads; l++) buf[l].set(leads[l].subarray(i, i + k), filled)
        filled += k
        i += k
        if (filled === length) {
          out.push({ startSample: bufStart, samples: buf.map((b) => b.slice()) })
          if (step < length) {
            for (const b of buf) b.copyWithin(0, step)
            filled = length - step
            bufStart += step
          } else {
            filled = 0
            skip = step - length
          }
        }
      }
      return out
    },
    reset() {
      filled = 0
      skip = 0
    },
    openStart: () => (filled > 0 ? bufStart : Infinity),
    flush() {
      if (filled === 0) return null
      return { startSample: bufStart, samples: buf.map((b) => b.slice(0, filled)) }
    },
  }
}
