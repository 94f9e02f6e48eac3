// The recent samples of a record, for spans that are cut from the signal rather than taken from
// a window (an excerpt, emitted once its whole span has passed): a ring of blocks that keeps
// everything from the point the stage still needs (the watermark, or the oldest span waiting)
// on, growing when the watermark trails the stream further, up to MAX_SEC of signal. In a run
// over an earlier run there are no blocks (they are not written): the windows' samples are
// pushed instead (feed), each window as a block. Given the stage's `leads` option, it keeps those
// leads only (their labels and samples are what cut gives): a stage drawing lead 0 of a two-lead
// record holds half the signal while an hour-long excerpt waits.
import { PipelineError } from '../core/errors.ts'
import type { SampleBlock, WindowItem } from '../core/items.ts'
import { createSampleRing, type SampleRing } from '../dsp/sample-ring.ts'
import { pickLeads } from './render-options.ts'

/**
 * The most signal held, in seconds: the longest excerpt (6 h, the excerpt stage's bound) and
 * room for the watermark to trail the stream; a stage upstream holding items back longer is not
 * waiting for a reason.
 */
const MAX_SEC = 6.5 * 3600

export interface SpanCutter {
  push(block: SampleBlock): void
  /** Takes samples from a block, or from a window when the stream has no blocks. */
  feed(item: SampleBlock | WindowItem): void
  /** Nothing before `sample` will be cut any more. */
  keepFrom(sample: number): void
  /** Samples [from, to) of each lead kept (NaN where not held), with their labels and rate. */
  cut(from: number, to: number): { samples: Float32Array[]; labels: string[]; fs: number }
}

/** A cutter for stage `stage` (named in its errors), keeping the leads `wanted` names (all when absent). */
export function createSpanCutter(stage: string, wanted?: (number | string)[]): SpanCutter {
  let ring: SampleRing | null = null
  let picked: { from: string[]; indices: number[]; labels: string[] } | null = null
  // The block with only the wanted leads (their indices found once per set of labels).
  const keepLeads = (block: SampleBlock): SampleBlock => {
    if (!wanted) return block
    if (picked?.from !== block.labels) {
      const indices = pickLeads(stage, wanted, block.labels)
      picked = { from: block.labels, indices, labels: indices.map((i) => block.labels[i]) }
    }
    const { indices, labels } = picked
    return { ...block, labels, leads: indices.map((i) => block.leads[i]) }
  }
  let keep = 0
  let fs = 0
  let labels: string[] = []
  let blocks = false
  return {
    feed(item) {
      if (item.kind === 'block') {
        blocks = true
        this.push(item)
      } else if (!blocks) this.push({ kind: 'block', recordId: item.recordId, fs: item.fs, startSample: item.startSample, labels: item.labels, leads: item.samples })
    },
    push(whole) {
      const block = keepLeads(whole)
      const n = block.leads[0]?.length ?? 0
      const end = block.startSample + n
      const need = Math.max(end - keep, 0) + 2 * n + 1
      if (!ring || ring.capacity < need) {
        fs = block.fs
        labels = block.labels
        const limit = Math.ceil(MAX_SEC * block.fs)
        if (end - keep > limit) {
          throw new PipelineError('E_WATERMARK', `${stage}: would hold more than ${MAX_SEC / 3600} h of signal waiting for the spans it cuts (the watermark is at sample ${keep}, the signal at ${end}); a stage before it holds items back without passing watermarks on (docs/items.md)`, { field: 'excerpts' })
        }
        // Doubling, up to what the bound may need (a doubling past it would refuse what fits).
        const capacity = Math.max(need, Math.min(Math.max(2 * (ring?.capacity ?? 0), Math.ceil(60 * block.fs)), limit + 2 * n + 1))
        ring = ring ? ring.grown(capacity) : createSampleRing(capacity)
      }
      ring.push(block)
    },
    keepFrom(sample) {
      if (sample > keep) keep = sample
    },
    cut(from, to) {
      return { samples: ring ? ring.slice(from, to) : [], labels, fs }
    },
  }
}
