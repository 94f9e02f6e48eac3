// Checks the watermark contract on a stage's output (src/core/watermark.ts): no item positioned
// before a watermark comes after it, and watermarks never go back. Returns the watermarks seen.
import type { AnyItem, Item } from '../../src/core/items.ts'
import { positionOf } from '../../src/core/watermark.ts'

/** The violations of the watermark contract in `items` (empty when it holds), and how many watermarks there were. */
export function watermarkViolations(items: readonly (Item | AnyItem)[]): { violations: string[]; watermarks: number; last: number } {
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
  return { violations: violations.slice(0, 5), watermarks, last: passed }
}

/** Items without the watermarks. */
export const withoutWatermarks = <T extends { kind: string }>(items: readonly T[]): T[] => items.filter((i) => i.kind !== 'watermark')
