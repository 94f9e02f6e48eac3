// Items read back from an input run (src/run/revive-item.ts) and the posix paths between runs
// (src/run/posix-path.ts), unit layer.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AnyItem, QaInputs } from '../../src/core/items.ts'
import { posixRelative } from '../../src/sinks/posix-path.ts'
import { reviveItem } from '../../src/run/revive-item.ts'

const render = (p: string): AnyItem => ({ kind: 'render', recordId: 'a', path: p })
const inputs = (): QaInputs => ({
  text: { path: 'media/100/qa-text.txt', offset: 120, bytes: 40, tokens: 30, fs: 100, leads: ['MLII'], values: 6 },
  images: { paths: ['media/100/strips/t000.png', 'media/100/strips/t001.png'], count: 2, pixels: 8, width: 2, height: 2 },
  video: { path: 'media/100/clips/x.mp4', bytes: 900, frames: 6, fps: 5, seconds: 1.2, width: 2, height: 2 },
})
const qa = (i: QaInputs): AnyItem => ({ kind: 'qa', recordId: '100', id: '100:ex:a:0:closed_presence:0', inputs: i, from: ['100:ex:a:0'] })

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

  it.each([
    ['../bench', '../bench/'],
    ['', ''],
    ['/abs/run', '/abs/run/'],
  ])('names a qa item\'s input files of the run at %j from the new run, sizes kept', (dir, prefix) => {
    const item = qa(inputs())
    const before = structuredClone(item)
    const got = reviveItem(dir)(item) as AnyItem & { inputs: QaInputs }
    expect(got.inputs).toEqual({
      text: { ...inputs().text, path: `${prefix}media/100/qa-text.txt` },
      images: { ...inputs().images, paths: [`${prefix}media/100/strips/t000.png`, `${prefix}media/100/strips/t001.png`] },
      video: { ...inputs().video, path: `${prefix}media/100/clips/x.mp4` },
    })
    expect(got.from).toEqual(['100:ex:a:0'])
    expect(item).toEqual(before) // the item read is not changed
  })

  it('moves only the modalities a qa item has, and leaves one without inputs as it is', () => {
    const got = reviveItem('../b')(qa({ video: inputs().video })) as AnyItem & { inputs: QaInputs }
    expect(got.inputs).toEqual({ video: { ...inputs().video, path: '../b/media/100/clips/x.mp4' } })
    expect(reviveItem('../b')(qa({})).inputs).toEqual({})
    const bare: AnyItem = { kind: 'qa', recordId: '100' }
    expect(reviveItem('../b')(bare)).toBe(bare)
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
