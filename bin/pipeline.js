#!/usr/bin/env node
// Starts the CLI from the bundle (dist/cli.mjs, built by `npm ci`) when it is newer than every
// source file, else from the TypeScript sources through tsx, so an edited source never runs
// stale. HOLTER_PIPELINE_FROM_SOURCE=1 forces the sources.
import { readdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bundle = path.join(root, 'dist', 'cli.mjs')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs)
  }
  return newest
}

function bundleIsFresh() {
  if (process.env.HOLTER_PIPELINE_FROM_SOURCE === '1') return false
  try {
    return statSync(bundle).mtimeMs >= Math.max(newestSource(path.join(root, 'src')), statSync(path.join(root, 'package.json')).mtimeMs)
  } catch {
    return false
  }
}

if (bundleIsFresh()) {
  await import(bundle)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  // Tells the plugin loader that TypeScript modules already load (see src/config/plugins.ts).
  globalThis[Symbol.for('holter-pipeline.tsx')] = true
  await import('../src/cli.ts')
}
