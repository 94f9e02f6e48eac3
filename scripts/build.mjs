// Bundles the CLI into dist/cli.mjs (run by `npm ci` / `npm install` through "prepare"), and beside
// it the stages' worker threads (src/threads/detect-worker.ts, render-worker.ts, started from
// there by worker-engine.ts), the public API (index.mjs) and the plugin loader's module hooks
// (plugin-hooks.mjs). The bundle starts in ~0.1 s and ~50 MB, where loading the TypeScript
// sources through tsx costs ~0.5 s and ~85 MB; bin/pipeline.js uses it whenever it is newer than
// every source file and falls back to the sources (through tsx) otherwise, so an edit is never
// run stale.
import path from 'node:path'
import { build } from 'esbuild'

// `node scripts/build.mjs [outfile]`: tests build a bundle of their own to run it for sure.
const outfile = process.argv[2] ?? 'dist/cli.mjs'
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning' }
const beside = (name) => path.join(path.dirname(outfile), name)
for (const name of ['detect-worker', 'render-worker']) await build({ ...common, entryPoints: [`src/threads/${name}.ts`], outfile: beside(`${name}.mjs`) })
// The public API (package.json "exports", and what a plugin's 'holter-pipeline' means when the
// CLI runs from the bundle) and the plugin loader's module hooks, found beside the CLI bundle.
await build({ ...common, entryPoints: ['src/index.ts'], outfile: beside('index.mjs') })
await build({ ...common, entryPoints: ['src/config/plugin-hooks.mjs'], outfile: beside('plugin-hooks.mjs') })
// Last, so the CLI bundle is never older than its worker (bin/pipeline.js checks the CLI's mtime).
await build({ ...common, entryPoints: ['src/cli.ts'], outfile })
