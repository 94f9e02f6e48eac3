// The tool's name and version, read once from package.json (for manifests and --version).
// Found by walking up from this module, so it works from the sources and from dist/cli.mjs.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

function findPackageJson(): { name: string; version: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const candidate = path.join(dir, 'package.json')
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'holter-pipeline') return { name: pkg.name, version: pkg.version ?? '0.0.0' }
    }
    const parent = path.dirname(dir)
    if (parent === dir) return { name: 'holter-pipeline', version: '0.0.0' }
    dir = parent
  }
}

export const TOOL = findPackageJson()
