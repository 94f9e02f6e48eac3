// Bundles the CLI into dist/cli.mjs (run by `npm ci` / `npm install` through "prepare"), and the
// detect stage's worker thread (src/stages/detect-worker.ts) into dist/detect-worker.mjs beside it. The bundle starts in ~0.1 s and ~50 MB, where loading the
// TypeScript sources through tsx costs ~0.5 s and ~85 MB; bin/pipeline.js uses it whenever it
// is newer than every source file and falls back to the sources (through tsx) otherwise, so an
// edit is never run stale.
import path from 'node:path'
import { build } from 'esbuild'

// `node scripts/build.mjs [outfile]`: tests build a bundle of their own to run it for sure.
const outfile = process.argv[2] ?? 'dist/cli.mjs'
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning' }
await build({ ...common, entryPoints: ['src/stages/detect-worker.ts'], outfile: path.join(path.dirname(outfile), 'detect-worker.mjs') })
// Last, so the CLI bundle is never older than its worker (bin/pipeline.js checks the CLI's mtime).
await build({ ...common, entryPoints: ['src/cli.ts'], outfile })
