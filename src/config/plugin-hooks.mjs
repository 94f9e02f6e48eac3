// Module hooks for stage plugins (node:module `register`; they run in Node's loader thread, so
// this file is plain JavaScript, loadable before any TypeScript loader). Registered once, after
// tsx, so these run first in the chain:
// - 'holter-pipeline' means this running copy's own public entry (src/index.ts from the
//   sources, dist/index.mjs beside the bundle): a plugin in the user's own folder has no
//   holter-pipeline in its node_modules chain, and one it has would be another version than the
//   runner calling it.
// - TypeScript outside node_modules loads as an ES module whatever the nearest package.json
//   says: a plugin's `export default defineStage(...)` is ESM, and a folder with no package.json
//   (or one without "type": "module") would make tsx compile it as CommonJS, which then fails
//   with "Cannot require() ES Module ... in a cycle".

/** @type {string | undefined} */
let entry

/** @param {{ entry: string }} data the URL of the public entry 'holter-pipeline' resolves to */
export function initialize(data) {
  entry = data.entry
}

const OWN_NAME = 'holter-pipeline'
const TYPESCRIPT = /\.tsx?$/

/**
 * @param {string} specifier
 * @param {{ parentURL?: string, conditions: string[] }} context
 * @param {(specifier: string, context?: object) => Promise<{ url: string, format?: string | null }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  // Through the rest of the chain, so tsx still sets the entry's format (src/index.ts is TypeScript).
  if (specifier === OWN_NAME && entry) return nextResolve(entry, context)
  const resolved = await nextResolve(specifier, context)
  const { pathname, protocol } = new URL(resolved.url)
  if (protocol === 'file:' && TYPESCRIPT.test(pathname) && !pathname.includes('/node_modules/')) return { ...resolved, format: 'module' }
  return resolved
}
