// `pipeline qa validate <dir>` through the CLI: a good folder exits 0 with the summary line, a
// broken one exits 1 naming `file:index`, a missing folder is E_FILE_MISSING (exit 10); the
// public valid split, copied, passes and then fails once broken.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/child.ts'
import { describeShared, sharedPath } from '../../helpers/shared.ts'
import { tmpDir } from '../../helpers/tmp.ts'

const element = (answer: string) => ({ id: 'C1', task_type: 'closed_event_counting', qa_pair: { question: 'How many runs? A. 1; B. 2; C. 3; D. 4', answer }, tag: 'dev' })

function writeSplit(root: string, answer: string): string {
  mkdirSync(path.join(root, 'dev', 'Closed-QA'), { recursive: true })
  writeFileSync(path.join(root, 'dev', 'Closed-QA', 'closed_event_counting.json'), JSON.stringify([element('B. 2'), element(answer)]))
  return root
}

// Copies a folder as new writable files (the public files are read-only).
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const name of readdirSync(from)) {
    if (statSync(path.join(from, name)).isDirectory()) copyTree(path.join(from, name), path.join(to, name))
    else writeFileSync(path.join(to, name), readFileSync(path.join(from, name)))
  }
}

describe('pipeline qa validate', () => {
  it('exits 0 with the summary line on a good folder, and on one split given alone', async () => {
    const root = writeSplit(tmpDir('qa-validate-good-'), 'C. 3')
    const r = await runCli(['qa', 'validate', root])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('1 file, 2 items: 0 problems\n')
    const split = await runCli(['qa', 'validate', path.join(root, 'dev')])
    expect(split.stdout).toBe('1 file, 2 items: 0 problems\n')
  })

  it('exits 1 with a file:index line per problem', async () => {
    const root = writeSplit(tmpDir('qa-validate-bad-'), 'C. 2')
    const r = await runCli(['qa', 'validate', root])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe([
      'dev/Closed-QA/closed_event_counting.json:1: answer text "2" differs from option C\'s text "3"; write "C. 3"',
      '1 file, 2 items: 1 problem', ''].join('\n'))
  })

  it('fails with E_FILE_MISSING on a missing folder', async () => {
    const missing = path.join(tmpDir('qa-validate-none-'), 'nope')
    const r = await runCli(['qa', 'validate', missing])
    expect(r.code).toBe(10)
    expect(r.stderr).toContain(`error: E_FILE_MISSING: no folder ${missing}; give a Holtercare-format folder`)
  })
})

describeShared('pipeline qa validate on the public valid split', () => {
  it('passes on a copy, then names the element broken in it', async () => {
    const root = tmpDir('qa-validate-public-')
    copyTree(sharedPath('data/holtercare-qa/valid'), path.join(root, 'valid'))
    const good = await runCli(['qa', 'validate', root])
    expect(good.code, good.stdout).toBe(0)
    expect(good.stdout).toBe('12 files, 1876 items: 0 problems\n')
    const file = path.join(root, 'valid/Closed-QA/closed_diagnosis.json')
    const items = JSON.parse(readFileSync(file, 'utf8'))
    items[3].tag = 'test'
    writeFileSync(file, JSON.stringify(items))
    const bad = await runCli(['qa', 'validate', root])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('valid/Closed-QA/closed_diagnosis.json:3: tag "test" differs from "valid" (the split folder\'s name)')
    expect(bad.stdout).toMatch(/\n12 files, 1876 items: 1 problem\n$/)
  })
})
