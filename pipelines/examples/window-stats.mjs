// An example custom stage in plain JavaScript, exported as a factory: the runner calls the
// default export with the stage's options and uses the stage it returns. It adds one
// `window-stats` item per window (min, max and mean of each lead, in mV).

/** @param {{ decimals?: number }} options */
export default function windowStats(options = {}) {
  const scale = 10 ** (options.decimals ?? 3)
  const round = (x) => Math.round(x * scale) / scale
  return {
    name: 'window-stats',
    version: 1,
    async *transform(source, ctx) {
      for await (const item of source) {
        yield item
        if (item.kind !== 'window') continue
        const leads = item.samples.map((s, i) => {
          let min = Infinity
          let max = -Infinity
          let sum = 0
          for (const v of s) {
            if (v < min) min = v
            if (v > max) max = v
            sum += v
          }
          return { label: item.labels[i], min: round(min), max: round(max), mean: round(sum / s.length) }
        })
        yield { kind: 'window-stats', recordId: ctx.recordId, index: item.index, startMs: item.startMs, leads }
      }
    },
  }
}
