// The command line (yargs) and the only place that calls process.exit: PipelineErrors become
// one line on stderr and the exit code of their code (src/core/errors.ts); stacks only with
// --verbose. SIGINT/SIGTERM abort the run's signal once (records in flight are abandoned, the
// checkpoints stay valid); a second signal exits at once.
import yargs, { type Argv } from 'yargs'
import { hideBin } from 'yargs/helpers'
import { ERROR_CODES, PipelineError } from './core/errors.ts'
import { TOOL } from './core/version.ts'
import type { CliCommand, CliEnv } from './cli/command.ts'
import run from './cli/run.ts'
import tail from './cli/tail.ts'
import info from './cli/info.ts'
import convert from './cli/convert.ts'
import beats from './cli/beats.ts'
import render from './cli/render.ts'
import qa from './cli/qa.ts'
import models from './cli/models.ts'
import score from './cli/score.ts'

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

// One module per command (src/cli/<name>.ts), each loading its implementation only when run.
// The element type is any: each command's handler is typed by its own builder.
const COMMANDS: CliCommand<any>[] = [run, tail, info, convert, beats, render, qa, models, score]

async function main(): Promise<number> {
  let code = 0
  const args = hideBin(process.argv)
  const env: CliEnv = { signal: controller.signal, stdout: process.stdout, stderr: process.stderr, args }
  let y: Argv = yargs(args)
    .scriptName('pipeline')
    .usage('$0 <command> [options]')
    .option('verbose', { type: 'boolean', describe: 'print stack traces and causes of errors' })
  const register = (into: Argv, c: CliCommand<any>): Argv => {
    if (!c.subcommands) return into.command(c.command, c.describe, c.builder, async (a) => {
      code = await c.handler(a, env)
    })
    const names = c.subcommands.map((s) => s.command.split(' ')[0]).join(', ')
    return into.command(c.command.split(' ')[0], c.describe, (sub) => c.subcommands!.reduce(register, c.builder(sub)).demandCommand(1, `name an action: ${names}`))
  }
  for (const c of COMMANDS) y = register(y, c)
  await y
    .demandCommand(1, 'name a command: run, tail, info, convert, beats, render or qa')
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
