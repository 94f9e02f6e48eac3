// Items read back from an input run (src/run/revive-item.ts) and the posix paths between runs
// (src/run/posix-path.ts), unit layer.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AnyItem } from '../../src/core/items.ts'
import { posixRelative } from '../../src/sinks/posix-path.ts'
import { reviveItem } from '../../src/run/revive-item.ts'

const render = (p: string): AnyItem => ({ kind: 'render', recordId: 'a', path: p })

describe('reviveItem', () => {
  it.each([
    ['../demo', 'media/100/a.png', '../demo/media/100/a.png'],
    ['../../x/y', '../z/m.png', '../../x/z/m.png'],
    ['', 'media/a.png', 'media/a.png'],
    ['.', 'media/a.png', 'media/a.png'],
    ['a/b', './c', 'a/b/c'],
    ['..', 'media/x', '../media/x'],
    ['/abs/run', 'media/x.png', '/abs/run/media/x.png'],
  ])('names a render item of the run at %j, path %j, as %j from the new run', (dir, rel, want) => {
    expect(reviveItem(dir)(render(rel)).path).toBe(want)
  })

  it('turns sample arrays back into Float32Array, null as NaN', () => {
    const w = reviveItem('..')({ kind: 'window', recordId: 'a', samples: [[1, null, 2.5]] }) as unknown as { samples: Float32Array[] }
    expect(w.samples[0]).toBeInstanceOf(Float32Array)
    expect(Array.from(w.samples[0])).toEqual([1, NaN, 2.5])
  })
})

describe('posixRelative', () => {
  it.each([
    ['/runs/b', '/runs/a', '../a'],
    ['/runs/b', '/runs/b/media/x.png', 'media/x.png'],
    ['/runs/b', '/runs/b', ''],
  ])('from %j to %j is %j', (from, to, want) => {
    expect(posixRelative(from, to)).toBe(want)
  })

  it('joins with "/" whatever the platform separator', () => {
    expect(posixRelative(path.join(path.sep, 'a', 'b'), path.join(path.sep, 'a', 'c', 'd'))).toBe('../c/d')
  })
})
