// An independent recomputation of the QA gold (test/e2e/qa-consistency.test.ts): the reference
// annotations read at the format level (the WFDB annotator file through the MIT parser, the EDF+
// TALs through the TAL parser), MIT symbols mapped to AAMI classes, and every fact an item's gold
// rests on recomputed here in plain loops. Nothing of src/qa, src/excerpts, src/dsp/hr-stats.ts,
// ectopy.ts or record-summary.ts is used, so a rule written twice the same wrong way is the only
// way both can agree on a wrong gold. The rules are those docs/qa.md and src/qa/vocabulary.ts
// state in words; where a rule is a choice, the comment above its loop says which. The gold
// counts every beat the reference annotates: only the stretches it marks unreadable itself are
// left out (the quality stage's flags change no fact), and rates count every beat, in samples.
import { readFileSync } from 'node:fs'
import { aamiClass } from '../../src/formats/aami-classes.ts'
import { splitAnnotationText } from '../../src/formats/annotation-text.ts'
import { readEdfHeaderFromFile } from '../../src/formats/edf-file.ts'
import { parseTalBlock } from '../../src/formats/tal.ts'
import { createMitAnnotationParser } from '../../src/formats/wfdb-annotations.ts'

export interface RefAnnotation {
  sample: number
  /** Record ms with 3 decimals (sample x 1000 / fs; for EDF+ the TAL onset), as the readers give annotation times. */
  timeMs: number
  symbol: string
  aux: string
  /** WFDB's subtype (a `~` mark's noise bits). */
  subtype?: number
}

export interface Reference {
  fs: number
  annotations: RefAnnotation[]
}

const ms3 = (x: number) => Math.round(x * 1e6) / 1e3

/** The reference annotations of a WFDB record (`<base>.hea` and `<base>.atr`). */
export function readWfdbReference(base: string): Reference {
  const fs = Number.parseFloat(readFileSync(`${base}.hea`, 'latin1').split('\n')[0].trim().split(/\s+/)[2])
  const parser = createMitAnnotationParser(`${base}.atr`, { fs })
  const got = [...parser.push(readFileSync(`${base}.atr`)), ...parser.end()]
  return { fs, annotations: got.map((a) => ({ sample: a.sample, timeMs: ms3(a.sample / fs), symbol: a.symbol, aux: a.aux, subtype: a.subtype })) }
}

/**
 * The stretches the reference itself marks unreadable: from a `~` whose subtype is -1 (every
 * signal) or has a bit of the high nibble (WFDB's unreadable bits) to the next `~`. The
 * annotators label no beat there, so the docs count them as artifact periods.
 */
export function unreadableSpans(ref: Reference): [number, number][] {
  const out: [number, number][] = []
  let from: number | null = null
  for (const a of ref.annotations) {
    if (a.symbol !== '~') continue
    if (from !== null) out.push([from, a.sample])
    from = a.subtype === -1 || ((a.subtype ?? 0) & 0xf0) !== 0 ? a.sample : null
  }
  if (from !== null) out.push([from, Infinity])
  return out
}

/** The reference annotations of an EDF+ file (its TALs; the text "N" or "+(AFIB" split into symbol and aux). */
export async function readEdfReference(file: string): Promise<Reference> {
  const { header } = await readEdfHeaderFromFile(file)
  const bytes = readFileSync(file)
  const fs = header.signals.find((s) => !s.isAnnotation)!.sampleRate
  const annotations: RefAnnotation[] = []
  for (let r = 0; r < header.recordCount; r++) {
    for (const sig of header.signals.filter((s) => s.isAnnotation)) {
      const at = header.headerBytes + r * header.recordBytes + sig.byteOffsetInRecord
      const { annotations: tals } = parseTalBlock(bytes.subarray(at, at + sig.samplesPerRecord * (header.isBdf ? 3 : 2)), file, r)
      for (const t of tals) {
        for (const text of t.texts) {
          if (text === '') continue
          const { symbol, aux } = splitAnnotationText(text)
          annotations.push({ sample: Math.round(t.onsetSec * fs), timeMs: ms3(t.onsetSec), symbol, aux })
        }
      }
    }
  }
  annotations.sort((a, b) => a.sample - b.sample)
  return { fs, annotations }
}

