// What `pipeline qa export` writes for a QA item (pure): the public element, exactly
// {id, task_type, qa_pair: {question, answer}, tag} with the case as id and the split as tag, so
// the files are interchangeable with the public release; and the gold line beside it in
// <task_type>.gold.ndjson (our item's id, its case, excerpt, structured gold and the input files
// relative to the export folder), so other harnesses can score without this tool.
import type { QaInputs, QaItem } from '../core/items.ts'
import type { HoltercareItem, TaskType } from './format.ts'

/** The public element of an item. */
export function publicElement(q: QaItem): HoltercareItem {
  return { id: q.caseId, task_type: q.taskType as TaskType, qa_pair: { question: q.question, answer: q.answer }, tag: q.split }
}

/** The export's input files of an item, relative to the export folder. */
export interface ExportedInputs {
  text?: string
  images?: string[]
  video?: string
}

/** The gold line of an item. */
export function goldLine(q: QaItem, files: ExportedInputs | null): Record<string, unknown> {
  const { evidenceBeats, ...gold } = q.gold
  return {
    id: q.id, caseId: q.caseId, recordId: q.recordId, split: q.split, task_type: q.taskType,
    excerpt: q.excerpt, ...gold, evidenceBeats,
    ...(files ? { inputs: files, inputSizes: sizes(q.inputs) } : {}),
  }
}

function sizes(i: QaInputs): Record<string, unknown> {
  return {
    ...(i.text ? { textTokens: i.text.tokens, textBytes: i.text.bytes, textRateHz: i.text.fs, textLeads: i.text.leads } : {}),
    ...(i.images ? { images: i.images.count, imagePixels: i.images.pixels } : {}),
    ...(i.video ? { videoFrames: i.video.frames, videoSeconds: i.video.seconds, videoFps: i.video.fps } : {}),
  }
}

/**
 * The folder under <out>/inputs of the n-th record the export meets (from 1): numbered, never
 * named after the record, since a public record's name (MIT-BIH 208) tells a model what it holds.
 */
export function exportedFolder(n: number): string {
  return `r${String(n).padStart(3, '0')}`
}

/** Where an input file of the run goes under <out>/inputs: the record's folder, then its path under the record's media folder. */
export function exportedPath(runPath: string, recordId: string, folder: string): string {
  const prefix = `media/${recordId}/`
  const rest = runPath.startsWith(prefix) ? runPath.slice(prefix.length) : runPath.split('/').slice(-2).join('/')
  return `inputs/${folder}/${rest}`
}

/** The text file an excerpt's text range is written to under <out>/inputs. */
export function exportedTextPath(q: QaItem, folder: string): string {
  const name = q.excerpt.id.slice(q.recordId.length + 1).replaceAll(':', '-')
  return `inputs/${folder}/text/${name}.txt`
}
