// The built-in stages by name (the names a dataset's `stages:` list may use).
import type { Stage } from '../core/stage.ts'
import annotate from './annotate.ts'
import clean from './clean.ts'
import detect from './detect.ts'
import excerpt from './excerpt.ts'
import infer from './infer.ts'
import qa from './qa.ts'
import quality from './quality.ts'
import read from './read.ts'
import readRun from './read-run.ts'
import renderStrip from './render-strip.ts'
import renderText from './render-text.ts'
import renderVideo from './render-video.ts'
import segment from './segment.ts'
import summarize from './summarize.ts'

export const BUILTIN_STAGES: Record<string, Stage<any>> = {
  [annotate.name]: annotate,
  [clean.name]: clean,
  [detect.name]: detect,
  [excerpt.name]: excerpt,
  [infer.name]: infer,
  [qa.name]: qa,
  [quality.name]: quality,
  [read.name]: read,
  [readRun.name]: readRun,
  [renderStrip.name]: renderStrip,
  [renderText.name]: renderText,
  [renderVideo.name]: renderVideo,
  [segment.name]: segment,
  [summarize.name]: summarize,
}
