// A user's own stages outside the clone: a folder under the system's temp folder, one part with
// no package.json around it and one with a package.json that has no "type": "module", holding a
// .ts stage (importing a .ts helper of its own), a .mts and a .mjs, each importing the package by
// name, which nothing in that folder's node_modules chain provides. The real CLI runs there (as
// cwd) from a bundle built here the way `npm ci` builds dist/cli.mjs, and from the sources.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startNode } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const COUNT_BEATS_TS = `import { defineStage, PipelineError, type AnnotationItem } from 'holter-pipeline'
import { isBeat } from './beat-symbols.ts'

interface Options { label: string }

export default defineStage<Options>({
  name: 'count-beats',
  version: 1,
  parseOptions(raw, where) {
    const label = (raw as Partial<Options>).label ?? 'beats'
    if (typeof label !== 'string') throw new PipelineError('E_CONFIG_VALUE', \`label must be text, found \${JSON.stringify(label)}\`, { file: where.file, yamlPath: \`\${where.yamlPath}.label\`, line: where.lineOf?.(['label']) })
    return { label }
  },
  async *transform(source, ctx) {
    let n = 0
    for await (const item of source) {
      yield item
      if (item.kind === 'annotation' && isBeat((item as AnnotationItem).symbol)) n++
    }
    yield { kind: 'beat-count', recordId: ctx.recordId, label: ctx.options.label, n }
  },
})
`
const BEAT_SYMBOLS_TS = `const BEATS: ReadonlySet<string> = new Set(['N', 'L', 'R', 'V', 'A', 'F', '/', 'f', 'Q'])
export const isBeat = (symbol: string): boolean => BEATS.has(symbol)
`
const stageMarking = (name: string) => `import { defineStage } from 'holter-pipeline'
export default defineStage({
  name: '${name}',
  version: 1,
  async *transform(source, ctx) {
    for await (const item of source) {
      yield item
      if (item.kind === 'recording') yield { kind: '${name}', recordId: ctx.recordId, leads: item.labels }
    }
  },
})
`

const dataset = (countOptions: string) => `records:
  - path: ${path.join(ROOT, 'samples/mitdb/100')}
stages:
  - read
  - use: ./plain/count-beats.ts
    options:
${countOptions}
  - ./pkg/mark-ts.mts
  - use: ./pkg/mark-js.mjs
`

describe('stages in a folder of their own, outside the clone', () => {
  const work = tmpDir('hp-outside-')
  mkdirSync(path.join(work, 'plain'))
  mkdirSync(path.join(work, 'pkg'))
  writeFileSync(path.join(work, 'plain/count-beats.ts'), COUNT_BEATS_TS)
  writeFileSync(path.join(work, 'plain/beat-symbols.ts'), BEAT_SYMBOLS_TS)
  writeFileSync(path.join(work, 'pkg/package.json'), JSON.stringify({ name: 'my-stages', version: '1.0.0' }))
  writeFileSync(path.join(work, 'pkg/mark-ts.mts'), stageMarking('mark-ts'))
  writeFileSync(path.join(work, 'pkg/mark-js.mjs'), stageMarking('mark-js'))
  writeFileSync(path.join(work, 'set.yaml'), dataset('      label: all beats'))
  writeFileSync(path.join(work, 'bad.yaml'), dataset('      label: 7'))

  // Built inside the project so the bundle resolves its dependencies from node_modules; a
  // folder of its own, since the build writes index.mjs and plugin-hooks.mjs beside cli.mjs.
  const bundleDir = path.join(ROOT, '.test-dist', `outside-${process.pid}`)
  const bundle = path.join(bundleDir, 'cli.mjs')
  beforeAll(() => void execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), bundle], { cwd: ROOT }))
  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }))
  const fromBundle = (args: string[]) => startNode([bundle, ...args], { cwd: work }).exit
  const fromSource = (args: string[]) => runCli(args, { cwd: work, env: { HOLTER_PIPELINE_FROM_SOURCE: '1' } })

  it('loads and runs .ts, .mts and .mjs stages importing holter-pipeline, from the bundle and from the sources alike', async () => {
    const a = await fromBundle(['run', 'set.yaml', '--out', 'from-bundle'])
    const b = await fromSource(['run', 'set.yaml', '--out', 'from-source'])
    expect(a.code, a.stderr).toBe(0)
    expect(b.code, b.stderr).toBe(0)
    for (const out of ['from-bundle', 'from-source']) {
      const read = (kind: string) => readFileSync(path.join(work, out, `${kind}.ndjson`), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l))
      // 100.atr: 2239 N, 33 A, 1 V, and a rhythm mark (+), which is no beat.
      expect(read('beat-count')).toEqual([{ kind: 'beat-count', recordId: '100', label: 'all beats', n: 2273 }])
      expect(read('mark-ts')).toEqual([{ kind: 'mark-ts', recordId: '100', leads: ['MLII', 'V5'] }])
      expect(read('mark-js')).toEqual([{ kind: 'mark-js', recordId: '100', leads: ['MLII', 'V5'] }])
    }
  })

  it("reports a plugin's own PipelineError as a config error at its option's line, either way", async () => {
    for (const run of [fromBundle, fromSource]) {
      const r = await run(['run', 'bad.yaml', '--out', 'bad'])
      expect(r.code, r.stderr).toBe(23)
      expect(r.stderr).toContain('error: E_CONFIG_VALUE: bad.yaml:7: stages[1].options.label: label must be text, found 7')
    }
  })
})
