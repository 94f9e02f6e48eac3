// The first `seconds` of a bundled MIT-BIH record as the render stages see it in a dataset:
// read -> annotate -> segment (10 s windows), run stage by stage in memory. Blocks past the cut
// are dropped and the recording item says the cut's duration, so a video's policy works on it.
import path from 'node:path'
import type { Item, RecordingItem, SampleBlock, WindowItem } from '../../src/core/items.ts'
import annotate from '../../src/stages/annotate.ts'
import segment from '../../src/stages/segment.ts'
import { readRecord, recordSpec } from './read-record.ts'
import { runStage } from './stage-context.ts'
import { ROOT } from './shared.ts'

/** Items of record `name` (samples/mitdb/<name>) cut to its first `seconds`, through annotate and segment. */
export async function renderInput(name: string, seconds: number): Promise<Item[]> {
  const spec = recordSpec(path.join(ROOT, 'samples/mitdb', name))
  const { items } = await readRecord(spec)
  const fs = (items.find((i) => i.kind === 'recording') as RecordingItem).fs
  const end = seconds * fs
  const cut = items.flatMap((i): Item[] => {
    if (i.kind === 'recording') return [{ ...(i as RecordingItem), durationSec: seconds }]
    if (i.kind === 'block') {
      const b = i as SampleBlock
      if (b.startSample >= end) return []
      return [{ ...b, leads: b.leads.map((x) => x.subarray(0, Math.min(x.length, end - b.startSample))) }]
    }
    return typeof (i as { sample?: number }).sample === 'number' && (i as { sample: number }).sample >= end ? [] : [i]
  })
  const annotated = await runStage(annotate, cut, { record: spec })
  return (await runStage(segment, annotated.items, { record: spec })).items
}

/** Record `name`'s 10 s windows (samples/mitdb/<name>, whole), as the segment stage makes them. */
export async function windowsOf(name: string): Promise<WindowItem[]> {
  const spec = recordSpec(path.join(ROOT, 'samples/mitdb', name), { id: name })
  const { items } = await readRecord(spec)
  const out: WindowItem[] = []
  for (const item of (await runStage(segment, items, { record: spec })).items) if (item.kind === 'window') out.push(item as WindowItem)
  return out
}
