// An item read back from an NDJSON output as the stage that made it had it: sample arrays as
// Float32Array again (the sink wrote them as rounded numbers, invalid samples as null), and the
// files an item names (a render item's media path, a qa item's input files) made relative to the
// run that now holds the item, so a path is always relative to the directory of the run whose
// output names it.
import path from 'node:path'
import type { AnyItem, QaInputs } from '../core/items.ts'

/** A reviver for items of an input run at `inputDir`, as seen from the new run's directory (posix, e.g. "../bench"). */
export function reviveItem(inputDir: string): (item: AnyItem) => AnyItem {
  const moved = (p: string) => path.posix.join(inputDir, p)
  return (item) => {
    switch (item.kind) {
      case 'window':
        return { ...item, samples: (item.samples as (number | null)[][]).map(toFloat32) }
      case 'block':
        return { ...item, leads: (item.leads as (number | null)[][]).map(toFloat32) }
      case 'render':
        return { ...item, path: moved(item.path as string) }
      case 'qa':
        return item.inputs ? { ...item, inputs: moveInputs(item.inputs as QaInputs, moved) } : item
      default:
        return item
    }
  }
}

// A qa item's input files, each modality copied with its paths moved (the sizes stay).
function moveInputs(i: QaInputs, moved: (p: string) => string): QaInputs {
  return {
    ...i,
    ...(i.text ? { text: { ...i.text, path: moved(i.text.path) } } : {}),
    ...(i.images ? { images: { ...i.images, paths: i.images.paths.map(moved) } } : {}),
    ...(i.video ? { video: { ...i.video, path: moved(i.video.path) } } : {}),
  }
}

function toFloat32(values: (number | null)[]): Float32Array {
  const out = new Float32Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = values[i] ?? NaN
  return out
}
