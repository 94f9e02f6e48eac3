// The tool's name and version, read once from package.json (for manifests and --version).
import { createRequire } from 'node:module'

const pkg = createRequire(import.meta.url)('../../package.json') as { name: string; version: string }

export const TOOL = { name: pkg.name, version: pkg.version }
