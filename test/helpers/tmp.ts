// Temporary directories for tests, removed after each test file, and what a folder holds.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'

/** A fresh temporary directory, deleted when the test file ends. */
export function tmpDir(prefix = 'hp-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Every entry under `dir` that is not a folder (files, links), as sorted `/`-separated paths relative to it; [] when `dir` does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
}
