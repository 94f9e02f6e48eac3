// `convert --clean`: the ECG leads through the project's own `read` and `clean` stages (NeuroKit2
// ecg_clean: 0.5 Hz Butterworth high-pass, zero phase, then the powerline moving average), written
// as EDF+C in the input's signal order with the input's annotations. Three passes over the
// samples, none holding the recording: one measures each lead's span (its physical range, see
// convert-scale.ts), one (the annotations' sizing) reads TALs only, one cleans and writes. The two
// stages are chained directly: the chain is pulled by the file writer's `pipeline`, which gives
// backpressure and abort; the readers close their files when the chain ends or fails.
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { Item } from '../core/items.ts'
import type { RecordSpec } from '../core/record.ts'
import type { StageContext } from '../core/stage.ts'
import { localStageContext } from '../run/local-context.ts'
import type { EdfWriteSignal, EdfWriteSpec } from '../formats/edf-writer.ts'
import { looksLikeEcg } from '../formats/edf-select.ts'
import { selectWfdbSignals } from '../formats/wfdb-select.ts'
import read from '../stages/read.ts'
import clean, { type CleanOptions } from '../stages/clean.ts'
import { parseReadOptions } from '../readers/read-options.ts'
import type { ReadContext } from '../readers/read-context.ts'
import { asciiText, edfIdentityOf, recordDurationFor } from './convert-header.ts'
import { openEdfInput } from './convert-edf.ts'
import { readEdfTals, readFirstOnset, recordsToRead } from './convert-edf-read.ts'
import { openWfdbInput, readWfdbTals, wfdbIdentity } from './convert-wfdb.ts'
import { cleanGainBound, createQuantiser, roundUpRange, type Quantiser } from './convert-scale.ts'
import type { ConvertPlan, SourcedTal } from './convert-plan.ts'
import { count } from './plural.ts'

interface LeadInfo { label: string; transducer: string; unit: string; prefiltering: string }

/** What the clean plan needs from either input format. */
interface CleanInput {
  spec: RecordSpec
  fs: number
  spr: number
  total: number
  leads: LeadInfo[]
  layout: ConvertPlan['layout']
  identity: Pick<EdfWriteSpec, 'start' | 'patient' | 'recording'>
  annotations(ctx: ReadContext): AsyncGenerator<SourcedTal>
}

/** The EDF+ prefiltering text of the clean chain, e.g. 'HP:0.5Hz BW5 zero-phase MA:50Hz'. */
export function cleanPrefiltering(o: CleanOptions): string {
  return `HP:${o.highpassHz}Hz BW${o.order} ${o.zeroPhase ? 'zero-phase' : 'causal'} MA:${o.powerlineHz}Hz`
}

/** The ECG leads of `input`, cleaned; `powerlineHz` sets the moving average. */
export async function planClean(input: string, format: 'edf' | 'wfdb', opts: { annotator: string | false; powerlineHz: number }, ctx: ReadContext): Promise<ConvertPlan> {
  const options = clean.parseOptions!({ powerlineHz: opts.powerlineHz }, { file: '(command line)', yamlPath: '--powerline' })
  const src = format === 'edf' ? await edfInput(input, opts.annotator !== false, ctx) : await wfdbInput(input, opts.annotator, ctx)
  const readOptions = parseReadOptions({ annotations: false }, { file: '(convert)', yamlPath: 'read' })
  const stageCtx = <O>(o: O, c: ReadContext): StageContext<O> => localStageContext(src.spec, o, { signal: c.signal, warn: (code, m) => c.warn(code, m), what: '`pipeline convert`' })
  // The read stage repeats the truncation warning already given; the rest (e.g. W_UNIT) is passed on once.
  const once: ReadContext = { signal: ctx.signal, warn: (code, m) => code !== 'E_TRUNCATED' && ctx.warn(code, m) }
  const quiet: ReadContext = { signal: ctx.signal, warn: () => undefined }
  const readItems = (c: ReadContext) => read.transform((async function* (): AsyncGenerator<Item> {})(), stageCtx(readOptions, c)) as AsyncIterable<Item>
  let qs: Quantiser[] = []
  const prefilter = cleanPrefiltering(options)
  return {
    layout: src.layout,
    annotations: src.annotations,
    async header() {
      const lo = src.leads.map(() => Infinity)
      const hi = src.leads.map(() => -Infinity)
      for await (const item of readItems(once)) {
        if (item.kind !== 'block') continue
        item.leads.forEach((x, l) => {
          for (let i = 0; i < x.length; i++) {
            if (x[i] < lo[l]) lo[l] = x[i]
            if (x[i] > hi[l]) hi[l] = x[i]
          }
        })
      }
      const bound = cleanGainBound(options, src.fs) / 2
      qs = src.leads.map((_, l) => createQuantiser(roundUpRange(bound * (hi[l] > lo[l] ? hi[l] - lo[l] : 0))))
      const signals: EdfWriteSignal[] = src.leads.map((s, l) => ({
        label: s.label, transducer: s.transducer, physicalDimension: s.unit, physicalMin: -qs[l].range, physicalMax: qs[l].range,
        digitalMin: -32767, digitalMax: 32767, prefiltering: (s.prefiltering ? `${s.prefiltering} ${prefilter}` : prefilter).slice(-80), samplesPerRecord: src.spr,
      }))
      return { ...src.identity, recordDurationSec: src.layout.recordDurationSec, recordCount: src.layout.recordCount, signals }
    },
    async *records() {
      const { spr, total } = src
      const buf = src.leads.map(() => new Float32Array(spr))
      const emit = () => buf.map((b, l) => {
        const out = new Int32Array(spr)
        qs[l].quantise(b, out)
        return out
      })
      let fill = 0
      let at = 0
      for await (const item of clean.transform(readItems(quiet), stageCtx(options, quiet)) as AsyncIterable<Item>) {
        if (item.kind !== 'block') continue
        const b = item
        if (b.startSample !== at) throw new PipelineError('E_INTERNAL', `convert --clean: expected cleaned samples from ${at}, found a block at ${b.startSample}; report this`, { file: input })
        const n = b.leads[0].length
        for (let o = 0; o < n; ) {
          const k = Math.min(spr - fill, n - o)
          buf.forEach((x, l) => x.set(b.leads[l].subarray(o, o + k), fill))
          ;[fill, o] = [fill + k, o + k]
          if (fill === spr) {
            yield emit()
            fill = 0
          }
        }
        at += n
      }
      if (at !== total) throw new PipelineError('E_TRUNCATED', `${input}: expected ${total} samples per lead, read ${at}; the input changed while being converted, convert it again`, { file: input })
      if (fill > 0) {
        buf.forEach((x) => x.fill(x[fill - 1], fill))
        yield emit()
      }
      qs.forEach((q, l) => {
        const label = JSON.stringify(src.leads[l].label)
        if (q.clipped) ctx.warn('W_CLIPPED', `${count(q.clipped, 'cleaned sample')} of ${label} ${q.clipped === 1 ? 'was' : 'were'} beyond the physical range +-${q.range} ${src.leads[l].unit} and ${q.clipped === 1 ? 'was' : 'were'} clipped to it`)
        if (q.invalid) ctx.warn('W_INVALID_SAMPLES', `${count(q.invalid, 'sample')} of ${label} ${q.invalid === 1 ? 'was' : 'were'} invalid in the input (NaN after cleaning) and ${q.invalid === 1 ? 'is' : 'are'} written as 0 ${src.leads[l].unit}`)
      })
    },
    report: () => [`cleaned: ${prefilter}; ${src.leads.map((s, l) => `${JSON.stringify(s.label)} +-${qs[l].range} ${s.unit} in 16 bits, step ${formatStep(qs[l].step, s.unit)}`).join(', ')}`],
  }
}

