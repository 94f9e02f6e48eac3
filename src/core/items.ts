// The tagged items that flow through a record's stream (design.md "The flow"). Stages act on
// the kinds they know and pass every other item through untouched. Every item carries its
// recordId and an absolute sample position so errors, checkpoints and progress can say where.

/** A run of samples of the selected leads, in mV, all leads at one sampling rate. */
export interface SampleBlock {
  kind: 'block'
  recordId: string
  /** Sampling rate in Hz. */
  fs: number
  /** Index of the first sample of this block from the start of the recording. */
  startSample: number
  /** Lead labels, same order as `leads`. */
  labels: string[]
  /** One Float32Array per lead, equal lengths, physical values in mV (NaN for invalid samples). */
  leads: Float32Array[]
}

/** Facts about a recording, emitted once by the read stage before its first block. */
export interface RecordingItem {
  kind: 'recording'
  recordId: string
  format: 'EDF' | 'EDF+C' | 'EDF+D' | 'BDF' | 'BDF+C' | 'BDF+D' | 'WFDB'
  file: string
  /** ISO 8601 start time without zone (recordings carry local time), or null when unknown. */
  startTime: string | null
  fs: number
  durationSec: number
  totalSamples: number
  labels: string[]
  units: string
  patient?: Record<string, unknown>
  /** How many files (parts) the record was read from, when more than one. */
  parts?: number
  /**
   * Set by the annotate stage when a sidecar file is the reference: its path. The recording's own
   * annotations then pass through but are not the reference (the sidecar's rows follow as
   * `annotation` items with origin "sidecar").
   */
  annotationSidecar?: string
}

/** A reference annotation (beat label, rhythm change, note) read from the recording's files or its sidecar. */
export interface AnnotationItem {
  kind: 'annotation'
  recordId: string
  source: 'reference'
  /** "sidecar": a row of the sidecar file the annotate stage reads; absent: the recording's own (WFDB annotator, EDF+ TALs). */
  origin?: 'sidecar'
  /** Sample index at the recording's selected sampling rate. */
  sample: number
  /** Milliseconds from the start of the recording. */
  timeMs: number
  /** Beat or annotation symbol (MIT code mnemonic such as N, V, +, ~), or the EDF+ text. */
  symbol: string
  /** Auxiliary text, e.g. a rhythm such as "(AFIB"; empty when none. */
  aux: string
  /** Duration in ms for EDF+ annotations that have one. */
  durationMs?: number
  subtype?: number
  chan?: number
  num?: number
}

/** A span with no signal (EDF+D discontinuity), in ms from the recording start. */
export interface GapItem {
  kind: 'gap'
  recordId: string
  startMs: number
  endMs: number
  /** Sample index (in the continuous numbering of the emitted blocks) at which the gap falls. */
  atSample: number
}

/** A sliding window made by the segment stage. */
export interface WindowItem {
  kind: 'window'
  /** `<recordId>:w<index>`. */
  id: string
  recordId: string
  index: number
  startSample: number
  startMs: number
  fs: number
  lengthSamples: number
  /** Samples from one window's start to the next one's (the segment stage's step). */
  stepSamples?: number
  labels: string[]
  samples: Float32Array[]
}

/** A beat with its AAMI class, from the reference annotations or from a detector. */
export interface BeatItem {
  kind: 'beat'
  recordId: string
  source: 'reference' | 'detector'
  sample: number
  timeMs: number
  /** AAMI class: N (normal/other), S (supraventricular ectopic), V (ventricular ectopic), F (fusion), Q (unclassifiable). */
  label: 'N' | 'S' | 'V' | 'F' | 'Q'
  /** The original label (MIT mnemonic) when there is one. */
  symbol?: string
  /** Detector beats: the lead detected on (its label, and its index among the block's leads, which
   * tells apart two leads of the same label), the RR interval before the beat (ms; null after a
   * start or gap) and the classifier's features (numbers, see src/dsp/beat-classifier.ts). */
  lead?: string
  leadIndex?: number
  rrMs?: number | null
  [feature: string]: unknown
}

/** A rhythm episode, from its rhythm-change annotation to its end marker, the next change or the end of the record; emitted when it closes. */
export interface RhythmItem {
  kind: 'rhythm'
  /** `<recordId>:rh:<startSample>`. */
  id: string
  recordId: string
  source: 'reference' | 'detector'
  /** Rhythm name without the MIT parenthesis: N, AFIB, AFL, B, T, VT, SVTA, P, ... */
  rhythm: string
  startSample: number
  startMs: number
  endSample: number
  endMs: number
}