export interface Beat {
  sample: number
  timeMs: number
  symbol: string
  /** AAMI class. */
  label: string
  /** An unreadable stretch lies between this beat and the kept one before it. */
  afterBreak: boolean
}

export interface Episode {
  rhythm: string
  startSample: number
  startMs: number
  endSample: number
  endMs: number
}

/** Rhythm episodes: "+" with aux "(NAME" starts one, which runs to the next such change (or an end marker "+" ")"), the last to the end (Infinity). */
export function rhythmEpisodes(ref: Reference): Episode[] {
  const out: Episode[] = []
  for (const a of ref.annotations) {
    if (a.symbol !== '+') continue
    const open = out.at(-1)
    const starts = a.aux.startsWith('(') && a.aux.slice(1).trim() !== ''
    if ((starts || a.aux.trim() === ')') && open && open.endSample === Infinity) Object.assign(open, { endSample: a.sample, endMs: a.timeMs })
    if (starts) out.push({ rhythm: a.aux.slice(1).trim(), startSample: a.sample, startMs: a.timeMs, endSample: Infinity, endMs: Infinity })
  }
  return out
}

export interface Occurrence {
  timeMs: number
  sample: number
  beats: number[]
}

export interface EventFound {
  /** The episodes (or beats) whose onset is inside. */
  occurrences: Occurrence[]
  /** An episode of it was going on before its first beat seen (it is present, its onset is not inside). */
  boundary: boolean
  /** How many such episodes. */
  ongoing: number
}

export interface Facts {
  fs: number
  startSample: number
  endSample: number
  startMs: number
  endMs: number
  beats: Beat[]
  excluded: number
  /** Time of the excerpt in unreadable stretches, ms (rounded). */
  excludedMs: number
  /** The 8-interval average rate of every beat at each beat (NaN where no full window ends). */
  hr: number[]
  events: Map<string, EventFound>
  /** Rhythm episodes overlapping the excerpt. */
  episodes: Episode[]
}

// The event names and sources (docs/qa.md, "Vocabulary"), written out again here.
export const RHYTHM_EVENTS: [string, string[]][] = [
  ['Atrial Fibrillation', ['AFIB']],
  ['Atrial Flutter', ['AFL']],
  ['Ventricular Flutter', ['VFL']],
  ['Ventricular Fibrillation', ['VFIB', 'VF']],
  ['Supraventricular Tachyarrhythmia', ['SVTA']],
  ['First-degree AV Block', ['BI']],
  ['Second-degree AV Block', ['BII']],
  ['Third-degree AV Block', ['BIII']],
  ['Junctional Rhythm', ['NOD']],
  ['Ventricular Escape Rhythm', ['IVR']],
  ['Paced Rhythm', ['P']],
  ['Pre-excitation', ['PREX']],
]
/** Every event name, in the order the vocabulary lists them (diagnosis labels come in that order). */
export const EVENT_ORDER = [
  'Premature Atrial Contraction', 'Premature Ventricular Contraction', 'Atrial Couplet', 'Ventricular Couplet',
  'Atrial Tachycardia', 'Ventricular Tachycardia', 'Ventricular Bigeminy', 'Ventricular Trigeminy', 'Sinus Pause',
  'Asystole', 'Sinus Tachycardia', 'Sinus Bradycardia', 'Atrial Fibrillation', 'Atrial Flutter', 'Ventricular Flutter',
  'Ventricular Fibrillation', 'Supraventricular Tachyarrhythmia', 'First-degree AV Block', 'Second-degree AV Block',
  'Third-degree AV Block', 'Junctional Rhythm', 'Ventricular Escape Rhythm', 'Paced Rhythm', 'Pre-excitation',
]
export const AVG_BEATS = 8

