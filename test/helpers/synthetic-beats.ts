// Synthetic beat sequences for tests of the QA generator's balance: sinus rhythm at a drifting
// rate with premature atrial and ventricular beats (singles, couplets, runs, bigeminy),
// compensatory pauses, sinus pauses and stretches of fast and slow rate, each record with its
// own mix, so the truths of every task spread the way real records' do and wider. Seeded.
import { createSeededRandom } from '../../src/excerpts/seeded-random.ts'
import type { FactsBeat } from '../../src/qa/excerpt-facts.ts'

export interface SyntheticExcerpt {
  startSample: number
  endSample: number
  startMs: number
  endMs: number
  beats: FactsBeat[]
}

/** `count` consecutive excerpts of `seconds` of one synthetic record at 360 Hz. */
export function syntheticRecord(seed: string, count: number, seconds: number): SyntheticExcerpt[] {
  const rng = createSeededRandom(seed)
  const fs = 360
  const mix = { pac: rng.next() * 0.08, pvc: rng.next() * 0.1, couplet: rng.next() * 0.02, run: rng.next() * 0.01, bigem: rng.next() * 0.01, pause: rng.next() * 0.004 }
  let hr = 55 + rng.next() * 50
  let t = 500
  let bigeminy = 0
  const beats: FactsBeat[] = []
  const push = (label: string, symbol: string, rr: number) => {
    t += rr
    beats.push({ sample: Math.round((t / 1000) * fs), timeMs: Math.round(((Math.round((t / 1000) * fs)) * 1000) / fs * 1000) / 1000, label, symbol })
  }
  const end = count * seconds * 1000
  while (t < end) {
    hr = Math.min(150, Math.max(40, hr + (rng.next() - 0.5) * 3 + (rng.next() < 0.01 ? (rng.next() - 0.5) * 40 : 0)))
    const rr = 60_000 / hr
    const r = rng.next()
    if (bigeminy > 0) {
      bigeminy--
      push('N', 'N', rr * 1.2)
      push('V', 'V', rr * 0.6)
    } else if (r < mix.pac) push('S', 'A', rr * 0.65)
    else if (r < mix.pac + mix.pvc) {
      push('V', 'V', rr * 0.6)
      push('N', 'N', rr * 1.4)
    } else if (r < mix.pac + mix.pvc + mix.couplet) {
      push('V', 'V', rr * 0.6)
      push('V', 'V', rr * 0.55)
      push('N', 'N', rr * 1.4)
    } else if (r < mix.pac + mix.pvc + mix.couplet + mix.run) {
      const n = 3 + rng.below(4)
      const cls = rng.below(2) ? ['V', 'V'] : ['S', 'A']
      for (let k = 0; k < n; k++) push(cls[0], cls[1], rr * 0.5)
      push('N', 'N', rr * 1.3)
    } else if (r < mix.pac + mix.pvc + mix.couplet + mix.run + mix.bigem) bigeminy = 3 + rng.below(8)
    else if (r < mix.pac + mix.pvc + mix.couplet + mix.run + mix.bigem + mix.pause) push('N', 'N', 2100 + rng.next() * 1800)
    else push('N', 'N', rr)
  }
  const out: SyntheticExcerpt[] = []
  for (let k = 0; k < count; k++) {
    const [a, b] = [k * seconds * 1000, (k + 1) * seconds * 1000]
    out.push({ startSample: Math.round((a / 1000) * fs), endSample: Math.round((b / 1000) * fs), startMs: a, endMs: b, beats: beats.filter((x) => x.timeMs >= a && x.timeMs < b) })
  }
  return out
}
