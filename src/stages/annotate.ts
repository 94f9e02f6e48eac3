// `annotate`: the reference annotations of a record become `beat` items with their AAMI
// class and `rhythm` items, tagged source "reference", so later stages (summaries, QA, scoring)
// can use them beside a detector's beats. A rhythm episode runs from its rhythm-change annotation
// ("+" with aux "(AFIB") to its end marker ("+" with aux ")", as Icentia11k writes), else to the
// next change, or to the end of the record; it is emitted when it closes. Time between an end
// marker and the next change belongs to no episode.
// Every item passes through unchanged, but for the recording item, which names the sidecar when
// one is the reference (`annotationSidecar`).
// The references are either embedded (WFDB annotator file or EDF+ TALs, as `annotation` items
// from the read stage: each beat follows its annotation) or a CSV/JSON sidecar file found from
// the `recording` item (option `sidecar`, src/formats/annotation-sidecar.ts). Sidecar rows are
// streamed alongside the signal: those before the end of a block come out just before it, as
// the read stage places annotations, as beats and rhythms, and a row that makes no beat (or has
// an aux text) also as an `annotation` item (origin "sidecar"); rows past the signal's end are
// dropped with a warning. A
// sidecar replaces the embedded annotations (they still pass through, but make no beats), so
// beats are never doubled; `sidecar: none` uses the embedded ones. There is no "prefer embedded
// if any" mode: whether a record has embedded annotations is known only once it has been read.
import path from 'node:path'
import { defineStage } from '../core/stage.ts'
import { PipelineError } from '../core/errors.ts'
import type { AnnotationItem, BeatItem, Item, RecordingItem, RhythmItem } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import { aamiClass } from '../formats/aami-classes.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { findSidecar, readSidecarRows, sidecarOptionProblem } from '../formats/annotation-sidecar.ts'
import { sidecarError, type SidecarRow } from '../formats/annotation-row.ts'
import { createAnnotationClock } from '../formats/annotation-clock.ts'
import { endsRhythm, rhythmOf } from '../formats/annotation-text.ts'

const schema = z.strictObject({
  /** Emit beat items for the reference beats. */
  beats: z.boolean().default(true),
  /** Emit rhythm episodes from the reference rhythm changes. */
  rhythms: z.boolean().default(true),
  /** Reference sidecar: "auto" (<dir>/<name>.annotations.csv|json|ndjson if present), "none", or a path template with {dir} and {name}. */
  sidecar: z.string().default('auto').check((ctx) => {
    const problem = sidecarOptionProblem(ctx.value)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
  }),
})

export type AnnotateOptions = z.infer<typeof schema>

type Note = Pick<AnnotationItem, 'sample' | 'timeMs' | 'symbol' | 'aux'>

