// What the WebAssembly generator scripts (wasm-kernels.mjs, wasm-beat-kernels.mjs,
// wasm-qrs-kernels.mjs) share: assembling WAT text with wabt (a devDependency) into a TypeScript
// module that holds the bytes as base64 (so neither a run nor a test needs wabt), and writing
// that module, or with --check comparing it with the committed one.
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import wabtInit from 'wabt'

/**
 * The TypeScript source of a generated module: `comment` lines, then `export const NAME = '<base64>'`
 * for the assembled `wat` (validated, SIMD enabled), then any `extra` lines.
 */
export async function generatedModule({ name, wat, exportName, comment, extra = [] }) {
  const wabt = await wabtInit()
  const module = wabt.parseWat(name, wat, { simd: true })
  try {
    module.validate()
    const base64 = Buffer.from(module.toBinary({}).buffer).toString('base64')
    return [...comment.map((l) => `// ${l}`), `export const ${exportName} = '${base64}'`, ...extra, ''].join('\n')
  } finally {
    module.destroy()
  }
}

/** Writes `source` to `out`, or with --check in the arguments exits 1 when the committed file differs. */
export async function writeOrCheck(out, source, script) {
  const rel = path.relative(process.cwd(), fileURLToPath(out))
  if (!process.argv.includes('--check')) return writeFile(out, source)
  const committed = await readFile(out, 'utf8').catch(() => '')
  if (committed !== source) {
    console.error(`${rel} differs from what ${script} generates; run it and commit the result`)
    process.exit(1)
  }
}
