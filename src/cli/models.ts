// `pipeline models <action>`: checks of a dataset's models before a paid run. The implementation
// (src/commands/models-check.ts) is loaded only when it runs.
import { defineCommand } from './command.ts'

const check = defineCommand({
  command: 'check <dataset>',
  describe: 'one short call per API model (reachable? key valid? model known?) and the budget check of every QA item; nothing else is spent',
  builder: (y) => y
    .positional('dataset', { type: 'string', demandOption: true, describe: 'the dataset file whose infer stage names the models' })
    .option('out', { type: 'string', describe: 'the run directory whose QA items to check, when the dataset makes its own and was run with --out' }),
  async handler(a, env) {
    const { modelsCheckCommand } = await import('../commands/models-check.ts')
    return modelsCheckCommand({ dataset: a.dataset, runDir: a.out, out: env.stdout, signal: env.signal })
  },
})

export default defineCommand({
  command: 'models',
  describe: 'the models of an infer stage: check them before a run',
  builder: (y) => y,
  handler: async () => 0,
  subcommands: [check],
})