export default defineStage<AnnotateOptions>({
  name: 'annotate',
  version: 4,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    let open: { rhythm: string; startSample: number; startMs: number } | null = null
    let fs = 0
    let endSample = 0
    const clock = createAnnotationClock() // EDF+D gaps: sidecar times count them, samples do not
    let sidecar: { file: string; rows: AsyncGenerator<SidecarRow>; next: SidecarRow | null; lastSample: number } | null = null
    let seenRecording = false
    let embeddedIgnored = 0
    const close = (sample: number, timeMs: number): RhythmItem | null => {
      if (!open) return null
      const item: RhythmItem = { kind: 'rhythm', id: `${ctx.recordId}:rh:${open.startSample}`, recordId: ctx.recordId, source: 'reference', rhythm: open.rhythm, startSample: open.startSample, startMs: open.startMs, endSample: sample, endMs: timeMs }
      open = null
      return item
    }
    function* fromNote(a: Note): Generator<Item> {
      const label = aamiClass(a.symbol)
      if (label && ctx.options.beats) {
        const beat: BeatItem = { kind: 'beat', recordId: ctx.recordId, source: 'reference', sample: a.sample, timeMs: a.timeMs, label, symbol: a.symbol }
        yield beat
      }
      if (!ctx.options.rhythms) return
      const rhythm = rhythmOf(a)
      if (rhythm || endsRhythm(a)) {
        const closed = close(a.sample, a.timeMs)
        if (closed) yield closed
      }
      if (rhythm) open = { rhythm, startSample: a.sample, startMs: a.timeMs }
    }
    const noteOf = (r: SidecarRow): Note => ({ ...clock.place(r, fs), symbol: r.symbol, aux: r.aux })
    /** The sidecar rows before sample `end`, as beats and rhythms. */
    async function* sidecarUntil(end: number): AsyncGenerator<Item> {
      const s = sidecar!
      for (;;) {
        if (!s.next) {
          const r = await s.rows.next()
          if (r.done) return
          s.next = r.value
        }
        const note = noteOf(s.next)
        if (note.sample >= end) return
        if (note.sample < s.lastSample) throw sidecarError(s.file, s.next.line, s.next.sample === null ? 'time_ms' : 'sample', `expected rows in time order, found sample ${note.sample} after sample ${s.lastSample}; sort the sidecar by time`)
        s.lastSample = note.sample
        s.next = null
        // A row that makes no beat (a rhythm change, a note), or says more than its beat does,
        // passes on as an annotation too; a day of beats does not (a beat item carries its row).
        if (!(ctx.options.beats && aamiClass(note.symbol)) || note.aux !== '') {
          const annotation: AnnotationItem = { kind: 'annotation', recordId: ctx.recordId, source: 'reference', origin: 'sidecar', ...note }
          yield annotation
        }
        yield* fromNote(note)
      }
    }

    try {
      for await (const input of source) {
        let item: Item = input
        if (item.kind === 'recording' && !seenRecording) {
          seenRecording = true
          const rec = item
          fs = rec.fs
          // A sidecar is one file for one recording file: for a record of several parts it would
          // cover part 0 only and hide the other parts' annotations, so it is not looked for.
          if (ctx.record.parts && ctx.options.sidecar !== 'none' && ctx.options.sidecar !== 'auto') {
            throw new PipelineError('E_CONFIG_VALUE', `annotate option sidecar "${ctx.options.sidecar}": record ${ctx.recordId} is made of ${ctx.record.parts.length} parts and a sidecar covers one file; use sidecar: none (each part's embedded annotations are read)`, { field: 'sidecar' })
          }
          const found = ctx.record.parts ? null : await findSidecar(ctx.options.sidecar, recordingPath(rec.file, ctx.record))
          if (found) {
            sidecar = { file: found.file, rows: readSidecarRows(found.file, ctx.signal), next: null, lastSample: 0 }
            item = { ...rec, annotationSidecar: found.file } satisfies RecordingItem
            if (found.others.length) ctx.warn('W_SIDECAR_AMBIGUOUS', `reference annotations are read from ${found.file}; ${found.others.join(', ')} beside it ${found.others.length > 1 ? 'are' : 'is'} ignored (name one with the annotate option sidecar)`)
          }
        } else if (item.kind === 'block') {
          const b = item
          fs = b.fs
          const end = b.startSample + (b.leads[0]?.length ?? 0)
          if (!seenRecording && ctx.options.sidecar !== 'auto' && ctx.options.sidecar !== 'none') {
            throw new PipelineError('E_CONFIG_VALUE', `annotate option sidecar "${ctx.options.sidecar}": expected the recording item the read stage emits before the signal, found a block first; put annotate after read`, { field: 'sidecar' })
          }
          if (sidecar) yield* sidecarUntil(end)
          endSample = Math.max(endSample, end)
        } else if (item.kind === 'gap') {
          clock.addGap(item)
        }
        yield item
        if (item.kind !== 'annotation' || item.source !== 'reference') continue
        if (sidecar) embeddedIgnored++
        else yield* fromNote(item)
      }
      if (sidecar) {
        const s = sidecar
        let dropped = s.next ? 1 : 0
        while (!(await s.rows.next()).done) dropped++
        if (dropped > 0) ctx.warn('W_ANNOTATIONS_DROPPED', `${dropped} reference annotations of ${s.file} at or after sample ${endSample}, past the end of the signal read, were dropped`)
        if (embeddedIgnored > 0 && ctx.options.sidecar === 'auto') {
          ctx.warn('W_SIDECAR_REPLACES', `${embeddedIgnored} reference annotations embedded in the recording passed through without making beats or rhythms: the sidecar ${s.file} found beside it is the reference (set the annotate option sidecar to "none" to use the embedded ones)`)
        }
      }
    } finally {
      await sidecar?.rows.return(undefined)
    }
    // The last episode ends with the signal (its time from the sample count, gaps aside).
    const last = open as { startSample: number; startMs: number } | null
    if (last) {
      const end = Math.max(endSample, last.startSample)
      const endMs = fs > 0 ? Math.max(last.startMs, Math.round((last.startMs + ((end - last.startSample) / fs) * 1000) * 1000) / 1000) : last.startMs
      const closed = close(end, endMs)
      if (closed) yield closed
    }
  },
})

/** The recording's file as an absolute path: the read stage writes it as the dataset gave it. */
function recordingPath(file: string, record: RecordSpec): string {
  if (path.isAbsolute(file)) return file
  return file === record.source ? record.path : path.resolve(file)
}
