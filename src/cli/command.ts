// The shape of one command of the command line: a yargs command (command string, description,
// builder) whose handler resolves with the process exit code instead of exiting, so that
// src/cli.ts stays the only place that exits. Each src/cli/<name>.ts defines one and imports
// the implementation (src/commands/<name>.ts) only inside its handler: `pipeline --help` and
// every other command then load none of it.
import type { Argv, ArgumentsCamelCase } from 'yargs'

/** What a command's handler gets besides its arguments (the CLI's streams and abort signal). */
export interface CliEnv {
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
  /** The raw arguments (after the node binary and script): messages quote what was typed. */
  args: readonly string[]
}

export interface CliCommand<A> {
  command: string
  describe: string
  builder: (y: Argv) => Argv<A>
  handler: (args: ArgumentsCamelCase<A>, env: CliEnv) => Promise<number>
  /** Actions under this command (`pipeline qa export ...`): each a command of its own. */
  subcommands?: CliCommand<any>[]
}

/** Identity helper that types a command's handler from its builder. */
export function defineCommand<A>(command: CliCommand<A>): CliCommand<A> {
  return command
}
