// How users name a WFDB record: like the WFDB tools, by its base path (`data/100`) or by its
// header (`data/100.hea`). Other extensions (.dat, .atr) are refused rather than guessed: a
// .dat file's name need not match the record's, and an annotator name is not a record name.

import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import { parseWfdbHeader } from './wfdb-header.ts'
import type { WfdbHeader } from './wfdb-header.ts'

/** Where a record's files live. */
export interface WfdbRecordPath {
  /** Path without extension (`data/100`); annotation files are `${basePath}.${annotator}`. */
  basePath: string
  /** Path of the header (`data/100.hea`). */
  headerPath: string
  /** Directory holding the header; .dat names in the header are relative to it. */
  dir: string
  /** Record name (`100`). */
  name: string
}

/** Resolves a record named by its .hea path or its base path; pure path logic, no I/O. */
export function resolveWfdbRecord(p: string): WfdbRecordPath {
  const ext = path.extname(p)
  if (p === '' || p.endsWith('/') || p.endsWith(path.sep)) {
    throw new PipelineError(
      'E_USAGE',
      `expected a WFDB record (its .hea path or its base path, e.g. data/mitdb/100), found ${JSON.stringify(p)}; name one record, not a directory`,
      { file: p },
    )
  }
  if (ext !== '' && ext.toLowerCase() !== '.hea') {
    const base = p.slice(0, -ext.length)
    throw new PipelineError(
      'E_USAGE',
      `${p}: a WFDB record is named by its header or base path, found a "${ext}" file; use ${base}.hea or ${base}`,
      { file: p },
    )
  }
  const basePath = ext === '' ? p : p.slice(0, -ext.length)
  return { basePath, headerPath: `${basePath}.hea`, dir: path.dirname(basePath), name: path.basename(basePath) }
}

/** Path of a file the header names (a .dat), relative to the header's directory. */
export function wfdbFilePath(record: WfdbRecordPath, fileName: string): string {
  return path.join(record.dir, fileName)
}

/** Reads and parses a record's header, given its .hea path or base path. */
export async function readWfdbHeaderFile(p: string): Promise<WfdbHeader> {
  const record = resolveWfdbRecord(p)
  let text: string
  try {
    text = await readFile(record.headerPath, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PipelineError(
        'E_FILE_MISSING',
        `WFDB header not found: ${record.headerPath} (name a record by its .hea path or its base path)`,
        { file: record.headerPath },
        { cause: err },
      )
    }
    throw new PipelineError(
      'E_IO',
      `${record.headerPath}: cannot read the WFDB header: ${(err as Error).message}; check the path and its permissions`,
      { file: record.headerPath },
      { cause: err },
    )
  }
  return parseWfdbHeader(text, record.headerPath)
}
