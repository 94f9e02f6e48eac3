// WFDB skew (signal(5)): sample j of a signal with skew s is stored in frame j + s, so a skewed
// signal is read s frames ahead of the others. This re-aligns blocks of frames into blocks of
// samples of exactly `step` per signal (the last one shorter), holding at most `step + skew`
// samples per signal. Samples a skewed signal lacks at the end of the file are the format's
// invalid value (NaN once converted), as WFDB's getvec gives them.

import { concatSamples } from '../dsp/concat-samples.ts'

type Block = { start: number; digital: Map<number, Int32Array> }

/** Re-aligns frame blocks by each signal's skew; `total` samples per signal come out. */
export async function* deskewBlocks(blocks: AsyncIterable<Block>, skews: ReadonlyMap<number, number>, invalid: ReadonlyMap<number, number>, total: number, step: number): AsyncGenerator<Block> {
  const queues = new Map<number, Int32Array>()
  const toDrop = new Map(skews)
  let start = 0
  const emit = (n: number): Block => {
    const digital = new Map<number, Int32Array>()
    for (const [sig, q] of queues) {
      digital.set(sig, q.slice(0, n))
      queues.set(sig, q.subarray(n))
    }
    const block = { start, digital }
    start += n
    return block
  }
  for await (const { digital } of blocks) {
    for (const [sig, arr] of digital) {
      const drop = Math.min(toDrop.get(sig) ?? 0, arr.length)
      if (drop > 0) toDrop.set(sig, (toDrop.get(sig) ?? 0) - drop)
      const q = queues.get(sig)
      queues.set(sig, q?.length ? concatSamples([q, arr.subarray(drop)], (n) => new Int32Array(n)) : arr.subarray(drop))
    }
    while (start < total && Math.min(...[...queues.values()].map((q) => q.length)) >= Math.min(step, total - start)) {
      yield emit(Math.min(step, total - start))
    }
  }
  // The end of the file: what a skewed signal lacks is invalid.
  for (const [sig, q] of queues) {
    const want = total - start
    if (q.length < want) {
      const padded = new Int32Array(want)
      padded.set(q)
      padded.fill(invalid.get(sig) ?? 0, q.length)
      queues.set(sig, padded)
    }
  }
  while (start < total) yield emit(Math.min(step, total - start))
}
