// `read-run`: the source of a run over an earlier run (a dataset's `input: {run, kinds}`; the
// runner puts this stage first). Each record streams the lines of the chosen kinds that the
// earlier run wrote for it, in the order they were written, with the watermarks between them
// (src/run/input-run.ts), so the stages after it see the record as the earlier run's last stage
// did, without reading the recording again. Render items name the earlier run's media files
// by paths relative to this run (ctx.media.read opens them).
import { defineStage } from '../core/stage.ts'
import { PipelineError } from '../core/errors.ts'
import { parseOptionsWith, z } from '../core/stage-options.ts'
import { inputRunKey, openInputRun } from '../run/input-run.ts'

const schema = z.strictObject({
  /** The earlier run's directory (absolute once the dataset is loaded). */
  run: z.string().min(1),
  /** The item kinds to stream (`window`, `beat`, `render`, ...). */
  kinds: z.array(z.string().regex(/^[a-z][a-z0-9_-]*$/)).min(1),
})

export type ReadRunOptions = z.infer<typeof schema>

export default defineStage<ReadRunOptions>({
  name: 'read-run',
  version: 1,
  parseOptions: (raw, where) => parseOptionsWith(schema, raw, where),
  async *transform(source, ctx) {
    for await (const item of source) yield item
    const input = await ctx.run.once(inputRunKey(ctx.options.run), () => openInputRun(ctx.options.run))
    const record = input.record(ctx.recordId)
    if (!record) throw new PipelineError('E_INPUT_RUN', `record ${ctx.recordId} is not a finished record of the input run ${input.dir}`, { file: input.dir })
    yield* input.items(record, new Set(ctx.options.kinds), ctx.runDir, ctx.signal)
  },
})
