// `pipeline convert <input> <output>` on the command line (the command itself: src/commands/convert.ts).
import { defineCommand } from './command.ts'
import { numberFlag } from './flags.ts'

export default defineCommand({
  command: 'convert <input> <output>',
  describe: 'write a WFDB record or an EDF/EDF+ file as EDF+C (annotations as TALs); --clean writes the cleaned ECG leads',
  builder: (y) => y
    .positional('input', { type: 'string', demandOption: true })
    .positional('output', { type: 'string', demandOption: true })
    .option('annotator', { type: 'string', default: 'atr', describe: 'WFDB annotation file extension to carry over ("" for none)' })
    .option('clean', { type: 'boolean', describe: 'write the cleaned signals (the clean stage: 0.5 Hz high-pass, zero phase, powerline moving average)' })
    .option('powerline', { type: 'number', default: 50, describe: 'mains frequency for --clean, Hz (50 or 60)' }),
  async handler(a, env) {
    const powerlineHz = numberFlag(env.args, '--powerline', a.powerline, { expected: '50 or 60 (Hz, the mains frequency)', ok: (n) => n === 50 || n === 60, example: 50 })
    const { convertCommand } = await import('../commands/convert.ts')
    return convertCommand(a.input, a.output, { annotator: a.annotator || false, clean: a.clean, powerlineHz, signal: env.signal, err: env.stderr })
  },
})
