// `pipeline run <dataset>` on the command line (the command itself: src/commands/run.ts).
import { defineCommand } from './command.ts'
import { integerIn, numberFlag } from './flags.ts'

export default defineCommand({
  command: 'run <dataset>',
  describe: 'run (or resume) the stages of a dataset file',
  builder: (y) => y
    .positional('dataset', { type: 'string', demandOption: true, describe: 'dataset YAML file' })
    .option('out', { type: 'string', describe: 'run directory (default: the dataset\'s "out", else runs/<name>)' })
    .option('restart', { type: 'boolean', describe: 'discard the run directory\'s results and start over' })
    .option('concurrency', { type: 'number', describe: 'records in parallel (overrides concurrency.records)' }),
  async handler(a, env) {
    // The same bounds as the dataset's concurrency.records.
    const concurrency = numberFlag(env.args, '--concurrency', a.concurrency, integerIn(1, 64, 4))
    const { runCommand } = await import('../commands/run.ts')
    return runCommand({ dataset: a.dataset, out: a.out, restart: a.restart, concurrency, signal: env.signal, err: env.stderr })
  },
})
