// The inputs of an excerpt's QA items: the render items made for it (`of` its id), gathered per
// modality with the sizes a model's budget is checked against: text tokens (render-text's
// estimate), the strips' count and pixels, the clip's frames and seconds.
import type { QaInputs, RenderItem } from '../core/items.ts'

/** Gathers an excerpt's render items. */
export function createInputs() {
  let text: RenderItem | null = null
  const strips: RenderItem[] = []
  let clip: RenderItem | null = null
  return {
    add(r: RenderItem): void {
      if (r.format === 'text') text = r
      else if (r.format === 'png') strips.push(r)
      else if (r.format === 'mp4') clip = r
    },
    /** The render ids, in the order text, strips (tile order), clip. */
    ids(): string[] {
      return [text, ...order(strips), clip].filter((r): r is RenderItem => r !== null).map((r) => r.id)
    },
    inputs(): QaInputs {
      const out: QaInputs = {}
      const t = text as RenderItem | null
      if (t) out.text = { path: t.path, offset: Number(t.offset), bytes: t.bytes, tokens: Number(t.tokens), fs: Number(t.fs), leads: t.leads, values: Number(t.values) }
      if (strips.length) {
        const s = order(strips)
        out.images = { paths: s.map((x) => x.path), count: s.length, pixels: s.reduce((n, x) => n + Number(x.width) * Number(x.height), 0), width: Math.max(...s.map((x) => Number(x.width))), height: Math.max(...s.map((x) => Number(x.height))) }
      }
      const c = clip as RenderItem | null
      if (c) out.video = { path: c.path, bytes: c.bytes, frames: Number(c.frames), fps: Number(c.fps), seconds: Number(c.durationSec), width: Number(c.width), height: Number(c.height) }
      return out
    },
  }
}

const order = (strips: RenderItem[]) => [...strips].sort((a, b) => Number(a.tile ?? 0) - Number(b.tile ?? 0))