/** The facts of the excerpt [startSample, endSample): beats in the reference's unreadable spans [a, b) are excluded and break intervals. */
export function factsOf(ref: Reference, ex: { startSample: number; endSample: number; startMs: number; endMs: number }, flagged: [number, number][]): Facts {
  const fs = ref.fs
  const beats: Beat[] = []
  let excluded = 0
  let broken = false
  for (const a of ref.annotations) {
    const label = aamiClass(a.symbol)
    if (label === null || a.sample < ex.startSample || a.sample >= ex.endSample) continue
    if (flagged.some(([s, e]) => a.sample >= s && a.sample < e)) {
      excluded++
      broken = true
      continue
    }
    // A flagged stretch between this beat and the last kept one breaks the interval too, even
    // when no beat fell inside it.
    const last = beats.at(-1)
    if (last && flagged.some(([s, e]) => s <= a.sample && e > last.sample)) broken = true
    beats.push({ sample: a.sample, timeMs: a.timeMs, symbol: a.symbol, label, afterBreak: broken })
    broken = false
  }
  // Unreadable time inside the excerpt: the spans clipped to it, overlaps counted once, in ms of samples.
  let cover = 0
  let reach = ex.startSample
  for (const [a, b] of [...flagged].sort((x, y) => x[0] - y[0])) {
    const from = Math.max(a, reach, ex.startSample)
    const to = Math.min(b, ex.endSample)
    if (to > from) cover += to - from
    reach = Math.max(reach, Math.min(b, ex.endSample))
  }
  const excludedMs = Math.round((cover * 1000) / fs)
  const n = beats.length
  const joined = (i: number) => i > 0 && !beats[i].afterBreak // an interval joins beat i to beat i - 1
  const interval = (i: number) => joined(i) && beats[i].sample > beats[i - 1].sample // ... and lasts

  // The averaged rate at beat i: the last 8 intervals up to it join consecutive beats of any
  // label (none across a break, none of zero length); their total in samples is beat i's sample
  // minus that of the beat 8 before.
  const hr: number[] = []
  for (let i = 0; i < n; i++) {
    let ok = i >= AVG_BEATS
    for (let k = i - AVG_BEATS + 1; ok && k <= i; k++) if (!interval(k)) ok = false
    hr.push(ok ? (60 * fs * AVG_BEATS) / (beats[i].sample - beats[i - AVG_BEATS].sample) : NaN)
  }
  // Whether the beat before beat i is seen (an interval joins them): a run or pattern reaching
  // back to a beat whose predecessor is unseen may have begun before it.
  const seenBefore = (i: number) => joined(i)

  const episodes = rhythmEpisodes(ref).filter((r) => r.startSample < ex.endSample && r.endSample > ex.startSample)
  const events = new Map<string, EventFound>()
  const add = (name: string, occurrences: Occurrence[], ongoing = 0) => {
    if (occurrences.length || ongoing) events.set(name, { occurrences, boundary: ongoing > 0, ongoing })
  }
  // Spans [first, last, timed]: those whose onset is unseen make the event present, uncounted.
  const addSpans = (name: string, spans: [number, number, number][], unseen: (first: number) => boolean) => {
    add(name, spans.filter(([i]) => !unseen(i)).map(([i, j, t]) => at(i, j, t)), spans.filter(([i]) => unseen(i)).length)
  }
  const at = (first: number, last: number, timed: number): Occurrence => ({ timeMs: Math.round(beats[timed].timeMs), sample: beats[timed].sample, beats: beats.slice(first, last + 1).map((b) => b.sample) })

  // Beat events: one occurrence per beat of the listed MIT symbols.
  const perBeat = (symbols: string[]) => beats.filter((b) => symbols.includes(b.symbol)).map((b) => ({ timeMs: Math.round(b.timeMs), sample: b.sample, beats: [b.sample] }))
  add('Premature Atrial Contraction', perBeat(['A', 'a', 'J', 'S']))
  add('Premature Ventricular Contraction', perBeat(['V', 'r']))

  // Runs: maximal stretches of consecutive beats of one AAMI class, cut by breaks; timed at the
  // first beat. One that starts at a beat whose predecessor is unseen has no onset inside.
  const runs = (cls: string) => {
    const out: [number, number][] = []
    let i = 0
    while (i < n) {
      if (beats[i].label !== cls) {
        i++
        continue
      }
      let j = i
      while (j + 1 < n && beats[j + 1].label === cls && joined(j + 1)) j++
      out.push([i, j])
      i = j + 1
    }
    return out
  }
  for (const [cls, couplet, tachy] of [['S', 'Atrial Couplet', 'Atrial Tachycardia'], ['V', 'Ventricular Couplet', 'Ventricular Tachycardia']] as const) {
    const r = runs(cls)
    addSpans(couplet, r.filter(([i, j]) => j - i + 1 === 2).map(([i, j]) => [i, j, i]), (i) => !seenBefore(i))
    addSpans(tachy, r.filter(([i, j]) => j - i + 1 >= 3).map(([i, j]) => [i, j, i]), (i) => !seenBefore(i))
  }

  // Bigeminy (p = 2) / trigeminy (p = 3) as docs/qa.md and vocabulary.ts state them: a cycle is
  // p - 1 N beats then one V; an episode is 3 or more cycles in a row, each V exactly p beats
  // after the one before, with no break inside; timed at its first N. A V "completes a cycle"
  // when the p - 1 beats before it are N and joined to it without a break; a cycle continues the
  // episode when the V before it is the beat just before those N beats (joined as well). Its
  // onset is unseen when fewer than p beats precede its first N back to a beat whose predecessor
  // is unseen, and those beats are the end of a cycle (..., N, V): the pattern may run on before.
  for (const [p, name] of [[2, 'Ventricular Bigeminy'], [3, 'Ventricular Trigeminy']] as const) {
    const cycleAt = (i: number) => {
      if (beats[i].label !== 'V' || i - (p - 1) < 0) return false
      for (let k = i - (p - 1); k < i; k++) if (beats[k].label !== 'N' || !joined(k + 1)) return false
      return true
    }
    const out: [number, number, number][] = []
    let first = -1
    let cycles = 0
    let lastV = -1
    const close = () => {
      if (cycles >= 3) out.push([first, lastV, first])
      cycles = 0
    }
    for (let i = 0; i < n; i++) {
      if (!cycleAt(i)) continue
      const continues = cycles > 0 && lastV === i - p && joined(i - p + 1)
      if (!continues) {
        close()
        first = i - (p - 1)
      }
      cycles++
      lastV = i
    }
    close()
    const unseen = (f: number) => {
      let k = f
      while (k > 0 && seenBefore(k) && f - k < p) k--
      if (f - k >= p || seenBefore(k)) return false
      for (let m = k; m < f; m++) if (beats[m].label !== (m === f - 1 ? 'V' : 'N')) return false
      return true
    }
    addSpans(name, out, unseen)
  }

  // Long RR: an interval between consecutive kept beats (not across a break) in (2000, 3000] ms
  // is a sinus pause when both beats are conducted from the sinus node (MIT N, L, R, B) and
  // neither lies in a rhythm other than sinus-driven ones (N, SBR, AB, B, T, BI, PREX, or none);
  // above 3000 ms, asystole whatever the beats. Timed at the beat before it.
  const rhythmAt = (s: number) => episodes.find((r) => r.startSample <= s && s < r.endSample)?.rhythm ?? null
  const sinusBeat = (b: Beat) => ['N', 'L', 'R', 'B'].includes(b.symbol) && [null, 'N', 'SBR', 'AB', 'B', 'T', 'BI', 'PREX'].includes(rhythmAt(b.sample))
  const pause: Occurrence[] = []
  const asystole: Occurrence[] = []
  for (let i = 1; i < n; i++) {
    if (!joined(i)) continue
    const rr = beats[i].timeMs - beats[i - 1].timeMs
    if (rr > 2000 && rr <= 3000 && sinusBeat(beats[i - 1]) && sinusBeat(beats[i])) pause.push(at(i - 1, i, i - 1))
    if (rr > 3000) asystole.push(at(i - 1, i, i - 1))
  }
  add('Sinus Pause', pause)
  add('Asystole', asystole)

  // Sustained rate: consecutive beats whose averaged rate is > 100 (< 60) bpm while the rhythm
  // at the beat is sinus (N, SBR) or unannotated, the first to the last at least 30 s apart;
  // timed at the first such beat. One whose first beat ends the first full window after the
  // excerpt's start or a break was already going on: no onset inside.
  for (const [name, fast] of [['Sinus Tachycardia', true], ['Sinus Bradycardia', false]] as const) {
    const ok = (i: number) => {
      const r = rhythmAt(beats[i].sample)
      return Number.isFinite(hr[i]) && (r === null || r === 'N' || r === 'SBR') && (fast ? hr[i] > 100 : hr[i] < 60)
    }
    const out: [number, number, number][] = []
    let i = 0
    while (i < n) {
      if (!ok(i)) {
        i++
        continue
      }
      let j = i
      while (j + 1 < n && ok(j + 1)) j++
      if (beats[j].timeMs - beats[i].timeMs >= 30_000) out.push([i, j, i])
      i = j + 1
    }
    addSpans(name, out, (first) => first === 0 || !Number.isFinite(hr[first - 1]))
  }

  // Rhythm events: one occurrence per episode starting inside, timed at its onset; one begun before the excerpt makes the event present without an onset.
  for (const [name, names] of RHYTHM_EVENTS) {
    const mine = episodes.filter((r) => names.includes(r.rhythm))
    add(name, mine.filter((r) => r.startSample >= ex.startSample).map((r) => ({ timeMs: Math.round(r.startMs), sample: r.startSample, beats: [] })), mine.filter((r) => r.startSample < ex.startSample).length)
  }
  const ordered = new Map([...events].sort(([a], [b]) => EVENT_ORDER.indexOf(a) - EVENT_ORDER.indexOf(b)))
  return { fs, startSample: ex.startSample, endSample: ex.endSample, startMs: ex.startMs, endMs: ex.endMs, beats, excluded, excludedMs, hr, events: ordered, episodes }
}