/** Signal quality of one lead over a quality window (see src/dsp/signal-quality.ts for the checks). */
export interface LeadQuality {
  label: string
  /** The lead's position among the block's leads (0-based): tells apart two leads of one label. */
  index: number
  /** Empty when the lead looks usable. */
  flags: ('invalid' | 'flat' | 'saturated' | 'noisy')[]
  invalidPct: number
  flatPct: number
  saturatedPct: number
  slopeKurtosis: number | null
}

/** A window of the record assessed by the quality stage, emitted before the block that completes it. */
export interface QualityItem {
  kind: 'quality'
  /** `<recordId>:q<index>`. */
  id: string
  recordId: string
  index: number
  startSample: number
  /** One past the last sample of the window. */
  endSample: number
  startMs: number
  endMs: number
  leads: LeadQuality[]
}

// Kinds that mark a point of the signal: a stage that regroups samples (clean) may move them
// to just before the block holding their position, as the read stage places annotations. Other
// kinds (a gap above all) stay exactly between the samples before and after them.
const POINT_KINDS: ReadonlySet<string> = new Set(['annotation', 'beat', 'rhythm', 'quality', 'excerpt'])

/** Whether items of this kind mark a point of the signal (see POINT_KINDS). */
export function isPointMark(kind: string): boolean {
  return POINT_KINDS.has(kind)
}

/**
 * A rendered file or part of one: render-text's window (or excerpt) of a record's text file,
 * render-strip's PNG, render-video's MP4 (or one part of it). `path` is relative to the run
 * directory (posix separators); the span is the signal it shows. Yielded only once the file (or
 * the byte range `offset`..`offset + bytes` of it) is complete and readable under `path`.
 */
export interface RenderItem {
  kind: 'render'
  /** `<recordId>:<file under the record's media folder>`, plus `#w<index>` for a window's bytes of a text file. */
  id: string
  recordId: string
  format: 'text' | 'png' | 'mp4'
  path: string
  /** Bytes of this item's output: the window's text (at `offset` in the file), the PNG, the MP4. */
  bytes: number
  startSample: number
  endSample: number
  startMs: number
  endMs: number
  leads: string[]
  /** The ids of the items it shows (a window, an excerpt). */
  from?: string[]
  /** The excerpt it was made for. */
  of?: string
  [field: string]: unknown
}

/** Why an excerpt was chosen: its rule, and for `around` the event it is centred on. */
export interface ExcerptReason {
  rule: 'every' | 'around' | 'random' | string
  event?: { sample: number; timeMs: number; label: string; source: string; kind: 'beat' | 'rhythm' }
  [field: string]: unknown
}

/** A span of a record chosen by the excerpt stage; rendering, questions and model inputs refer to it by id. */
export interface ExcerptItem {
  kind: 'excerpt'
  /** `<recordId>:ex:<set>:<startSample>`. */
  id: string
  recordId: string
  /** The excerpt stage's set name: which renderers and question makers take it. */
  set: string
  startSample: number
  /** One past its last sample. */
  endSample: number
  startMs: number
  endMs: number
  fs: number
  reason: ExcerptReason
}

/** The summarize stage's Holter report figures of one record (fields: src/dsp/record-summary.ts). */
export interface SummaryItem {
  kind: 'summary'
  /** `<recordId>:summary`. */
  id: string
  recordId: string
  source: 'reference' | 'detector'
  [field: string]: unknown
}

/** The structured gold of a QA item (src/qa/draft.ts makes it): what scoring reads instead of the answer's sentence. */
export interface QaGold {
  /** The answer as a value: a count, a timestamp (ms), "yes"/"no", a diagnosis. */
  value?: number | string
  /** Closed tasks: the option texts in letter order and the index of the right one. */
  choices?: string[]
  correct?: number
  /** Event times in record ms, in time order (event timing). */
  timestampsMs?: number[]
  /** Findings present (diagnosis), by vocabulary name. */
  labels?: string[]
  /** The event asked about. */
  event?: string
  extremum?: 'fastest' | 'slowest'
  /** Which rate an extremum item asks: averaged over a window of beats, or one beat's RR interval. */
  basis?: 'average' | 'beat'
  /** The heart rate at the extreme (bpm), on that basis. */
  bpm?: number
  /** The unit of a numeric value (ms, years), and a class task's class name (the class id is `value`). */
  unit?: string
  className?: string
  /** Report figures (report tasks). */
  figures?: Record<string, unknown>
  /** The samples of the beats the answer rests on. */
  evidenceBeats: number[]
  /**
   * How the options were made and which block of its excerpt the item belongs to: a group sharing
   * one option set, a present/absent pair of excerpts (its questions about one finding), or decoys
   * exchangeable with the truth (its rank in time order as drawn); a diagnosis item's form (the
   * one option present, or the one absent).
   */
  design?: { distractors: 'group' | 'pair' | 'exchangeable'; group?: string; rank?: number; form?: 'present' | 'absent' }
}

