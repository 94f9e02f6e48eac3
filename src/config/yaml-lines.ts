// Where things are in a dataset file: the line of a YAML path (for messages), and the lines of
// every key inside a stage's options (kept with the stage entry, so a stage's own option check
// can name the option's line: OptionsSource.lineOf).
import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml'

export type Segments = (string | number)[]

/** `records[0].path`, `stages[2].options.events.labels[1]`. */
export function formatPath(segs: Segments): string {
  return segs.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '')
}

/** The line of a path: of its key in a map, of the item in a sequence (the deepest part found). */
export function lineOf(root: Node | null, segs: Segments, lines: LineCounter): number | undefined {
  let node: unknown = root
  let keyNode: unknown
  for (const seg of segs) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === seg)
      keyNode = pair?.key
      node = pair?.value
    } else if (isSeq(node) && typeof seg === 'number') {
      node = node.items[seg]
      keyNode = node
    } else break
  }
  const target = (keyNode ?? node) as { range?: [number, number] } | undefined
  return target?.range ? lines.linePos(target.range[0]).line : undefined
}

/** The line of every key and item under the node at `segs`, by its path from there (formatPath). */
export function linesUnder(root: Node | null, segs: Segments, lines: LineCounter): Record<string, number> {
  let node: unknown = root
  for (const seg of segs) {
    if (isMap(node)) node = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === seg)?.value
    else if (isSeq(node) && typeof seg === 'number') node = node.items[seg]
    else return {}
  }
  const out: Record<string, number> = {}
  const walk = (n: unknown, at: Segments) => {
    const children = isMap(n)
      ? n.items.flatMap((p) => (isScalar(p.key) && (typeof p.key.value === 'string' || typeof p.key.value === 'number') ? [{ seg: String(p.key.value), start: p.key.range?.[0], value: p.value }] : []))
      : isSeq(n) ? n.items.map((item, i) => ({ seg: i, start: (item as Node | null)?.range?.[0], value: item })) : []
    for (const c of children) {
      if (c.start !== undefined) out[formatPath([...at, c.seg])] = lines.linePos(c.start).line
      walk(c.value, [...at, c.seg])
    }
  }
  walk(node, [])
  return out
}
