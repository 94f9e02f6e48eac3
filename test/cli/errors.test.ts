// Bad input through the real CLI (child processes): each error exits with its own code from
// ERROR_CODES, prints one line on stderr naming the file and the field/offset/YAML path with what
// was expected and what was found, and prints a stack trace only with --verbose. File-level
// problems go through `pipeline info`, dataset-level ones through `pipeline run`.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES, type ErrorCode } from '../../src/core/errors.ts'
import { BUILTIN_STAGES } from '../../src/stages/index.ts'
import { runCli, type Exit as CliResult } from '../helpers/child.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const tmp = mkdtempSync(path.join(tmpdir(), 'cli-errors-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
const at = (name: string) => path.join(tmp, name)
const STACK = /\n\s+at .+:\d+:\d+\)?/

/** Writes a dataset file into the temp folder and returns its path. */
function dataset(name: string, text: string): string {
  writeFileSync(at(name), text)
  return at(name)
}

/** The single error line of a failed command, checked for code, exit status and no stack. */
function errorLine(r: CliResult, code: ErrorCode): string {
  expect(r.stdout).toBe('')
  const lines = r.stderr.trimEnd().split('\n')
  expect(lines, r.stderr).toHaveLength(1)
  expect(lines[0].startsWith(`error: ${code}: `), r.stderr).toBe(true)
  expect(r.stderr).not.toMatch(STACK)
  expect(r.code).toBe(ERROR_CODES[code])
  return lines[0]
}

it('the exit codes of the errors below are distinct and non-zero', () => {
  const codes: ErrorCode[] = ['E_FILE_MISSING', 'E_NOT_EDF', 'E_EDF_HEADER_SHORT', 'E_EDF_HEADER_FIELD', 'E_EDF_DIGITAL_RANGE', 'E_EDF_RECORD_DURATION', 'E_TRUNCATED', 'E_NO_ECG', 'E_WFDB_DAT_MISSING', 'E_WFDB_FORMAT', 'E_CONFIG_YAML', 'E_CONFIG_KEY', 'E_STAGE_UNKNOWN', 'E_PLUGIN', 'E_RECORDS_FAILED']
  const exits = codes.map((c) => ERROR_CODES[c])
  expect(new Set(exits).size).toBe(codes.length)
  expect(exits.every((n) => n > 0 && n < 128)).toBe(true)
})

