// The reference's own noise marks as artifact periods. WFDB writes a signal-quality change as a
// `~` annotation whose subtype is a bit mask: the low 4 bits name noisy signals, the high 4
// unreadable ones, and -1 means every signal is unreadable (MIT-BIH's annotators leave such
// stretches without beat labels). From an unreadable mark to the next `~`, the reference says
// nothing about the beats, so no interval, event or count may rest on that stretch: it is an
// artifact period like a window the quality stage flagged (an RR "pause" across it is not one).

/** Whether a `~` mark's subtype says some signal is unreadable. */
export function unreadable(subtype: number | undefined): boolean {
  return subtype !== undefined && (subtype === -1 || (subtype & 0xf0) !== 0)
}

/**
 * Applies a `~` mark at `sample` to `spans` (artifact periods [start, end), the open one ending
 * at Infinity): it ends the open unreadable period, and starts one when it is unreadable itself.
 */
export function applyNoiseMark(spans: [number, number][], sample: number, subtype: number | undefined): void {
  const open = spans.find((s) => s[1] === Infinity)
  if (open) open[1] = sample
  if (unreadable(subtype)) spans.push([sample, Infinity])
}
