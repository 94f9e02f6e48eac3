// `pipeline qa audit <dir> [--train <dir>] [--json] [--strict]`: how well answerers that never
// see the ECG do on a Holtercare-format folder's closed items, against chance, and the floors of
// blind answers on the open tasks (docs/qa-checks.md). Reading is
// src/holtercare/folder.ts; the answerers and the report are src/audit/.
import { readHoltercareFolder } from '../holtercare/folder.ts'
import { auditItems } from '../audit/report.ts'
import { renderAudit } from '../audit/render.ts'

export interface QaAuditOptions {
  dir: string
  train?: string
  json?: boolean
  strict?: boolean
  out: NodeJS.WritableStream
}

/** Prints the audit; resolves with 1 under --strict when an answerer is flagged, else 0. */
export async function qaAuditCommand(opts: QaAuditOptions): Promise<number> {
  const audited = await readHoltercareFolder(opts.dir)
  const train = opts.train === undefined ? undefined : await readHoltercareFolder(opts.train)
  const report = auditItems(audited.items, train?.items.map((i) => i.item))
  const skipped = audited.skipped + (train?.skipped ?? 0)
  if (opts.json) {
    opts.out.write(JSON.stringify({ ...report, skippedElements: skipped }, null, 2) + '\n')
  } else {
    const lines = renderAudit(report)
    if (skipped) lines.push(`${skipped} malformed element(s) left out; run 'pipeline qa validate' on the folder to see them`)
    opts.out.write(lines.join('\n') + '\n')
  }
  return opts.strict && report.flagged > 0 ? 1 : 0
}