describeShared('pipeline info: bad recordings', () => {
  // mitbih100_30min.edf: 3 signals (header 1024 bytes), records of 1480 bytes; 10 records kept.
  const ns = 3
  const signalField = (start: number, width: number, i: number) => 256 + ns * start + i * width
  beforeAll(() => {
    const real = readFileSync(sharedPath('data/edf/mitbih100_30min.edf')).subarray(0, 1024 + 10 * 1480)
    const patched = (name: string, offset: number, text: string) => {
      const b = Uint8Array.from(real)
      b.set(new TextEncoder().encode(text), offset)
      writeFileSync(at(name), b)
    }
    writeFileSync(at('short.edf'), real.subarray(0, 1000))
    patched('nonnumeric.edf', signalField(104, 8, 1), '1.2.3   ') // signal 1 physical minimum
    patched('digital.edf', signalField(120, 8, 0), '1023    ') // signal 0 digital minimum = its maximum
    patched('duration0.edf', 244, '0       ')
    copyFileSync(sharedPath('data/edf/subject-info.csv'), at('not-edf.edf'))
    mkdirSync(at('nodat'))
    copyFileSync(sharedPath('data/mitdb/100.hea'), at('nodat/100.hea'))
    mkdirSync(at('fmt'))
    writeFileSync(at('fmt/100.hea'), readFileSync(sharedPath('data/mitdb/100.hea'), 'utf8').replace('100.dat 212 200 11 1024 995', '100.dat 213 200 11 1024 995'))
    copyFileSync(sharedPath('data/mitdb/100.dat'), at('fmt/100.dat'))
  })

  describe.concurrent('one error line each', () => {
    it('missing EDF file: E_FILE_MISSING', async () => {
      const line = errorLine(await runCli(['info', at('nope.edf')]), 'E_FILE_MISSING')
      expect(line).toContain(`file not found: ${at('nope.edf')}`)
    })

    it('missing WFDB header: E_FILE_MISSING', async () => {
      const line = errorLine(await runCli(['info', at('nope')]), 'E_FILE_MISSING')
      expect(line).toContain(`WFDB header not found: ${at('nope.hea')}`)
    })

    it('a file that is not EDF: E_NOT_EDF, version field at byte 0, what was found', async () => {
      const line = errorLine(await runCli(['info', at('not-edf.edf')]), 'E_NOT_EDF')
      expect(line).toContain(`${at('not-edf.edf')}: expected an EDF/BDF file (version field '0' at byte 0`)
      expect(line).toContain('found "Subject,"')
      // --format edf reads any extension as EDF.
      const csv = sharedPath('data/edf/subject-info.csv')
      expect(errorLine(await runCli(['info', csv, '--format', 'edf']), 'E_NOT_EDF')).toContain(`${csv}: expected an EDF/BDF file`)
    })

    it('header shorter than it claims: E_EDF_HEADER_SHORT with the byte counts', async () => {
      const line = errorLine(await runCli(['info', at('short.edf')]), 'E_EDF_HEADER_SHORT')
      expect(line).toContain(`${at('short.edf')}: header ends at byte 1000: expected 1024 header bytes (256 * (3 signals + 1)), found 1000`)
    })

    it('non-numeric header field: E_EDF_HEADER_FIELD naming signal, field and byte', async () => {
      const line = errorLine(await runCli(['info', at('nonnumeric.edf')]), 'E_EDF_HEADER_FIELD')
      const offset = signalField(104, 8, 1)
      expect(line).toContain(`${at('nonnumeric.edf')}: signal 1 "ECG V5": physical minimum (byte ${offset}): expected a number, found "1.2.3"`)
    })

    it('digital minimum equal to digital maximum: E_EDF_DIGITAL_RANGE', async () => {
      const line = errorLine(await runCli(['info', at('digital.edf')]), 'E_EDF_DIGITAL_RANGE')
      expect(line).toContain(`${at('digital.edf')}: signal 0 "ECG MLII": digital maximum (byte ${signalField(128, 8, 0)}): expected digital maximum > digital minimum, found max 1023 and min 1023`)
    })

    it('data record duration 0: E_EDF_RECORD_DURATION at byte 244', async () => {
      const line = errorLine(await runCli(['info', at('duration0.edf')]), 'E_EDF_RECORD_DURATION')
      expect(line).toContain(`${at('duration0.edf')}: duration of a data record (byte 244): expected a number of seconds > 0, found "0"`)
    })

    it('WFDB header naming a missing .dat: E_WFDB_DAT_MISSING', async () => {
      const line = errorLine(await runCli(['info', at('nodat/100')]), 'E_WFDB_DAT_MISSING')
      expect(line).toContain(`${at('nodat/100.hea')}: the header names signal file 100.dat, which is missing at ${at('nodat/100.dat')}`)
    })

    it('unknown WFDB format: E_WFDB_FORMAT naming header line, signal and the supported formats', async () => {
      const line = errorLine(await runCli(['info', at('fmt/100.hea')]), 'E_WFDB_FORMAT')
      expect(line).toContain(`${at('fmt/100.hea')}:3: signal 0 (MLII): format 213 is not supported; supported formats: 212, 16, 61, 80, 160, 24, 32`)
    })

    it('--verbose adds the stack trace', async () => {
      const r = await runCli(['info', at('digital.edf'), '--verbose'])
      expect(r.code).toBe(ERROR_CODES.E_EDF_DIGITAL_RANGE)
      expect(r.stderr.split('\n')[0]).toMatch(/^error: E_EDF_DIGITAL_RANGE: /)
      expect(r.stderr).toMatch(STACK)
      expect(r.stderr).toContain('PipelineError: ')
    })
  })
})

