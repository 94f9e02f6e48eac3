// The qa stage's checks against the rest of a dataset, when it is loaded ("Inputs"):
// every set it asks about is made by an excerpt stage, every modality it requires is drawn for
// that set by a render stage, and the set's excerpts fit the budgets: text tokens (render-text's
// values x tokens per value, where its rate is given; without one the rate is the recording's,
// known only when it is read, and each excerpt is checked then), strips per excerpt
// (render-strip's tiles) and clip frames (render-video's clips); and every case pinned to a
// split is one of the dataset's records' cases. Pure: stage options in, messages out.
import type { PlannedDataset, PlannedStage } from '../core/stage.ts'
import { clipFrames } from '../sinks/video-clips.ts'
import { unknownPins, type SplitPins } from './splits.ts'

interface QaPlanOptions {
  sets: Record<string, { inputs: string[] }>
  budgets: { maxTextTokens?: number; maxImages?: number; maxFrames?: number }
  split?: { pin?: SplitPins }
}

type Opts = Record<string, any>

const setsOf = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [String(v)])

/** The longest excerpt (seconds) an excerpt stage's rule makes. */
function excerptSec(o: Opts): number {
  if (o.every) return o.every.lengthSec
  if (o.random) return o.random.lengthSec
  if (o.stratified) return o.stratified.lengthSec
  if (o.whole) return o.whole.maxSec
  const pad = o.around?.padSec
  return typeof pad === 'number' ? 2 * pad : pad[0] + pad[1]
}

/** Tokens of one value of render-text's usual layout at `decimals`: its integer part, the point, the decimals in threes, the separator (and sign). */
export function tokensPerValue(decimals: number): number {
  return decimals === 0 ? 2 : 3 + Math.ceil(decimals / 3)
}

/** The problems of the qa stage at `self` among `stages`, and of its pinned cases among the dataset's records when they are known. */
export function qaPlanProblems(stages: readonly PlannedStage[], self: number, dataset: PlannedDataset = { cases: null }): string[] {
  const o = stages[self].options as QaPlanOptions
  const before = stages.slice(0, self)
  const of = (name: string) => before.filter((s) => s.name === name).map((s) => s.options as Opts)
  const out: string[] = []
  if (o.split?.pin && dataset.cases) out.push(...unknownPins(o.split.pin, dataset.cases))
  for (const [set, spec] of Object.entries(o.sets)) {
    const makers = of('excerpt').filter((x) => (x.set ?? 'excerpts') === set)
    if (!makers.length) {
      out.push(`qa option sets.${set}: no excerpt stage before qa makes set "${set}"; add {use: excerpt, options: {set: ${set}, stratified: {lengthSec: 60, perHour: 20}}} before the render stages`)
      continue
    }
    const sec = Math.max(...makers.map(excerptSec))
    const text = of('render-text').find((x) => setsOf(x.excerpts).includes(set))
    const strip = of('render-strip').find((x) => setsOf(x.excerpts).includes(set))
    const clipOf = (x: Opts) => (x.clips as Opts[] | undefined)?.find((c) => setsOf(c.excerpts).includes(set))
    const videoStage = of('render-video').find((x) => clipOf(x))
    const video = videoStage ? { clips: clipOf(videoStage)! } : undefined
    const drawn: Record<string, [Opts | undefined, string]> = { text: [text, 'render-text with excerpts'], images: [strip, 'render-strip with excerpts'], video: [video, 'render-video with clips.excerpts'] }
    // A model's strips or clips must not carry the reference's beat labels: they are the gold.
    // With the detector's beats as the gold (source detector, or auto on a record without reference), its markers are the gold too.
    const detectorGold = (o as { source?: string }).source === 'detector' || (o as { source?: string }).source === 'auto'
    for (const [m, x, name] of [['images', strip, 'render-strip'], ['video', videoStage, 'render-video']] as const) {
      const markers = (x?.markers as string | undefined) ?? 'all'
      if (spec.inputs.includes(m) && x && detectorGold && markers === 'detector') out.push(`qa option sets.${set}.inputs asks for ${m}, but ${name} draws set "${set}" with markers: detector while qa's source (${(o as { source?: string }).source}) takes the gold from the detector's beats: their labels are the gold; give ${name} markers: none`)
      if (spec.inputs.includes(m) && x && (markers === 'all' || markers === 'reference')) out.push(`qa option sets.${set}.inputs asks for ${m}, but ${name} draws set "${set}" with markers: ${markers}, which prints the reference's beat labels (the gold) on the model's input; give ${name} markers: none (or detector)`)
    }
    for (const m of spec.inputs) if (!drawn[m][0]) out.push(`qa option sets.${set}.inputs asks for ${m}, but no ${drawn[m][1]} naming "${set}" comes before qa; add one, or leave ${m} out of inputs`)
    const b = o.budgets
    if (b.maxTextTokens !== undefined && text?.rate !== undefined) {
      const leads = (text.leads ?? [0]).length
      const tokens = Math.round(sec * text.rate) * leads * tokensPerValue(text.decimals ?? 3)
      if (tokens > b.maxTextTokens) out.push(`qa option budgets.maxTextTokens (${b.maxTextTokens}): the excerpts of set "${set}" (${sec} s) are written by render-text at ${text.rate} Hz, ${leads} lead${leads > 1 ? 's' : ''}, about ${tokens} tokens; shorten the excerpts, lower render-text's rate or raise the budget`)
    }
    if (b.maxImages !== undefined && strip) {
      const images = strip.excerptTileSec ? Math.ceil(sec / strip.excerptTileSec - 1e-9) : 1
      if (images > b.maxImages) out.push(`qa option budgets.maxImages (${b.maxImages}): the excerpts of set "${set}" (${sec} s) are drawn by render-strip as ${images} strips of ${strip.excerptTileSec} s; lengthen excerptTileSec, shorten the excerpts or raise the budget`)
    }
    if (b.maxFrames !== undefined && video) {
      // Frames do not depend on the rate: a clip steps stepSec at a time across the excerpt.
      const frames = clipFrames(sec * 1000, 1000, video.clips.windowSec ?? 10, video.clips.stepSec ?? 0.5).count
      if (frames > b.maxFrames) out.push(`qa option budgets.maxFrames (${b.maxFrames}): the clips of set "${set}" (${sec} s, a frame every ${video.clips.stepSec ?? 0.5} s) have ${frames} frames; raise clips.stepSec, shorten the excerpts or raise the budget`)
    }
  }
  return out
}
