// The run's progress log (src/run/progress-log.ts): appends after a clean line end, whatever the
// file held before (a torn tail from a crash, a damaged line, which tail skips).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProgressEvent } from '../../src/run/progress-events.ts'
import { openProgressLog, PROGRESS_FILE } from '../../src/run/progress-log.ts'
import { tmpDir } from '../helpers/tmp.ts'

const end: ProgressEvent = { t: 'run-end', at: 'x', status: 'finished', done: 0, failed: 0, wallMs: 0 }
const line = JSON.stringify(end) + '\n'

async function appendTo(before: string | null): Promise<string> {
  const dir = tmpDir()
  const file = path.join(dir, PROGRESS_FILE)
  if (before !== null) writeFileSync(file, before)
  const seen: ProgressEvent[] = []
  const log = await openProgressLog(dir, (e) => seen.push(e))
  log.write(end)
  await log.close()
  expect(seen).toEqual([end])
  return readFileSync(file, 'utf8')
}

describe('progress log', () => {
  it.each([
    ['no file', null, ''],
    ['an empty file', '', ''],
    ['complete lines', '{"t":"run-start"}\n', '{"t":"run-start"}\n'],
    ['a torn tail', '{"t":"run-start"}\n{"t":"record-pro', '{"t":"run-start"}\n'],
    ['a damaged middle line and a torn tail', '{"t":"run-start"}\n{bad\n{"t":"record-pro', '{"t":"run-start"}\n{bad\n'],
    ['only a torn line', '{"t":"run-st', ''],
  ])('appends on a line of its own after %s', async (_name, before, kept) => {
    expect(await appendTo(before)).toBe(kept + line)
  })

  it('cuts a torn tail longer than the block it reads from the end', async () => {
    const torn = '{"t":"record-progress","pad":"' + 'x'.repeat(20_000)
    const head = '{"t":"run-start"}\n'.repeat(1000)
    expect(await appendTo(head + torn)).toBe(head + line)
  })
})
