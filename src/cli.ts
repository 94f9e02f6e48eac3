// The command line (yargs) and the only place that calls process.exit: PipelineErrors become
// one line on stderr and the exit code of their code (src/core/errors.ts); stacks only with
// --verbose. SIGINT/SIGTERM abort the run's signal once (records in flight are abandoned, the
// checkpoints stay valid); a second signal exits at once.
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { ERROR_CODES, PipelineError } from './core/errors.ts'
import { TOOL } from './run/version.ts'

const controller = new AbortController()
let signals = 0
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (++signals > 1) process.exit(ERROR_CODES.E_INTERRUPTED)
    process.stderr.write(`\n${sig}: stopping (send it again to quit at once)...\n`)
    controller.abort()
  })
}

// A reader that stops early (\`pipeline beats rec | head\`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0)
  process.stderr.write(`error: E_IO: cannot write to standard output: ${err.message}\n`)
  process.exit(ERROR_CODES.E_IO)
})

const verbose = process.argv.includes('--verbose')

async function main(): Promise<number> {
  let code = 0
  const set = (n: number) => {
    code = n
  }
  await yargs(hideBin(process.argv))
    .scriptName('pipeline')
    .usage('$0 <command> [options]')
    .option('verbose', { type: 'boolean', describe: 'print stack traces and causes of errors' })
    .command('run <dataset>', 'run (or resume) the stages of a dataset file', (y) => y
      .positional('dataset', { type: 'string', demandOption: true, describe: 'dataset YAML file' })
      .option('out', { type: 'string', describe: 'run directory (default: the dataset\'s "out", else runs/<name>)' })
      .option('restart', { type: 'boolean', describe: 'discard the run directory\'s results and start over' })
      .option('concurrency', { type: 'number', describe: 'records in parallel (overrides concurrency.records)' }),
    async (a) => set(await (await import('./commands/run.ts')).runCommand({ dataset: a.dataset, out: a.out, restart: a.restart, concurrency: a.concurrency, signal: controller.signal, err: process.stderr })))
    .command('tail <runDir>', 'follow the live progress of a run', (y) => y
      .positional('runDir', { type: 'string', demandOption: true })
      .option('interval', { type: 'number', default: 250, describe: 'poll interval in ms' })
      .option('wait', { type: 'number', default: 60, describe: 'seconds to wait for a run that has not started' }),
    async (a) => set(await (await import('./commands/tail.ts')).tailRun(a.runDir, { out: process.stdout, signal: controller.signal, intervalMs: a.interval, waitMs: a.wait * 1000 })))
    .command('info <recording>', 'describe a recording (EDF/EDF+/BDF file, or WFDB record by .hea or base path)', (y) => y
      .positional('recording', { type: 'string', demandOption: true })
      .option('format', { choices: ['edf', 'wfdb'] as const, describe: 'override the format guessed from the extension' })
      .option('json', { type: 'boolean', describe: 'print JSON instead of text' }),
    async (a) => set(await (await import('./commands/info.ts')).infoCommand(a.recording, { format: a.format, json: a.json, out: process.stdout })))
    .command('convert <input> <output>', 'write a WFDB record or an EDF/EDF+ file as EDF+C (annotations as TALs); --clean writes the cleaned ECG leads', (y) => y
      .positional('input', { type: 'string', demandOption: true })
      .positional('output', { type: 'string', demandOption: true })
      .option('annotator', { type: 'string', default: 'atr', describe: 'WFDB annotation file extension to carry over ("" for none)' })
      .option('clean', { type: 'boolean', describe: 'write the cleaned signals (the clean stage: 0.5 Hz high-pass, zero phase, powerline moving average)' })
      .option('powerline', { type: 'number', default: 50, describe: 'mains frequency for --clean, Hz (50 or 60)' }),
    async (a) => set(await (await import('./commands/convert.ts')).convertCommand(a.input, a.output, { annotator: a.annotator || false, clean: a.clean, powerlineHz: a.powerline, signal: controller.signal, err: process.stderr })))
    .command('beats <recording..>', 'detect and classify the beats of one recording (NDJSON, one beat per line); --score compares them with its reference annotations', (y) => y
      .positional('recording', { type: 'string', array: true, demandOption: true, describe: 'EDF/EDF+ file, or WFDB record by .hea or base path; several: the consecutive parts of one recording' })
      .option('lead', { type: 'string', describe: 'lead to detect on: index or label (default: the first ECG-like signal)' })
      .option('out', { type: 'string', describe: 'write the beats to this file (default: stdout)' })
      .option('score', { type: 'boolean', describe: 'print beat-by-beat statistics against the reference annotations (like WFDB bxb)' })
      .option('clean', { type: 'boolean', describe: 'detect on the cleaned signal (the clean stage) instead of the raw one' })
      .option('annotator', { type: 'string', default: 'atr', describe: 'WFDB annotator of the reference for --score' }),
    async (a) => set(await (await import('./commands/beats.ts')).beatsCommand(a.recording as string[], { lead: a.lead, out: a.out, score: a.score, clean: a.clean, annotator: a.annotator || false, signal: controller.signal, stdout: process.stdout, err: process.stderr })))
    .command('render <recording>', 'render one recording as text in mV, PNG strips and/or an MP4 video (cleaned, with beat markers)', (y) => y
      .positional('recording', { type: 'string', demandOption: true, describe: 'EDF/EDF+ file, or WFDB record by .hea or base path' })
      .option('text', { type: 'string', describe: 'write the text (mV, 3 decimals, a line per window and lead) to this file' })
      .option('strips', { type: 'string', describe: 'write one PNG strip per window into this folder' })
      .option('video', { type: 'string', describe: 'write an MP4 video, a frame per window, to this file' })
      .option('window', { type: 'number', default: 10, describe: 'window length, seconds' })
      .option('step', { type: 'number', describe: 'step between windows, seconds (default: the window length)' })
      .option('lead', { type: 'string', describe: 'lead to render: index or label (default: every ECG-like signal; text: the first)' })
      .option('raw', { type: 'boolean', describe: 'render the raw signal (no clean stage)' })
      .option('beats', { type: 'boolean', default: true, describe: 'detect beats and mark them and the reference beats on strips (--no-beats: no markers)' }),
    async (a) => set(await (await import('./commands/render.ts')).renderCommand(a.recording, { text: a.text, strips: a.strips, video: a.video, window: a.window, step: a.step, lead: a.lead, raw: a.raw, beats: a.beats, signal: controller.signal, err: process.stderr })))
    .demandCommand(1, 'name a command: run, tail, info, convert, beats or render')
    .strict()
    .version(TOOL.version)
    .fail((msg, err) => {
      if (err) throw err
      throw new PipelineError('E_USAGE', `${msg} (see 'pipeline --help')`)
    })
    .help()
    .parseAsync()
  return code
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof PipelineError) {
      process.stderr.write(`error: ${err.toLine()}\n`)
      if (verbose) printCauses(err)
      process.exit(ERROR_CODES[err.code] ?? 1)
    }
    if ((err as Error)?.name === 'AbortError') process.exit(ERROR_CODES.E_INTERRUPTED)
    process.stderr.write(`internal error: ${(err as Error)?.message ?? String(err)} (rerun with --verbose and report it)\n`)
    if (verbose) printCauses(err)
    process.exit(ERROR_CODES.E_INTERNAL)
  },
)

function printCauses(err: unknown): void {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`)
  }
}
