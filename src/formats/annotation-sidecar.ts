// Finding and reading a recording's reference-annotation sidecar. The `annotate`
// option `sidecar` is "auto" (use <dir>/<name>.annotations.csv, .json or .ndjson when one
// exists), "none", or a path template with {dir} (the recording's folder) and {name} (its file
// name without .edf/.bdf/.rec/.hea). A relative template is taken from the recording's folder,
// so "{name}.beats.csv" and "../labels/{name}.csv" work; an explicit file must exist. The
// format follows the extension: .csv (annotation-csv.ts), .json, .ndjson or .jsonl (annotation-
// json.ts). Reading streams the file in 64 KiB chunks through the parser.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { isAbortError, PipelineError } from '../core/errors.ts'
import { createAnnotationCsvParser } from './annotation-csv.ts'
import { createAnnotationJsonParser } from './annotation-json.ts'
import type { SidecarParser, SidecarRow } from './annotation-row.ts'
import { recordingName } from './recording-name.ts'

const AUTO_SUFFIXES = ['.annotations.csv', '.annotations.json', '.annotations.ndjson']
const EXTENSIONS = ['.csv', '.json', '.ndjson', '.jsonl']

/** Why `option` is not a valid value of the `sidecar` option, or null when it is. */
export function sidecarOptionProblem(option: string): string | null {
  if (option === 'auto' || option === 'none') return null
  const unknown = option.match(/\{(?!dir\}|name\})[^}]*\}?/)
  if (unknown) return `expected "auto", "none" or a path template using only {dir} and {name}, found the placeholder "${unknown[0]}"`
  if (!EXTENSIONS.some((e) => option.toLowerCase().endsWith(e))) return `expected "auto", "none" or a path ending in ${EXTENSIONS.join(', ')} (the format follows the extension)`
  return null
}

/** The sidecar path a template gives for a recording file (absolute). */
export function expandSidecarTemplate(template: string, recordingFile: string): string {
  const dir = path.dirname(recordingFile)
  const name = recordingName(recordingFile)
  return path.resolve(dir, template.replaceAll('{dir}', dir).replaceAll('{name}', name))
}

/** The sidecar file of a recording for the option value, or null ("none", or "auto" finding none); `others` lists further auto candidates. */
export async function findSidecar(option: string, recordingFile: string): Promise<{ file: string; others: string[] } | null> {
  if (option === 'none') return null
  if (option !== 'auto') {
    const file = expandSidecarTemplate(option, recordingFile)
    if (!(await isFile(file, true))) throw new PipelineError('E_FILE_MISSING', `annotation sidecar not found: ${file} (annotate option sidecar "${option}"); create the file, fix the template, or set sidecar to "auto" to use one only when it exists`, { file, field: 'sidecar' })
    return { file, others: [] }
  }
  const found: string[] = []
  for (const suffix of AUTO_SUFFIXES) {
    const file = expandSidecarTemplate(`{name}${suffix}`, recordingFile)
    if (await isFile(file, false)) found.push(file)
  }
  return found.length ? { file: found[0], others: found.slice(1) } : null
}

/** The files `sidecar: auto` would look for beside a recording (for the manifest, which tells a changed input on resume). */
export function autoSidecarFiles(recordingFile: string): string[] {
  return AUTO_SUFFIXES.map((suffix) => expandSidecarTemplate(`{name}${suffix}`, recordingFile))
}

/** The rows of a sidecar file, streamed; errors name `file:line`. */
export async function* readSidecarRows(file: string, signal: AbortSignal): AsyncGenerator<SidecarRow> {
  const parser: SidecarParser = file.toLowerCase().endsWith('.csv') ? createAnnotationCsvParser(file) : createAnnotationJsonParser(file)
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024, signal })
  try {
    for await (const chunk of stream as AsyncIterable<string>) yield* parser.push(chunk)
  } catch (err) {
    if (err instanceof PipelineError || isAbortError(err)) throw err
    throw new PipelineError('E_IO', `${file}: expected a readable annotation sidecar, could not read it (${(err as Error).message}); check the file and its permissions`, { file }, { cause: err })
  } finally {
    stream.destroy()
  }
  yield* parser.end()
}

async function isFile(file: string, explicit: boolean): Promise<boolean> {
  try {
    const s = await stat(file)
    if (s.isFile()) return true
    if (explicit) throw new PipelineError('E_IO', `${file}: expected an annotation sidecar file, found a directory or special file; point the annotate option sidecar to the file itself`, { file, field: 'sidecar' })
    return false
  } catch (err) {
    if (err instanceof PipelineError) throw err
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return false
    throw new PipelineError('E_IO', `${file}: could not check for an annotation sidecar (${(err as Error).message}); check the folder's permissions`, { file }, { cause: err })
  }
}
