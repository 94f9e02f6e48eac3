// openRunDir (src/run/run-dir.ts), unit layer on real folders: a fresh directory, a resume with
// the same config hash, the refusals (another hash, changed input files, a folder that is not
// a run directory, even with restart), and what restart clears (only what a run writes).
import { appendFileSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'
import { writeManifest, type Manifest } from '../../src/run/manifest.ts'
import { openRunDir } from '../../src/run/run-dir.ts'
import { LOCK_FILE } from '../../src/run/run-lock.ts'
import { rejection } from '../helpers/thrown.ts'
import { tmpDir } from '../helpers/tmp.ts'

const HASH = 'a'.repeat(64)
const OTHER = 'b'.repeat(64)

/** Input files as the runner records them: path, size and mtime of each. */
function inputsOf(files: Record<string, string[]>): Manifest['inputs'] {
  return Object.entries(files).map(([recordId, paths]) => ({ recordId, files: paths.map((p) => ({ path: p, size: statSync(p).size, mtimeMs: statSync(p).mtimeMs })) }))
}

function manifest(configHash: string, inputs: Manifest['inputs']): Manifest {
  return {
    tool: { name: 'holter-pipeline', version: '0.0.0-test', node: process.version },
    name: 'test', datasetFile: '/data/test.yaml', configHash,
    stages: [{ name: 'read', version: 1, source: 'builtin' }],
    inputs, config: { records: [] }, sessions: [{ startedAt: '2024-01-01T00:00:00.000Z', endedAt: '2024-01-01T00:01:00.000Z', status: 'interrupted', pid: 1 }],
  }
}

/** A recording (two files) and a run directory that a run of HASH over it has written to. */
async function previousRun() {
  const data = tmpDir('hp-rundir-data-')
  const files = ['100.hea', '100.dat'].map((f) => path.join(data, f))
  for (const f of files) writeFileSync(f, `contents of ${path.basename(f)}\n`)
  const inputs = inputsOf({ 100: files })
  const runDir = tmpDir('hp-rundir-')
  const written = manifest(HASH, inputs)
  await writeManifest(runDir, written)
  writeFileSync(path.join(runDir, 'window.ndjson'), '{"kind":"window"}\n')
  writeFileSync(path.join(runDir, 'checkpoints.ndjson'), '{"v":1}\n')
  return { data, files, inputs, runDir, written }
}

async function refusal(p: Promise<unknown>): Promise<PipelineError> {
  const err = await rejection(p)
  expect(err).toBeInstanceOf(PipelineError)
  return err as PipelineError
}

describe('openRunDir', () => {
  it('opens an empty folder as a fresh run (null) without writing anything', async () => {
    const dir = tmpDir('hp-rundir-')
    expect(await openRunDir(dir, HASH, [], false)).toBeNull()
    expect(readdirSync(dir)).toEqual([])
  })

  it('counts a folder holding only the lock and hidden files as empty', async () => {
    const dir = tmpDir('hp-rundir-')
    writeFileSync(path.join(dir, LOCK_FILE), `${process.pid}\n`)
    writeFileSync(path.join(dir, '.DS_Store'), '')
    expect(await openRunDir(dir, HASH, [], false)).toBeNull()
    expect(readdirSync(dir).sort()).toEqual(['.DS_Store', LOCK_FILE])
  })

  it('resumes a run directory of the same config hash and unchanged inputs, returning its manifest and leaving its files', async () => {
    const { runDir, inputs, written } = await previousRun()
    const before = readdirSync(runDir).sort()
    expect(await openRunDir(runDir, HASH, inputs, false)).toEqual(written)
    expect(readdirSync(runDir).sort()).toEqual(before)
  })

  it('refuses a run directory of another config hash, naming both hashes and --restart, and changes nothing', async () => {
    const { runDir, inputs } = await previousRun()
    const before = readdirSync(runDir).sort()
    const err = await refusal(openRunDir(runDir, OTHER, inputs, false))
    expect(err.code).toBe('E_CONFIG_CHANGED')
    expect(err.message).toContain(`hash ${HASH.slice(0, 12)}, now ${OTHER.slice(0, 12)}`)
    expect(err.message).toContain('--restart')
    expect(err.context.file).toBe(path.join(runDir, 'manifest.json'))
    expect(readdirSync(runDir).sort()).toEqual(before)
  })

  it('refuses a non-empty folder that is not a run directory, even with restart, and deletes nothing', async () => {
    const dir = tmpDir('hp-rundir-')
    writeFileSync(path.join(dir, 'thesis.docx'), 'years of work')
    writeFileSync(path.join(dir, 'notes.ndjson'), '{"mine":true}\n') // named like an output, still the user's
    mkdirSync(path.join(dir, 'media'))
    for (const restart of [false, true]) {
      const err = await refusal(openRunDir(dir, HASH, [], restart))
      expect(err.code).toBe('E_CONFIG_CHANGED')
      expect(err.message).toMatch(/not empty and is not a run directory \(.*thesis\.docx.*\); choose another --out/)
      expect(err.context.file).toBe(dir)
    }
    expect(readdirSync(dir).sort()).toEqual(['media', 'notes.ndjson', 'thesis.docx'])
  })

  it('restart clears only what a run writes (outputs, bookkeeping, manifest, journals, media, parts) and keeps the lock and other files', async () => {
    const { runDir, inputs } = await previousRun()
    for (const d of ['journal', 'media/100', '.parts/100']) mkdirSync(path.join(runDir, d), { recursive: true })
    writeFileSync(path.join(runDir, 'media/100/strip.png'), 'png')
    writeFileSync(path.join(runDir, '.parts/100/beat.ndjson'), '{}\n')
    writeFileSync(path.join(runDir, 'progress.ndjson'), '{}\n')
    writeFileSync(path.join(runDir, 'order.bin'), Buffer.from([0, 0, 1]))
    writeFileSync(path.join(runDir, LOCK_FILE), `${process.pid}\n`)
    writeFileSync(path.join(runDir, 'README.txt'), 'what this run is for')
    mkdirSync(path.join(runDir, 'analysis'))
    writeFileSync(path.join(runDir, 'analysis/plot.py'), 'print(1)')
    // Another hash too: restart is how a changed config starts over.
    expect(await openRunDir(runDir, OTHER, inputs, true)).toBeNull()
    expect(readdirSync(runDir).sort()).toEqual(['README.txt', 'analysis', LOCK_FILE].sort())
    expect(existsSync(path.join(runDir, 'analysis/plot.py'))).toBe(true)
  })

  it('restart of a run directory holding only what a run writes leaves just the lock', async () => {
    const { runDir, inputs } = await previousRun()
    writeFileSync(path.join(runDir, LOCK_FILE), `${process.pid}\n`)
    expect(await openRunDir(runDir, HASH, inputs, true)).toBeNull()
    expect(readdirSync(runDir)).toEqual([LOCK_FILE])
    // Then it is as good as empty: it opens as a fresh run without restart.
    expect(await openRunDir(runDir, OTHER, inputs, false)).toBeNull()
  })

  it('refuses to resume when an input file changed size or modification time, naming it', async () => {
    const grown = await previousRun()
    appendFileSync(grown.files[1], 'more samples\n')
    const err = await refusal(openRunDir(grown.runDir, HASH, inputsOf({ 100: grown.files }), false))
    expect(err.code).toBe('E_CONFIG_CHANGED')
    expect(err.message).toContain(`input files changed since this run started (${grown.files[1]})`)
    expect(err.message).toContain('--restart')

    const touched = await previousRun()
    const { size } = statSync(touched.files[0])
    utimesSync(touched.files[0], new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'))
    expect(statSync(touched.files[0]).size).toBe(size)
    const err2 = await refusal(openRunDir(touched.runDir, HASH, inputsOf({ 100: touched.files }), false))
    expect(err2.message).toContain(`(${touched.files[0]})`)
    expect(err2.message).not.toContain(touched.files[1])
    // restart takes the new files.
    expect(await openRunDir(touched.runDir, HASH, inputsOf({ 100: touched.files }), true)).toBeNull()
  })

  it('does not count sub-millisecond noise in a recorded mtime as a change', async () => {
    const { runDir, inputs, written } = await previousRun()
    const now = inputs.map((r) => ({ ...r, files: r.files.map((f) => ({ ...f, mtimeMs: Math.round(f.mtimeMs) + 0.3 })) }))
    const before = inputs.map((r) => ({ ...r, files: r.files.map((f) => ({ ...f, mtimeMs: Math.round(f.mtimeMs) + 0.1 })) }))
    await writeManifest(runDir, { ...written, inputs: before })
    expect(await openRunDir(runDir, HASH, now, false)).not.toBeNull()
  })
})

describe('openRunDir with a damaged manifest', () => {
  it('refuses to resume it, and clears it with restart (it is still a run directory)', async () => {
    const dir = tmpDir()
    writeFileSync(path.join(dir, 'manifest.json'), '{"configHash": "ab')
    writeFileSync(path.join(dir, 'beat.ndjson'), '{}\n')
    writeFileSync(path.join(dir, 'notes.md'), 'mine')
    await expect(openRunDir(dir, 'h', [], false)).rejects.toMatchObject({ code: 'E_CHECKPOINT' })
    expect(await openRunDir(dir, 'h', [], true)).toBeNull()
    expect(readdirSync(dir).sort()).toEqual(['notes.md'])
  })
})