function formatStep(step: number, unit: string): string {
  return unit === 'mV' ? `${(step * 1000).toPrecision(3)} uV` : `${step.toPrecision(3)} ${unit}`
}

function noEcg(file: string, what: string, signals: string, cause?: unknown): PipelineError {
  return new PipelineError('E_NO_ECG', `${file}: convert --clean cleans the ECG leads (one sampling rate), ${what}; the signals are: ${signals}; relabel the ECG signals (ECG/EKG or a lead name such as II or V1), or convert without --clean to copy every signal unchanged`, { file, field: 'label' }, { cause })
}

async function edfInput(input: string, keep: boolean, ctx: ReadContext): Promise<CleanInput> {
  const h = await openEdfInput(input, true, ctx)
  const list = h.signals.filter((s) => !s.isAnnotation).map((s) => `${s.index} ${JSON.stringify(s.label)} (${s.sampleRate} Hz)`).join(', ')
  const ecg = h.signals.filter(looksLikeEcg)
  if (ecg.length === 0) throw noEcg(input, 'found none', list)
  if (new Set(ecg.map((s) => s.sampleRate)).size > 1) throw noEcg(input, 'found ECG leads at different sampling rates', list)
  const dur = h.recordDurationSec
  const recordCount = recordsToRead(h)
  const onset0Sec = await readFirstOnset(h, ctx.signal)
  return {
    spec: { id: path.basename(input), path: input, format: 'edf', leads: ecg.map((s) => s.index), annotator: false, annotatorExplicit: false },
    fs: ecg[0].sampleRate, spr: ecg[0].samplesPerRecord, total: recordCount * ecg[0].samplesPerRecord,
    leads: ecg.map((s) => ({ label: asciiText(s.label), transducer: asciiText(s.transducer), unit: s.toMv !== null ? 'mV' : asciiText(s.physicalDimension), prefiltering: asciiText(s.prefiltering) })),
    layout: { recordDurationSec: dur, recordCount, onset0Sec },
    identity: edfIdentityOf(h),
    annotations: (c) => readEdfTals(h, onset0Sec, dur, keep, c),
  }
}

async function wfdbInput(input: string, annotator: string | false, ctx: ReadContext): Promise<CleanInput> {
  let leads: number[] = []
  const w = await openWfdbInput(input, annotator, ctx, (h) => {
    try {
      return (leads = selectWfdbSignals(h))
    } catch (err) {
      if (!(err instanceof PipelineError) || err.code !== 'E_NO_ECG') throw err
      throw noEcg(h.file, 'found none', h.signals.map((s) => `${s.index} ${JSON.stringify(s.label)}`).join(', '), err)
    }
  })
  const fs = w.header.fs
  const dur = recordDurationFor(fs, w.header.file)
  const spr = Math.round(fs * dur)
  return {
    spec: { ...w.spec, leads }, fs, spr, total: w.total,
    leads: leads.map((i) => w.header.signals[i]).map((s) => ({ label: asciiText(s.label), transducer: 'ECG electrode', unit: s.unitsKnown ? 'mV' : asciiText(s.units), prefiltering: '' })),
    layout: { recordDurationSec: dur, recordCount: Math.ceil(w.total / spr), onset0Sec: 0 },
    identity: wfdbIdentity(w),
    annotations: (c) => readWfdbTals(w, spr, c),
  }
}
