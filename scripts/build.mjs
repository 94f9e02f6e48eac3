// Bundles the CLI into dist/cli.mjs (run by `npm ci` / `npm install` through "prepare").
// The bundle starts in ~0.1 s and ~50 MB, where loading the TypeScript sources through tsx
// costs ~0.5 s and ~85 MB; bin/pipeline.js uses it whenever it is newer than every source file
// and falls back to the sources (through tsx) otherwise, so an edit is never run stale.
import { build } from 'esbuild'

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
})
