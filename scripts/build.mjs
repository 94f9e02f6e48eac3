// Bundles the CLI into dist/cli.mjs (run by `npm ci` / `npm install` through "prepare").
// The bundle starts in ~0.1 s and ~50 MB, where loading the TypeScript sources through tsx
// costs ~0.5 s and ~85 MB; bin/pipeline.js uses it whenever it is newer than every source file
// and falls back to the sources (through tsx) otherwise, so an edit is never run stale.
import { build } from 'esbuild'

// `node scripts/build.mjs [outfile]`: tests build a bundle of their own to run it for sure.
await build({
  entryPoints: ['src/cli.ts'],
  outfile: process.argv[2] ?? 'dist/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
})
