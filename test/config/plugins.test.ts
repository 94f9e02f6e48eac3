import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isStagePath, loadPluginStage, resolveStages } from '../../src/config/plugins.ts'
import { BUILTIN_STAGES } from '../../src/stages/index.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { pipelineRejection } from '../helpers/thrown.ts'

const dataset = path.join(ROOT, 'pipelines/examples/custom-stages.yaml')

describe('stage plugins', () => {
  const dir = tmpDir()
  const write = (name: string, text: string) => {
    const f = path.join(dir, name)
    writeFileSync(f, text)
    return f
  }

  it('tells paths from built-in names', () => {
    expect(isStagePath('./x.ts')).toBe(true)
    expect(isStagePath('/abs/x.mjs')).toBe(true)
    expect(isStagePath('plugins/x.js')).toBe(true)
    expect(isStagePath('segment')).toBe(false)
  })

  it('resolves built-ins and the bundled TypeScript and JavaScript examples with their options', async () => {
    const stages = await resolveStages([
      { use: 'read', options: {}, yamlPath: 'stages[0]' },
      { use: './rr-intervals.ts', options: { maxRrMs: 2500 }, yamlPath: 'stages[1]' },
      { use: './window-stats.mjs', options: { decimals: 2 }, yamlPath: 'stages[2]' },
    ], dataset, BUILTIN_STAGES)
    expect(stages.map((s) => s.stage.name)).toEqual(['read', 'rr-intervals', 'window-stats'])
    expect(stages[0].source).toBe('builtin')
    expect(stages[1].options).toEqual({ maxRrMs: 2500 })
    expect(stages[1].sourceHash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('lists the built-ins for an unknown stage name', async () => {
    await expect(resolveStages([{ use: 'segmnt', options: {}, yamlPath: 'stages[1]' }], dataset, BUILTIN_STAGES)).rejects.toMatchObject({
      code: 'E_STAGE_UNKNOWN', message: expect.stringContaining('built-in stages: annotate, clean, detect, excerpt, infer, qa, quality, read, read-run, render-strip, render-text, render-video, segment, summarize'), context: { yamlPath: 'stages[1]' },
    })
  })

  it.each([
    ['no default export', 'export const x = 1\n', /found no default export/],
    ['a default export without transform', 'export default { name: "x", version: 1 }\n', /stage "x" has no "transform" function/],
    ['a default export without a name', 'export default { version: 1, transform() {} }\n', /found no string "name"/],
    ['a factory returning nothing', 'export default () => undefined\n', /found no default export/],
    ['a factory that throws', 'export default () => { throw new Error("bad options") }\n', /factory \(default export\) threw: bad options/],
    ['a syntax error', 'export default {\n', /failed to load/],
  ])('rejects a plugin with %s', async (_n, text, message) => {
    const f = write(`p${Math.random().toString(36).slice(2)}.mjs`, text)
    await expect(loadPluginStage(f, {})).rejects.toMatchObject({ code: 'E_PLUGIN', message: expect.stringMatching(message), context: { file: f } })
  })

  it('reports a missing plugin file', async () => {
    await expect(loadPluginStage(path.join(dir, 'none.ts'), {})).rejects.toMatchObject({ code: 'E_PLUGIN', message: expect.stringContaining('not found') })
  })

  it("names a stage option's own line when the entry knows it", async () => {
    await expect(resolveStages([{ use: 'segment', options: { window: 'ten' }, yamlPath: 'stages[1]', line: 4, optionLines: { window: 6 } }], dataset, BUILTIN_STAGES)).rejects.toMatchObject({
      code: 'E_CONFIG_VALUE', message: 'Invalid input: expected number, received string, found "ten"', context: { yamlPath: 'stages[1].options.window', line: 6 },
    })
  })

  it('checks every entry before failing, and lists each problem at its line', async () => {
    const err = await pipelineRejection(resolveStages([
      { use: 'segmnt', options: {}, yamlPath: 'stages[0]', line: 3 },
      { use: 'segment', options: { window: 'ten', partial: 1, every: 2 }, yamlPath: 'stages[1]', line: 4, optionLines: { window: 6, partial: 7, every: 8 } },
      { use: './none.ts', options: {}, yamlPath: 'stages[2]', line: 9 },
      { use: 'read', options: {}, yamlPath: 'stages[3]', line: 10 },
    ], dataset, BUILTIN_STAGES))
    expect(err.code).toBe('E_STAGE_UNKNOWN')
    expect(err.message.split('\n')).toEqual([
      '5 problems:',
      expect.stringMatching(/^  line 3 stages\[0\]: unknown stage "segmnt"; built-in stages: /),
      '  line 6 stages[1].options.window: Invalid input: expected number, received string, found "ten"',
      '  line 7 stages[1].options.partial: Invalid input: expected boolean, received number, found 1',
      '  line 8 stages[1].options.every: unknown option "every"; allowed options: window, step, partial',
      `  line 9 stages[2]: ${path.join(ROOT, 'pipelines/examples/none.ts')}: stage module not found (paths are relative to the dataset file)`,
    ])
  })

  it("runs a plugin's own option validation with the YAML path", async () => {
    await expect(resolveStages([{ use: './rr-intervals.ts', options: { maxRrMs: -1 }, yamlPath: 'stages[1]' }], dataset, BUILTIN_STAGES)).rejects.toMatchObject({
      code: 'E_CONFIG_VALUE', context: { yamlPath: 'stages[1].options.maxRrMs' },
    })
  })
})
