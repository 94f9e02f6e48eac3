// Temporary directories for tests, removed after each test file.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'

/** A fresh temporary directory, deleted when the test file ends. */
export function tmpDir(prefix = 'hp-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
