// Tests that need ../shared (real recordings, golden outputs) call `sharedPath()` at the top of
// their describe block via `describeShared`. A user's fresh clone has no ../shared, so those
// tests skip with a message; under CI (CI=true) a missing ../shared is a failure, never a skip.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { describe, it } from 'vitest'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const SHARED = path.resolve(ROOT, '../shared')
export const SHARED_PRESENT = existsSync(path.join(SHARED, 'data'))

/** Absolute path of a file under ../shared (e.g. `data/mitdb/100.hea`). */
export function sharedPath(rel: string): string {
  return path.join(SHARED, rel)
}

/** A describe block that needs ../shared: skipped with a reason locally, failing under CI. */
export function describeShared(name: string, fn: () => void): void {
  if (SHARED_PRESENT) {
    describe(name, fn)
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs ../shared (CI=true)', () => {
        throw new Error(`../shared is missing at ${SHARED}; CI must provide it`)
      })
    })
  } else {
    describe.skip(`${name} (skipped: ../shared not found at ${SHARED})`, fn)
  }
}
