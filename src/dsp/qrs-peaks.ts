// Peak picking on the QRS detector's integrated energy (qrs-detector.ts), a block at a time: a
// maximum is a peak once the energy falls below half of it. The scan runs in its own small
// function over the block, with its state in locals, and returns to the detector only when a
// peak ends or the detector's next deadline passes; inlined into the detector's loop, the rare
// paths it calls (placement, classification, search-back) made V8 spill the per-sample state.
// This is the JavaScript kernel's picker (qrs-front-end-kernel.ts); the WebAssembly front end
// runs the same steps inside its own loop (scripts/wasm-qrs-kernels.mjs), and the front end
// stops where this does.

/** Layout of the scan state: rising edge (0/1), candidate height and sample, last energy, peak flag. */
export const PICK_UP = 0, PICK_H = 1, PICK_AT = 2, PICK_PREV = 3, PICK_PEAK = 4, PICK_SIZE = 5

/**
 * Scans e[k0..k1) for sample k = first + k (k0 < k1). Stops after the sample at which a peak ends
 * (then st[PICK_PEAK] = 1, the peak being st[PICK_H] at st[PICK_AT]); returns the index of the
 * last sample scanned (k1 - 1 when no peak ended).
 */
export function scanEnergy(e: Float64Array, k0: number, k1: number, first: number, st: Float64Array): number {
  let up = st[PICK_UP] !== 0
  let h = st[PICK_H], at = st[PICK_AT], before = st[PICK_PREV]
  let peak = 0
  let k = k0
  for (; k < k1; k++) {
    const v = e[k]
    if (up) {
      if (v > h) {
        h = v
        at = first + k
      } else if (v < 0.5 * h) {
        up = false
        peak = 1
      }
    } else if (v > before) {
      up = true
      h = v
      at = first + k
    }
    before = v
    if (peak !== 0) break
  }
  st[PICK_UP] = up ? 1 : 0
  st[PICK_H] = h
  st[PICK_AT] = at
  st[PICK_PREV] = before
  st[PICK_PEAK] = peak
  return peak !== 0 ? k : k1 - 1
}
