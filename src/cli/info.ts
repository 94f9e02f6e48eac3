// `pipeline info <recording>` on the command line (the command itself: src/commands/info.ts).
import { defineCommand } from './command.ts'

export default defineCommand({
  command: 'info <recording>',
  describe: 'describe a recording (EDF/EDF+/BDF file, or WFDB record by .hea or base path)',
  builder: (y) => y
    .positional('recording', { type: 'string', demandOption: true })
    .option('format', { choices: ['edf', 'wfdb'] as const, describe: 'override the format guessed from the extension' })
    .option('json', { type: 'boolean', describe: 'print JSON instead of text' }),
  async handler(a, env) {
    const { infoCommand } = await import('../commands/info.ts')
    return infoCommand(a.recording, { format: a.format, json: a.json, out: env.stdout })
  },
})
