// Two layers of tests (house style rule 11, ../shared/docs/style.md), run together by `npm test`
// and apart by `npm run test:fast` / `npm run test:e2e` (vitest --project):
//   fast: unit and stage tests, in process (seconds): every test file outside the e2e folders;
//   e2e:  the CLI on real data, in a child process (startCli/runCli/startNode from
//         test/helpers/child.ts): test/e2e/** (its commands/ and stages/ folders hold the command
//         and stage tests that go through the CLI) and test/cli/**. A test file that starts the
//         CLI belongs there; a child process that is not the CLI (ffmpeg, a short node) does not
//         make a test end-to-end.
// The layers are folders, so they never overlap or miss a file.
import { defineConfig } from 'vitest/config'

const ALL = 'test/**/*.test.ts'
const E2E = ['test/e2e/**/*.test.ts', 'test/cli/**/*.test.ts']

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // include/exclude are set per project only: with `extends: true` arrays are concatenated.
    projects: [
      { extends: true, test: { name: 'fast', include: [ALL], exclude: ['**/node_modules/**', ...E2E] } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
})
