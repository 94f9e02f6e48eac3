// Imports a user's stage module, wherever it is on disk: a .ts/.mts/.mjs/.js file in the clone or
// in the user's own folder, importing the package by name ('holter-pipeline'). Two process-wide
// module hooks make that work, registered the first time a plugin loads (at most once: a loader
// hook is process state by nature, hence the flags on globalThis):
// - tsx, for TypeScript (the CLI started from its bundle has no TypeScript loader; started from
//   the sources, bin/pipeline.js registered it already and set the flag);
// - ./plugin-hooks.mjs (see there), mapping 'holter-pipeline' to this copy's own entry and
//   loading TypeScript as ES modules whatever the plugin folder's package.json says.
import { register } from 'node:module'
import { pathToFileURL } from 'node:url'

const TSX_FLAG = Symbol.for('holter-pipeline.tsx')
const HOOKS_FLAG = Symbol.for('holter-pipeline.plugin-hooks')

/** Imports a plugin module by absolute path, with the loaders it needs. */
export async function importPlugin(abs: string): Promise<{ default?: unknown }> {
  await ensurePluginLoaders()
  return (await import(pathToFileURL(abs).href)) as { default?: unknown }
}

async function ensurePluginLoaders(): Promise<void> {
  // Inside a vitest worker (not a child it spawns, which inherits VITEST=true) imports already
  // transform TypeScript and resolve 'holter-pipeline' through package.json's exports.
  if ('__vitest_worker__' in globalThis) return
  const g = globalThis as Record<symbol, unknown>
  if (!g[TSX_FLAG]) {
    const tsx = await import('tsx/esm/api')
    tsx.register()
    g[TSX_FLAG] = true
  }
  if (!g[HOOKS_FLAG]) {
    // Registered after tsx, so its resolve runs first and can hand tsx the entry to load.
    register(siblingUrl('plugin-hooks.mjs'), { data: { entry: siblingUrl(fromSources() ? '../index.ts' : 'index.mjs') } })
    g[HOOKS_FLAG] = true
  }
}

// This file runs either as itself (src/config/plugin-loader.ts) or inside the bundle
// (dist/cli.mjs), and scripts/build.mjs writes plugin-hooks.mjs and index.mjs beside the bundle,
// so each is found relative to the running file.
function fromSources(): boolean {
  return new URL(import.meta.url).pathname.endsWith('.ts')
}

function siblingUrl(name: string): string {
  return new URL(name, import.meta.url).href
}
