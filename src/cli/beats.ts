// `pipeline beats <recording..>` on the command line (the command itself: src/commands/beats.ts).
import { defineCommand } from './command.ts'

export default defineCommand({
  command: 'beats <recording..>',
  describe: 'detect and classify the beats of one recording (NDJSON, one beat per line); --score compares them with its reference annotations',
  builder: (y) => y
    .positional('recording', { type: 'string', array: true, demandOption: true, describe: 'EDF/EDF+ file, or WFDB record by .hea or base path; several: the consecutive parts of one recording' })
    .option('lead', { type: 'string', describe: 'lead to detect on: index or label (default: the first ECG-like signal)' })
    .option('out', { type: 'string', describe: 'write the beats to this file (default: stdout)' })
    .option('score', { type: 'boolean', describe: 'print beat-by-beat statistics against the reference annotations (like WFDB bxb)' })
    .option('clean', { type: 'boolean', describe: 'detect on the cleaned signal (the clean stage) instead of the raw one' })
    .option('annotator', { type: 'string', default: 'atr', describe: 'WFDB annotator of the reference for --score' }),
  async handler(a, env) {
    const { beatsCommand } = await import('../commands/beats.ts')
    return beatsCommand(a.recording as string[], { lead: a.lead, out: a.out, score: a.score, clean: a.clean, annotator: a.annotator || false, signal: env.signal, stdout: env.stdout, err: env.stderr })
  },
})
