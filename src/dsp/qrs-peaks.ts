// Peak picking on the QRS detector's integrated energy (qrs-detector.ts), a block at a time: a
// maximum is a peak once the energy falls below half of it. The scan runs in its own small
// function over the block, with its state in locals, and returns to the detector only when a
// peak ends or the detector's next deadline passes; inlined into the detector's loop, the rare
// paths it calls (placement, classification, search-back) made V8 spill the per-sample state.

/** Layout of the scan state: rising edge (0/1), candidate height and sample, last energy, peak flag. */
export const PICK_UP = 0, PICK_H = 1, PICK_AT = 2, PICK_PREV = 3, PICK_PEAK = 4, PICK_SIZE = 5

/**
 * Scans e[k0..len) for sample k = first + k. Stops after the sample at which a peak ends (then
 * st[PICK_PEAK] = 1, the peak being st[PICK_H] at st[PICK_AT]) or the first sample past `until`;
 * returns its index, or len when neither happened.
 */
export function scanEnergy(e: Float64Array, k0: number, len: number, first: number, until: number, st: Float64Array): number {
  let up = st[PICK_UP] !== 0
  let h = st[PICK_H], at = st[PICK_AT], before = st[PICK_PREV]
  let peak = 0
  let k = k0
  for (; k < len; k++) {
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
    if (peak !== 0 || first + k > until) break
  }
  st[PICK_UP] = up ? 1 : 0
  st[PICK_H] = h
  st[PICK_AT] = at
  st[PICK_PREV] = before
  st[PICK_PEAK] = peak
  return k
}
