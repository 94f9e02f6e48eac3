// The report of `pipeline beats --score`: WFDB bxb-style statistics of the detector's beats
// against the reference beats, for the whole record (after the EC57 5-minute skip), then again
// without the windows the quality stage flagged on the lead.
import { toBeatSeries } from '../formats/aami-classes.ts'
import { scoreBeats } from '../metrics/bxb-stats.ts'
import { formatBeatScore, formatBxbStats } from '../metrics/format-bxb.ts'
import { count } from './plural.ts'

/** Beats as two parallel lists: sample and label (MIT symbol or AAMI class). */
export interface BeatList {
  samples: number[]
  labels: string[]
}

/** The bxb-style report, then the same without the flagged windows ([start, end) in samples, sorted). */
export function scoreReport(id: string, fs: number, ref: BeatList, test: BeatList, flagged: [number, number][]): string {
  const out = [formatBeatScore(scoreBeats(toBeatSeries(ref.samples, ref.labels), toBeatSeries(test.samples, test.labels), { fs }), { recordId: id, refAnnotator: 'reference annotations', testAnnotator: 'pipeline detect', fs })]
  const flaggedSec = flagged.reduce((s, [a, b]) => s + (b - a), 0) / fs
  if (flagged.length === 0) {
    out.push('No window was flagged by the quality stage: the scores above cover the whole signal.\n')
  } else {
    // Both lists lose the beats inside flagged windows.
    const r = outside(ref, flagged)
    const t = outside(test, flagged)
    const score = scoreBeats(toBeatSeries(r.samples, r.labels), toBeatSeries(t.samples, t.labels), { fs })
    out.push(`Without the ${count(flagged.length, 'window')} (${flaggedSec.toFixed(0)} s) flagged by the quality stage on this lead:\n${formatBxbStats(score.whole)}`)
  }
  return out.join('\n')
}

/** The beats (sorted) outside the spans (sorted, [start, end) in samples). */
function outside(beats: BeatList, spans: [number, number][]): BeatList {
  const out: BeatList = { samples: [], labels: [] }
  let k = 0
  for (let i = 0; i < beats.samples.length; i++) {
    while (k < spans.length && spans[k][1] <= beats.samples[i]) k++
    if (k < spans.length && beats.samples[i] >= spans[k][0]) continue
    out.samples.push(beats.samples[i])
    out.labels.push(beats.labels[i])
  }
  return out
}
