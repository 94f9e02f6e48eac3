// A small QA benchmark dataset for tests that need real QA items fast: bundled MIT-BIH records,
// 20-second stratified excerpts (set `qa-1min`, the bench's name), rendered in the modalities
// asked for, and every task asked about them.
import path from 'node:path'
import { ROOT } from './shared.ts'

export interface SmallBench {
  name?: string
  /** Bundled WFDB records by name (default ['100']). */
  records?: string[]
  /** The modalities drawn and required (default all three). */
  inputs?: ('text' | 'images' | 'video')[]
  /** The qa stage's split option (default: its own). */
  split?: Record<string, unknown>
  /** 20-second excerpts per hour of record (default 30: each excerpt hosts one block of questions, so a record needs several). */
  perHour?: number
}

/** The dataset's YAML text. */
export function smallBenchYaml(o: SmallBench = {}): string {
  const inputs = o.inputs ?? ['text', 'images', 'video']
  const renders = {
    text: '  {use: render-text, options: {windows: false, excerpts: [qa-1min], rate: 100, leads: [0], file: qa-text.txt}},',
    images: '  {use: render-strip, options: {windows: false, excerpts: [qa-1min], excerptTileSec: 10, markers: none}},',
    video: '  {use: render-video, options: {windows: false, clips: {excerpts: [qa-1min], stepSec: 2, windowSec: 10}, fps: 5, markers: none}},',
  }
  return [
    `name: ${o.name ?? 'bench'}`,
    'records:',
    ...(o.records ?? ['100']).map((r) => `  - path: ${path.join(ROOT, 'samples/mitdb', r)}`),
    'stages: [read, annotate, quality, clean, detect,',
    `  {use: excerpt, options: {set: qa-1min, stratified: {lengthSec: 20, perHour: ${o.perHour ?? 30}, seed: 1}}},`,
    ...inputs.map((m) => renders[m]),
    `  {use: qa, options: {seed: 1, ${o.split ? `split: ${JSON.stringify(o.split)}, ` : ''}sets: {qa-1min: {tasks: all, inputs: [${inputs.join(', ')}]}}}}]`,
    '',
  ].join('\n')
}