const round1 = (x: number) => Math.round(x * 10) / 10

/** The mean rate over the averaging windows: 8 x windows / their total duration, per minute, rounded to 0.1 bpm; null without any. */
export function meanBpm(f: Facts): number | null {
  let windows = 0
  let samples = 0
  for (let i = 0; i < f.beats.length; i++) {
    if (!Number.isFinite(f.hr[i])) continue
    windows++
    samples += f.beats[i].sample - f.beats[i - AVG_BEATS].sample
  }
  return windows ? round1((60 * f.fs * AVG_BEATS * windows) / samples) : null
}

/** The diagnosis labels: the events present, else "Normal Sinus Rhythm" when every overlapping rhythm is N and the mean rate is 60-100 bpm, else none. */
export function diagnosisOf(f: Facts): string[] {
  if (f.events.size) return [...f.events.keys()]
  const mean = meanBpm(f)
  return f.episodes.every((r) => r.rhythm === 'N') && mean !== null && mean >= 60 && mean <= 100 ? ['Normal Sinus Rhythm'] : []
}

/** The extreme averaged rate: its beat index (the first on ties), or -1. */
export function extremeIndex(f: Facts, fastest: boolean): number {
  let best = -1
  for (let i = 0; i < f.hr.length; i++) {
    if (!Number.isFinite(f.hr[i])) continue
    if (best < 0 || (fastest ? f.hr[i] > f.hr[best] : f.hr[i] < f.hr[best])) best = i
  }
  return best
}

