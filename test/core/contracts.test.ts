// src/core holds the contracts (stage, items, errors, options, concurrency helpers, service
// shapes) that stages and user plugins build on; the runner, its bookkeeping and the writers
// depend on them, never the other way round (issue 12, point 6).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/shared.ts'

const CORE = path.join(ROOT, 'src/core')

describe('src/core', () => {
  it('imports nothing from the run, sink, config or stage folders, nor any package but zod', () => {
    const offending: string[] = []
    for (const name of readdirSync(CORE)) {
      const text = readFileSync(path.join(CORE, name), 'utf8')
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1]
        const local = spec.startsWith('./') && !spec.slice(2).includes('/')
        if (!local && !spec.startsWith('node:') && spec !== 'zod') offending.push(`${name}: ${spec}`)
      }
    }
    expect(offending).toEqual([])
  })
})
