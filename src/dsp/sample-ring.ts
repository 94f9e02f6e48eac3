// The last few tens of seconds of a record's samples, per lead, for renders that are cut around
// events rather than from the segment stage's windows (render-events.ts). Fixed capacity: the
// oldest samples are overwritten, so memory does not grow with the record.
import type { SampleBlock } from '../core/items.ts'

export interface SampleRing {
  push(block: SampleBlock): void
  /** Samples [from, to) of each lead; NaN where they are not (or no longer) held. */
  slice(from: number, to: number): Float32Array[]
  /** One past the last sample pushed. */
  readonly end: number
  readonly capacity: number
  /** A ring of `capacity` samples holding what this one holds. */
  grown(capacity: number): SampleRing
}

/** A ring of `capacity` samples per lead. */
export function createSampleRing(capacity: number): SampleRing {
  /** Samples [sample, sample + count) of the record as at most two runs of ring positions (count <= capacity). */
  const forRing = (sample: number, count: number, run: (at: number, len: number, done: number) => void) => {
    const at = sample % capacity
    const first = Math.min(count, capacity - at)
    if (first > 0) run(at, first, 0)
    if (count > first) run(0, count - first, first)
  }
  let leads: Float32Array[] = []
  let end = 0
  return {
    get end() {
      return end
    },
    capacity,
    grown(bigger) {
      const next = createSampleRing(bigger)
      const from = Math.max(0, end - capacity)
      if (leads.length) next.push({ kind: 'block', recordId: '', fs: 0, labels: [], startSample: from, leads: this.slice(from, end) })
      return next
    },
    push(block) {
      const n = block.leads[0]?.length ?? 0
      if (leads.length !== block.leads.length) leads = block.leads.map(() => new Float32Array(capacity).fill(NaN))
      // A jump in sample numbers (a first block not at 0, a missing stretch) leaves NaN between.
      if (block.startSample > end) {
        const gap = Math.min(block.startSample, end + capacity) - end
        for (const r of leads) forRing(end, gap, (at, len) => r.fill(NaN, at, at + len))
      }
      const skip = Math.max(0, n - capacity) // a block longer than the ring: its last samples
      block.leads.forEach((x, l) => {
        const r = leads[l]
        forRing(block.startSample + skip, n - skip, (at, len, done) => r.set(x.subarray(skip + done, skip + done + len), at))
      })
      end = block.startSample + n
    },
    slice(from, to) {
      return leads.map((r) => {
        const out = new Float32Array(Math.max(0, to - from)).fill(NaN)
        const lo = Math.max(from, end - capacity, 0)
        const hi = Math.min(to, end)
        if (hi > lo) forRing(lo, hi - lo, (at, len, done) => out.set(r.subarray(at, at + len), lo - from + done))
        return out
      })
    },
  }
}