/** What a model is given for a QA item, per modality, with the sizes a model's budget is checked against. */
export interface QaInputs {
  text?: { path: string; offset: number; bytes: number; tokens: number; fs: number; leads: string[]; values: number }
  images?: { paths: string[]; count: number; pixels: number; width: number; height: number }
  video?: { path: string; bytes: number; frames: number; fps: number; seconds: number; width: number; height: number }
}

/** A benchmark question about one excerpt (the qa stage; docs/qa.md). */
export interface QaItem {
  kind: 'qa'
  /** `<excerptId>:<task_type>:<k>`. */
  id: string
  recordId: string
  /** The case the split is decided by (the patient's id, else the record's). */
  caseId: string
  split: 'train' | 'valid' | 'test'
  taskType: string
  tier: string
  excerpt: { id: string; set: string; startSample: number; endSample: number; startMs: number; endMs: number }
  /** The public format's question (options inline) and answer. */
  question: string
  answer: string
  gold: QaGold
  inputs: QaInputs
  /** The excerpt and the render items the inputs are. */
  from: string[]
  /** When the qa stage's writer model was asked to write the answer: who, whether it was kept, and why not. */
  written?: { by: string; status: 'accepted' | 'rejected' | 'failed'; reason?: string; template?: string }
  /** The excerpt's span (the item is complete, like its inputs, once it has passed). */
  startSample: number
  endSample: number
}

/** The modality a model is shown an item in (baselines: `none`, they read no input file). */
export type Modality = 'text' | 'images' | 'video' | 'none'

/** Token counts of one call, as the server reported them. */
export interface Usage {
  inputTokens: number
  outputTokens: number
}

/** What the budget check did to an item's input (nothing is ever cut silently). */
export interface BudgetNote {
  policy: 'skip' | 'downsample' | 'fail'
  /** The limits that the input exceeded, with the input's size and the limit. */
  over: { limit: 'contextTokens' | 'maxImages' | 'maxFrames' | 'maxBytes'; size: number; max: number }[]
  /** For downsample: what was shown instead (text at a lower rate, fewer frames). */
  action?: string
}

/** A model's answer to one QA item (the infer stage; one per item and model). */
export interface PredictionItem {
  kind: 'prediction'
  /** `<qaId>@<model>`. */
  id: string
  recordId: string
  qaId: string
  taskType: string
  split: string
  model: string
  /** An API model's id on its server (its `model` option, e.g. gpt-4o-mini): the same model under two names, shown two modalities, is one model in the report's Table 11. */
  modelId?: string
  modality: Modality
  /** The model's raw text (empty after an error). */
  answer: string
  usage: Usage | null
  latencyMs: number
  /** The answer came from the cache (or a call for the same request already on the wire): no call was made for it now. */
  cached: boolean
  /** Calls made for it (0 for a baseline or a cached answer). */
  attempts: number
  /** The answer was cut at the model's maxTokens (finish_reason length). */
  truncated?: true
  /** `over-budget`, or the last call's error, with its code. */
  error?: { code: string; message: string; status?: number }
  budget?: BudgetNote
  /** The cache key of the request (sha256), so a prediction can be traced to its request. */
  requestKey?: string
  /** The excerpt's span (a prediction is positioned like its QA item). */
  startSample: number
  endSample: number
  from: string[]
}

/** "Nothing positioned before `sample` is still to come" (src/core/watermark.ts); never written. */
export interface WatermarkItem {
  kind: 'watermark'
  recordId: string
  sample: number
}

/**
 * The item kinds by name. A plugin that reads a kind of its own declares it here by declaration
 * merging, so `item.kind === 'rr'` narrows to its type:
 *   declare module 'holter-pipeline' { interface ItemKinds { rr: RrItem } }
 */
export interface ItemKinds {
  recording: RecordingItem
  block: SampleBlock
  annotation: AnnotationItem
  gap: GapItem
  beat: BeatItem
  rhythm: RhythmItem
  quality: QualityItem
  window: WindowItem
  excerpt: ExcerptItem
  render: RenderItem
  summary: SummaryItem
  qa: QaItem
  prediction: PredictionItem
  watermark: WatermarkItem
}

/**
 * An item a stage receives: one of the declared kinds, narrowed by `kind`. Items of kinds nobody
 * declared flow through too (pass them on); read them as AnyItem.
 */
export type Item = ItemKinds[keyof ItemKinds]

/** Any item as a stage may yield it: a `kind` of lower-case letters, digits, "-" or "_", and a recordId. */
export interface AnyItem {
  kind: string
  recordId: string
  [key: string]: unknown
}

/** @deprecated the name of AnyItem before item kinds were declared in ItemKinds. */
export type CustomItem = AnyItem