describe.concurrent('pipeline run: bad dataset files', () => {
  it('invalid YAML: E_CONFIG_YAML with file, line and column', async () => {
    const file = dataset('invalid.yaml', 'records:\n  - path: a.edf\n   oops: [\nstages: [read]\n')
    const line = errorLine(await runCli(['run', file, '--out', at('out-invalid')]), 'E_CONFIG_YAML')
    expect(line).toMatch(new RegExp(`^error: E_CONFIG_YAML: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: invalid YAML at line 3, column \\d+: `))
  })

  it('unknown key: E_CONFIG_KEY naming the YAML path and the allowed keys', async () => {
    const file = dataset('key.yaml', 'records:\n  - path: a.edf\n    lead: [MLII]\nstages: [read]\n')
    const line = errorLine(await runCli(['run', file, '--out', at('out-key')]), 'E_CONFIG_KEY')
    expect(line).toContain(`${file}:3: records[0].lead: unknown key "lead"; allowed keys here: id, path, format, leads, annotator, patient`)
  })

  it('unknown key in stage options: E_CONFIG_KEY naming the option path and the allowed options', async () => {
    const file = dataset('opt.yaml', 'records:\n  - path: a.edf\nstages:\n  - use: read\n    options: {onTruncate: fail}\n')
    const line = errorLine(await runCli(['run', file, '--out', at('out-opt')]), 'E_CONFIG_KEY')
    expect(line).toContain(`${file}:5: stages[0].options.onTruncate: unknown option "onTruncate"; allowed options: blockSeconds, onTruncated, annotations`)
  })

  it('unknown stage name: E_STAGE_UNKNOWN listing the built-in stages', async () => {
    const file = dataset('stage.yaml', 'records:\n  - path: a.edf\nstages: [read, filterz]\n')
    const line = errorLine(await runCli(['run', file, '--out', at('out-stage')]), 'E_STAGE_UNKNOWN')
    expect(line).toContain(`${file}:3: stages[1]: unknown stage "filterz"; built-in stages: ${Object.keys(BUILTIN_STAGES).sort().join(', ')}`)
  })

  it('a plugin module without a default export: E_PLUGIN', async () => {
    writeFileSync(at('no-default.mjs'), 'export const stage = { name: "x", version: 1, async *transform(s) { yield* s } }\n')
    const file = dataset('plugin1.yaml', 'records:\n  - path: a.edf\nstages: [read, ./no-default.mjs]\n')
    const line = errorLine(await runCli(['run', file, '--out', at('out-p1')]), 'E_PLUGIN')
    expect(line).toContain(`${at('no-default.mjs')}: stages[1]: default export must be defineStage({ name, version, transform }) or a function returning one; found no default export`)
  })

  it('a plugin whose default export has no transform: E_PLUGIN naming what is missing', async () => {
    writeFileSync(at('no-transform.mjs'), 'export default { name: "mine", version: 1 }\n')
    const file = dataset('plugin2.yaml', 'records:\n  - path: a.edf\nstages: [read, ./no-transform.mjs]\n')
    const line = errorLine(await runCli(['run', file, '--out', at('out-p2')]), 'E_PLUGIN')
    expect(line).toContain('stage "mine" has no "transform" function')
  })

  it('a missing dataset file: E_FILE_MISSING', async () => {
    const line = errorLine(await runCli(['run', at('none.yaml'), '--out', at('out-none')]), 'E_FILE_MISSING')
    expect(line).toContain(`${at('none.yaml')}: dataset file not found`)
  })

  it('--verbose prints the stack of a dataset error', async () => {
    const file = dataset('stage-v.yaml', 'records:\n  - path: a.edf\nstages: [nope]\n')
    const r = await runCli(['run', file, '--out', at('out-v'), '--verbose'])
    expect(r.code).toBe(ERROR_CODES.E_STAGE_UNKNOWN)
    expect(r.stderr).toMatch(STACK)
  })
})
