// Two layers of tests (house style rule 11, ../shared/docs/style.md), run together by `npm test`
// and apart by `npm run test:fast` / `npm run test:e2e` (vitest --project):
//   fast: unit and stage tests, in process (seconds);
//   e2e:  the CLI on real data: test/e2e/**, test/cli/** and every other test file that starts
//         the CLI in a child process (startCli/runCli from test/helpers/child.ts, or a spawn
//         of bin/pipeline.js). A child process that is not the CLI (ffmpeg, a short node) does
//         not make a test end-to-end.
// The e2e list is found by reading the test files here rather than kept by hand, so a new test
// that spawns the CLI lands in e2e by itself, and the two layers never overlap or miss a file.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const ALL = 'test/**/*.test.ts'
const E2E_DIRS = ['test/e2e/**/*.test.ts', 'test/cli/**/*.test.ts']
const SPAWNS_CLI = /\b(startCli|runCli)\s*\(|bin\/pipeline\.js/

const ROOT = path.dirname(fileURLToPath(import.meta.url))
const spawningCli = readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .map((f) => `test/${f.split(path.sep).join('/')}`)
  .filter((f) => f.endsWith('.test.ts') && !/^test\/(e2e|cli)\//.test(f))
  .filter((f) => SPAWNS_CLI.test(readFileSync(path.join(ROOT, f), 'utf8')))
  .sort()
const e2e = [...E2E_DIRS, ...spawningCli]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // include/exclude are set per project only: with `extends: true` arrays are concatenated.
    projects: [
      { extends: true, test: { name: 'fast', include: [ALL], exclude: ['**/node_modules/**', ...e2e] } },
      { extends: true, test: { name: 'e2e', include: e2e } },
    ],
  },
})
