// Feeds a streaming zero-phase filter block by block to the end, as the clean stage does.
import type { ZeroPhaseStream } from '../../src/dsp/zero-phase.ts'

/** The whole output, and the most samples it held between pushes. */
export function runZeroPhase(zp: ZeroPhaseStream, x: Float64Array, blockSize: number): { y: Float64Array; maxHeld: number } {
  const out: number[] = []
  let maxHeld = 0
  for (let s = 0; s < x.length; s += blockSize) {
    out.push(...zp.push(x.subarray(s, s + blockSize)))
    maxHeld = Math.max(maxHeld, zp.held())
  }
  out.push(...zp.finish())
  return { y: Float64Array.from(out), maxHeld }
}
