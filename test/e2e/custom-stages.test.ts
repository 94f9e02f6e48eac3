// The runnable custom-stage example through the CLI, started both from a bundle built here the
// way `npm ci` builds dist/cli.mjs, and from the TypeScript sources: TypeScript and JavaScript
// plugins load either way.
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { runCli, startNode } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dataset = path.join(ROOT, 'pipelines/examples/custom-stages.yaml')
const lines = (f: string) => readFileSync(f, 'utf8').trimEnd().split('\n')

describe('custom stages example', () => {
  const work = tmpDir('hp-custom-')

  it('runs the TypeScript and JavaScript example stages, from the bundle and from the sources alike', async () => {
    const fromBundle = path.join(work, 'bundle')
    const fromSource = path.join(work, 'source')
    // Built inside the project so the bundle resolves its dependencies from node_modules; a
    // folder of its own, since the build writes the workers, index.mjs and plugin-hooks.mjs beside it.
    const bundleDir = path.join(ROOT, '.test-dist', `custom-${process.pid}`)
    const bundle = path.join(bundleDir, 'cli.mjs')
    onTestFinished(() => rmSync(bundleDir, { recursive: true, force: true }))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), bundle], { cwd: ROOT })
    const a = await startNode([bundle, 'run', dataset, '--out', fromBundle]).exit
    const b = await runCli(['run', dataset, '--out', fromSource], { env: { HOLTER_PIPELINE_FROM_SOURCE: '1' } })
    expect(a.code, a.stderr).toBe(0)
    expect(b.code, b.stderr).toBe(0)
    const rr = lines(path.join(fromBundle, 'rr.ndjson')).map((l) => JSON.parse(l))
    // 208.atr has 2955 beats; intervals longer than maxRrMs (2500) are skipped.
    expect(rr.length).toBeGreaterThan(2900)
    expect(rr.length).toBeLessThan(2955)
    expect(rr.every((r) => r.rrMs > 0 && r.rrMs <= 2500)).toBe(true)
    const stats = lines(path.join(fromBundle, 'window-stats.ndjson')).map((l) => JSON.parse(l))
    expect(stats).toHaveLength(180)
    expect(stats[0].leads.map((l: { label: string }) => l.label)).toEqual(['MLII', 'V1'])
    for (const f of ['rr.ndjson', 'window-stats.ndjson', 'window.ndjson', 'annotation.ndjson']) {
      expect(readFileSync(path.join(fromSource, f), 'utf8')).toBe(readFileSync(path.join(fromBundle, f), 'utf8'))
    }
  })
})
