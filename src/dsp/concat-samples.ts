// Joining runs of samples end to end, for the streaming code that gathers a few pieces before
// handing them on (zero-phase windows, a filter chain's last output, detection chunks, a WFDB
// reader's decoded frames).

/** The pieces as one array; a single piece comes back as it is, not copied (callers rely on more than one piece giving a fresh array). */
export function concatSamples<T extends Float32Array | Float64Array | Int32Array>(parts: readonly T[], make: (length: number) => T): T {
  if (parts.length === 1) return parts[0]
  let n = 0
  for (const p of parts) n += p.length
  const out = make(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}
