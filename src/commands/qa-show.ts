// `pipeline qa show <runDir> <qaId>`: one QA item as a person checking a question wants it: the
// question with its options one per line, the answer, the gold, the excerpt's span, and each
// input file with whether it is there (and the first characters of the text input).
import { open, stat } from 'node:fs/promises'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'
import type { QaItem } from '../core/items.ts'
import { openInputRun } from '../run/input-run.ts'
import { splitOptions } from '../holtercare/format.ts'
import { clock } from '../qa/phrasing.ts'

export interface QaShowArgs {
  runDir: string
  qaId: string
  json?: boolean
  out: NodeJS.WritableStream
}

/** Prints one item; resolves with the exit code. */
export async function qaShowCommand(a: QaShowArgs): Promise<number> {
  const run = await openInputRun(path.resolve(a.runDir))
  const record = run.records.find((r) => a.qaId.startsWith(`${r.spec.id}:`))
  let found: QaItem | null = null
  if (record) {
    for await (const it of run.items(record, new Set(['qa']), run.dir)) {
      if (it.kind === 'qa' && (it as QaItem).id === a.qaId) found = it as QaItem
    }
  }
  if (!found) throw new PipelineError('E_USAGE', `no committed qa item ${a.qaId} in ${a.runDir}${record ? '' : ` (ids start with a record id: ${run.records.slice(0, 5).map((r) => r.spec.id).join(', ')}${run.records.length > 5 ? ', ...' : ''})`}; list them with: grep -o '"id":"[^"]*"' ${path.join(a.runDir, 'qa.ndjson')}`)
  if (a.json) {
    a.out.write(JSON.stringify(found, null, 2) + '\n')
    return 0
  }
  const q = found
  const opts = splitOptions(q.question)
  const lines = [
    `${q.id}  (${q.taskType}, ${q.tier}; case ${q.caseId}, ${q.split})`,
    `excerpt ${q.excerpt.id}: ${q.excerpt.startMs}-${q.excerpt.endMs} ms (${clock(q.excerpt.startMs)}-${clock(q.excerpt.endMs)}), samples ${q.excerpt.startSample}-${q.excerpt.endSample}`,
    '',
    opts ? opts.stem : q.question,
    ...(opts ? opts.options.map((o) => `  ${o.letter}. ${o.text}${q.gold.correct !== undefined && q.gold.choices?.[q.gold.correct] === o.text ? '   <- gold' : ''}`) : []),
    '',
    `answer: ${q.answer}`,
    `gold: ${JSON.stringify(q.gold, null, 2).replace(/\n/g, '\n  ')}`,
    '',
    'inputs:',
  ]
  const file = async (p: string) => `${p}${(await stat(path.join(run.dir, p)).then(() => true, () => false)) ? '' : '   (MISSING)'}`
  if (q.inputs.text) {
    const t = q.inputs.text
    lines.push(`  text: ${await file(t.path)} bytes ${t.offset}-${t.offset + t.bytes} (${t.tokens} tokens, ${t.leads.join(', ')} at ${t.fs} Hz)`)
    lines.push(`    ${(await head(path.join(run.dir, t.path), t.offset, Math.min(t.bytes, 160))).replace(/\n/g, ' ')}...`)
  }
  if (q.inputs.images) {
    lines.push(`  images: ${q.inputs.images.count} (${q.inputs.images.pixels} pixels)`)
    for (const p of q.inputs.images.paths) lines.push(`    ${await file(p)}`)
  }
  if (q.inputs.video) lines.push(`  video: ${await file(q.inputs.video.path)} (${q.inputs.video.frames} frames, ${q.inputs.video.seconds} s at ${q.inputs.video.fps} fps)`)
  if (!q.inputs.text && !q.inputs.images && !q.inputs.video) lines.push('  none (no render stage drew this excerpt\'s set)')
  a.out.write(lines.join('\n') + '\n')
  return 0
}

async function head(file: string, offset: number, bytes: number): Promise<string> {
  const fh = await open(file, 'r').catch(() => null)
  if (!fh) return '(file missing)'
  try {
    const buf = Buffer.alloc(bytes)
    const { bytesRead } = await fh.read(buf, 0, bytes, offset)
    return buf.subarray(0, bytesRead).toString('utf8')
  } finally {
    await fh.close()
  }
}
