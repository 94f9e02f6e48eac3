// Command-line flags are checked as strictly as the dataset file, in flag terms: each bad value
// below makes the real CLI exit with E_USAGE (2) and one error line that names the flag, the
// value found and what is allowed, before any record is read (the records are the bundled
// samples, so a flag that slipped through would run them).
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/core/errors.ts'
import { runCli, type Exit } from '../helpers/child.ts'
import { ROOT } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const dir = tmpDir('cli-flags-')
const sample = (rel: string) => path.join(ROOT, 'samples', rel)

/** The one error line of a usage error, with its exit code checked. */
function usageLine(r: Exit): string {
  expect(r.code, r.stderr).toBe(ERROR_CODES.E_USAGE)
  const lines = r.stderr.trimEnd().split('\n')
  expect(lines, r.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^error: E_USAGE: /)
  return lines[0]
}

describe.concurrent('numeric flags', () => {
  const dataset = path.join(dir, 'one.yaml')
  writeFileSync(dataset, `name: one\nrecords:\n  - path: ${sample('mitdb/100')}\nstages: [read]\n`)
  // `out`: what the command would write (a run directory, a text file, an EDF), its own per case,
  // so each case checks that nothing was written for it, whatever ran before or beside it.
  const out = (name: string) => path.join(dir, name)
  const cases: { args: string[]; out: string; says: string[] }[] = [
    { args: ['run', dataset, '--out', out('run-abc'), '--concurrency', 'abc'], out: out('run-abc'), says: ['--concurrency', 'found "abc"', 'an integer from 1 to 64'] },
    { args: ['run', dataset, '--out', out('run-0'), '--concurrency', '0'], out: out('run-0'), says: ['--concurrency', 'found 0', 'an integer from 1 to 64'] },
    { args: ['run', dataset, '--out', out('run-neg'), '--concurrency', '-2'], out: out('run-neg'), says: ['--concurrency', 'found -2', 'an integer from 1 to 64'] },
    { args: ['render', sample('mitdb/100'), '--text', out('step-0.txt'), '--step', '0'], out: out('step-0.txt'), says: ['--step', 'found 0', 'a positive number of seconds'] },
    { args: ['render', sample('mitdb/100'), '--text', out('step-neg.txt'), '--step', '-1'], out: out('step-neg.txt'), says: ['--step', 'found -1', 'a positive number of seconds'] },
    { args: ['render', sample('mitdb/100'), '--text', out('window-0.txt'), '--window', '0'], out: out('window-0.txt'), says: ['--window', 'found 0', 'a positive number of seconds'] },
    { args: ['render', sample('mitdb/100'), '--text', out('window-abc.txt'), '--window', 'abc'], out: out('window-abc.txt'), says: ['--window', 'found "abc"', 'a positive number of seconds'] },
    { args: ['tail', out('tail-abc'), '--interval', 'abc'], out: out('tail-abc'), says: ['--interval', 'found "abc"', 'a positive number of milliseconds'] },
    { args: ['tail', out('tail-neg'), '--interval', '-5'], out: out('tail-neg'), says: ['--interval', 'found -5', 'a positive number of milliseconds'] },
    { args: ['tail', out('tail-0'), '--interval', '0'], out: out('tail-0'), says: ['--interval', 'found 0', 'a positive number of milliseconds'] },
    { args: ['tail', out('tail-wait'), '--wait', '-1'], out: out('tail-wait'), says: ['--wait', 'found -1', 'a number of seconds >= 0'] },
    { args: ['convert', sample('mitdb/100'), out('powerline.edf'), '--clean', '--powerline', 'abc'], out: out('powerline.edf'), says: ['--powerline', 'found "abc"', '50 or 60'] },
  ]
  for (const c of cases) {
    it(`${c.args[0]} ${c.args.slice(-2).join(' ')}: nothing run or written`, async () => {
      const line = usageLine(await runCli(c.args))
      for (const s of c.says) expect(line).toContain(s)
      expect(existsSync(c.out), c.out).toBe(false)
    })
  }
})

describe('flags checked against the recording', () => {
  it('render --window 0.001 rounds to no sample at 360 Hz: a usage error about --window, not the segment stage', async () => {
    const line = usageLine(await runCli(['render', sample('mitdb/100'), '--text', path.join(dir, 'tiny.txt'), '--window', '0.001']))
    expect(line).toContain('--window 0.001: ')
    expect(line).toContain('360 Hz')
    expect(line).not.toMatch(/stages\[|options\.window|segment/)
  })

  it('render --step 0.001 as well', async () => {
    const line = usageLine(await runCli(['render', sample('mitdb/100'), '--text', path.join(dir, 'tiny.txt'), '--step', '0.001']))
    expect(line).toContain('--step 0.001: ')
    expect(line).not.toMatch(/stages\[|options\.step|segment/)
  })

  it('render --window above the segment stage\'s bound is told in --window terms', async () => {
    const line = usageLine(await runCli(['render', sample('mitdb/100'), '--text', path.join(dir, 'long.txt'), '--window', '5000']))
    expect(line).toContain('--window 5000: ')
    expect(line).toContain('3600')
    expect(line).not.toMatch(/stages\[/)
  })

  it('beats --lead 7 on a 2-lead record names --lead, the indices and the labels', async () => {
    const line = usageLine(await runCli(['beats', sample('mitdb/100'), '--lead', '7']))
    expect(line).toContain('--lead 7: ')
    expect(line).toContain('an index from 0 to 1 or a label (0 "MLII", 1 "V5")')
    const edf = usageLine(await runCli(['beats', sample('edf/mitdb102.edf'), '--lead', '7']))
    expect(edf).toContain('an index from 0 to 1 or a label (0 "V5", 1 "V2")')
  })

  it('render --lead 7 counts among the ECG leads the reader picks', async () => {
    const line = usageLine(await runCli(['render', sample('mitdb/100'), '--text', path.join(dir, 'lead.txt'), '--lead', '7']))
    expect(line).toContain('--lead 7: ')
    expect(line).toContain('has no ECG lead 7; expected an index from 0 to 1 or a label (0 "MLII", 1 "V5")')
    expect(existsSync(path.join(dir, 'lead.txt'))).toBe(false)
  })
})
