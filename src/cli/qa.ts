// `pipeline qa <action>` on the command line: export a benchmark run in the public Holtercare
// layout, validate and audit any Holtercare-format folder, show one item. Each action's
// implementation (src/commands/qa-<action>.ts) is loaded only when it runs.
import { defineCommand } from './command.ts'

const exportQa = defineCommand({
  command: 'export <runDir> <outDir>',
  describe: 'write a run\'s QA items in the public layout (<split>/<tier>/<task_type>.json), with gold and inputs beside them; warns of a split that is empty or lacks a task type or event the others have',
  builder: (y) => y
    .positional('runDir', { type: 'string', demandOption: true, describe: 'a run directory whose stages included qa' })
    .positional('outDir', { type: 'string', demandOption: true, describe: 'the folder to write (made as needed; its qa files are replaced)' })
    .option('format', { choices: ['holtercare'] as const, default: 'holtercare' as const, describe: 'the layout written' })
    .option('inputs', { choices: ['copy', 'link', 'none'] as const, default: 'copy' as const, describe: 'how the items\' input files go under <outDir>/inputs' }),
  async handler(a, env) {
    const { qaExportCommand } = await import('../commands/qa-export.ts')
    return qaExportCommand({ runDir: a.runDir, outDir: a.outDir, inputs: a.inputs, out: env.stdout, err: env.stderr, signal: env.signal })
  },
})

const validateQa = defineCommand({
  command: 'validate <dir>',
  describe: 'check a Holtercare-format folder (layout, schema, options, answers, ids and tags); exit 1 on any problem; warns of a split that lacks a task type (or event, with gold files) the others have',
  builder: (y) => y.positional('dir', { type: 'string', demandOption: true, describe: 'a folder of splits, or one split\'s folder' }),
  async handler(a, env) {
    const { qaValidateCommand } = await import('../commands/qa-validate.ts')
    return qaValidateCommand({ dir: a.dir, out: env.stdout, err: env.stderr })
  },
})

const auditQa = defineCommand({
  command: 'audit <dir>',
  describe: 'accuracy of answerers that never see the ECG (option layout, position in the stated span, the other questions of the same excerpt, priors) per closed task against chance; floors of blind answers on the open tasks',
  builder: (y) => y
    .positional('dir', { type: 'string', demandOption: true, describe: 'the Holtercare-format folder (or split) to audit' })
    .option('train', { type: 'string', describe: 'a split to learn the priors from (its split is then left out of the audit); without it, a folder of 2+ splits audits each with priors from the others' })
    .option('json', { type: 'boolean', describe: 'print the table as JSON' })
    .option('strict', { type: 'boolean', describe: 'exit 1 when an answerer beats chance by more than 3 points on 100+ items beyond what chance explains (p < 0.05 over all rows)' }),
  async handler(a, env) {
    const { qaAuditCommand } = await import('../commands/qa-audit.ts')
    return qaAuditCommand({ dir: a.dir, train: a.train, json: a.json, strict: a.strict, out: env.stdout })
  },
})

const showQa = defineCommand({
  command: 'show <runDir> <qaId>',
  describe: 'one QA item: question, options, gold, its excerpt and its input files',
  builder: (y) => y
    .positional('runDir', { type: 'string', demandOption: true })
    .positional('qaId', { type: 'string', demandOption: true })
    .option('json', { type: 'boolean', describe: 'print the item as JSON' }),
  async handler(a, env) {
    const { qaShowCommand } = await import('../commands/qa-show.ts')
    return qaShowCommand({ runDir: a.runDir, qaId: a.qaId, json: a.json, out: env.stdout })
  },
})

export default defineCommand({
  command: 'qa',
  describe: 'benchmark QA: export, validate, audit, show',
  builder: (y) => y,
  subcommands: [exportQa, validateQa, auditQa, showQa],
  // Never called: yargs runs the subcommand's handler.
  handler: async () => 0,
})
