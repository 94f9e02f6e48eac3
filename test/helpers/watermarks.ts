// Checks the watermark contract on a stage's output (src/core/watermark.ts): no item positioned
// before a watermark comes after it, and watermarks never go back. Given the stage's input, it
// also checks that the watermarks are passed on at all: order alone holds for a stage that drops
// every one of them, or all but the last.
import type { AnyItem, Item } from '../../src/core/items.ts'
import { positionOf } from '../../src/core/watermark.ts'

type Items = readonly (Item | AnyItem)[]

/**
 * The violations of the watermark contract in `items` (empty when it holds), how many
 * watermarks there were and the last one. With `input` (what the stage was given) holding
 * watermarks, `items` must hold watermarks as they come, not only one at the end, and reach
 * the input's last.
 */
export function watermarkViolations(items: Items, input?: Items): { violations: string[]; watermarks: number; last: number } {
  const out = scan(items)
  const passedOn: string[] = []
  const given = input ? scan(input) : null
  if (given && given.watermarks > 0) {
    if (out.watermarks === 0) passedOn.push(`no watermark, the input had ${given.watermarks} (up to ${given.last})`)
    else if (out.last < given.last) passedOn.push(`watermarks stop at ${out.last}, the input's went to ${given.last}`)
    if (given.watermarks > 1 && out.watermarks === 1) passedOn.push(`one watermark (${out.last}) for the input's ${given.watermarks}: they are not passed on as they come`)
  }
  return { ...out, violations: [...passedOn, ...out.violations].slice(0, 5) }
}

function scan(items: Items): { violations: string[]; watermarks: number; last: number } {
  let passed = -Infinity
  let watermarks = 0
  const violations: string[] = []
  items.forEach((item, i) => {
    if (item.kind === 'watermark') {
      const s = (item as { sample: number }).sample
      if (s < passed) violations.push(`#${i}: watermark ${s} after watermark ${passed}`)
      passed = Math.max(passed, s)
      watermarks++
      return
    }
    const at = positionOf(item)
    if (at !== null && at < passed) violations.push(`#${i}: ${item.kind} at ${at} after watermark ${passed}`)
  })
  return { violations, watermarks, last: passed }
}

/** Items without the watermarks. */
export const withoutWatermarks = <T extends { kind: string }>(items: readonly T[]): T[] => items.filter((i) => i.kind !== 'watermark')
