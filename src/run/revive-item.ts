// An item read back from an NDJSON output as the stage that made it had it: sample arrays as
// Float32Array again (the sink wrote them as rounded numbers, invalid samples as null), and a
// render item's media path made relative to the run that now holds the item, so a path is
// always relative to the directory of the run whose output names it.
import path from 'node:path'
import type { AnyItem } from '../core/items.ts'

/** A reviver for items of an input run at `inputDir`, as seen from the new run's directory (posix, e.g. "../bench"). */
export function reviveItem(inputDir: string): (item: AnyItem) => AnyItem {
  return (item) => {
    switch (item.kind) {
      case 'window':
        return { ...item, samples: (item.samples as (number | null)[][]).map(toFloat32) }
      case 'block':
        return { ...item, leads: (item.leads as (number | null)[][]).map(toFloat32) }
      case 'render':
        return { ...item, path: path.posix.join(inputDir, item.path as string) }
      default:
        return item
    }
  }
}

function toFloat32(values: (number | null)[]): Float32Array {
  const out = new Float32Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = values[i] ?? NaN
  return out
}