/** The figures of a Holter report over the excerpt's kept beats (the report tasks' gold). */
export function figuresOf(f: Facts): Record<string, unknown> {
  const b = f.beats
  const n = b.length
  // Pauses: any interval over 2 s between consecutive kept beats, measured in samples.
  let pauses = 0
  let longest: number | null = null
  for (let i = 1; i < n; i++) {
    const rr = b[i].sample - b[i - 1].sample
    if (b[i].afterBreak || rr <= 0 || rr * 1000 <= 2000 * f.fs) continue
    pauses++
    longest = Math.max(longest ?? 0, (rr * 1000) / f.fs)
  }
  // Time above 100 / below 60 bpm: the windows' durations, by their averaged rate.
  let windowed = 0
  let tachy = 0
  let brady = 0
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(f.hr[i])) continue
    const w = b[i].sample - b[i - AVG_BEATS].sample
    windowed += w
    if (f.hr[i] > 100) tachy += w
    if (f.hr[i] < 60) brady += w
  }
  const max = extremeIndex(f, true)
  const min = extremeIndex(f, false)
  const count = (cls: string) => b.filter((x) => x.label === cls).length
  const burden = (k: number) => (n > 0 ? Math.round((10_000 * k) / n) / 100 : null)
  const bySymbol = (symbols: string[]) => {
    const k = b.filter((x) => symbols.includes(x.symbol)).length
    return { count: k, burdenPct: burden(k) }
  }
  // Singles / couplets / runs: maximal same-class stretches (cut by breaks) of 1, 2, 3+ beats.
  const stretches = (cls: string) => {
    const lens: number[] = []
    for (let i = 0; i < n; i++) {
      if (b[i].label !== cls) continue
      if (i > 0 && b[i - 1].label === cls && !b[i].afterBreak) lens[lens.length - 1]++
      else lens.push(1)
    }
    return { singles: lens.filter((l) => l === 1).length, couplets: lens.filter((l) => l === 2).length, runs: lens.filter((l) => l >= 3).length }
  }
  // Bigeminy / trigeminy episodes as a report counts them: every one seen, its onset inside or not.
  const episodes = (name: string) => {
    const e = f.events.get(name)
    return (e?.occurrences.length ?? 0) + (e?.ongoing ?? 0)
  }
  const rhythms = new Map<string, number>()
  for (const r of f.episodes) rhythms.set(r.rhythm, (rhythms.get(r.rhythm) ?? 0) + Math.max(0, Math.min(r.endMs, f.endMs) - Math.max(r.startMs, f.startMs)))
  return {
    durationMs: f.endMs - f.startMs,
    totalBeats: n,
    excludedBeats: f.excluded,
    excludedMs: f.excludedMs,
    unclassifiable: bySymbol(['Q', '?']),
    paced: bySymbol(['/', 'f']),
    avgBeats: AVG_BEATS,
    meanHrBpm: meanBpm(f),
    maxHr: max < 0 ? null : { bpm: round1(f.hr[max]), timeMs: Math.round(b[max].timeMs) },
    minHr: min < 0 ? null : { bpm: round1(f.hr[min]), timeMs: Math.round(b[min].timeMs) },
    tachyPct: windowed > 0 ? round1((100 * tachy) / windowed) : null,
    bradyPct: windowed > 0 ? round1((100 * brady) / windowed) : null,
    pauses,
    longestPauseMs: longest === null ? null : Math.round(longest * 1000) / 1000,
    supraventricular: { count: count('S'), burdenPct: burden(count('S')), ...stretches('S') },
    ventricular: { count: count('V'), burdenPct: burden(count('V')), ...stretches('V'), bigeminy: episodes('Ventricular Bigeminy'), trigeminy: episodes('Ventricular Trigeminy') },
    rhythms: [...rhythms].map(([rhythm, totalMs]) => ({ rhythm, totalMs })),
    findings: [...f.events.keys()],
  }
}
