// The item flow of `read -> clean -> detect -> summarize` on the 24 h benchmark file with no
// signal processing at all: the architecture's floor (bench/flow-floor.ts runs it). A plugin
// stage (a factory, see src/config/plugins.ts) with three roles:
// - source: emits what the read stage emits for the 24 h file (a recording item, 8,640 blocks of
//   10 s of one lead at 360 Hz, each a fresh Float32Array, and 108,768 annotations, each just
//   before the block that holds it), without reading or decoding anything;
// - pass: hands every item on, as clean and summarize do at the least;
// - beats: hands every item on and, after each block, one beat item per 0.795 s of it (108,720
//   in all), with the fields and value kinds the detect stage writes.
const FS = 360
const BLOCK = 10 * FS
const BLOCKS = 8640
const ANNOTATIONS = 108768
const BEATS = 108720
const TOTAL = BLOCK * BLOCKS

function source(ctx, options) {
  const annotations = options.annotations ?? ANNOTATIONS
  return async function* (input) {
    for await (const item of input) yield item
    const recordId = ctx.recordId
    yield { kind: 'recording', recordId, format: 'EDF+C', file: 'flow-floor', startTime: null, fs: FS, durationSec: TOTAL / FS, totalSamples: TOTAL, labels: ['ECG MLII'], units: 'mV' }
    let a = 0
    for (let b = 0; b < BLOCKS; b++) {
      const end = (b + 1) * BLOCK
      for (; a < annotations; a++) {
        const sample = Math.floor((a * TOTAL) / annotations)
        if (sample >= end) break
        yield { kind: 'annotation', recordId, source: 'reference', sample, timeMs: Math.round((sample * 1e6) / FS) / 1e3, symbol: 'N', aux: '' }
      }
      yield { kind: 'block', recordId, fs: FS, startSample: b * BLOCK, labels: ['ECG MLII'], leads: [new Float32Array(BLOCK)] }
    }
  }
}

function beats(ctx, options) {
  const total = options.beats ?? BEATS
  return async function* (input) {
    let n = 0
    for await (const item of input) {
      yield item
      if (item.kind !== 'block') continue
      const end = item.startSample + item.leads[0].length
      for (; n < total; n++) {
        const sample = Math.floor((n * TOTAL) / total) + 77
        if (sample >= end) break
        const label = n % 70 === 0 ? 'S' : 'N'
        yield { kind: 'beat', recordId: ctx.recordId, source: 'detector', sample, timeMs: Math.round((sample * 1e6) / FS) / 1e3, label, lead: 'ECG MLII', leadIndex: 0, rrMs: n ? 794 + (n % 7) : null, qrsSpanMs: n ? 40 + (n % 3) * 3 : null, templateCorr: n ? 0.98 + (n % 5) / 1000 : null }
      }
    }
  }
}

const pass = () =>
  async function* (input) {
    for await (const item of input) yield item
  }

const roles = { source, pass, beats }

export default (options) => {
  const make = roles[options?.role]
  if (!make) throw new Error(`flow-floor: options.role must be one of ${Object.keys(roles).join(', ')}, found ${JSON.stringify(options?.role)}`)
  return { name: `flow-floor-${options.role}`, version: 1, transform: (input, ctx) => make(ctx, options)(input) }
}
