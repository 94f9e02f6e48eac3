// `pipeline render <recording>` on the command line (the command itself: src/commands/render.ts).
import { defineCommand } from './command.ts'
import { numberFlag, positive } from './flags.ts'

export default defineCommand({
  command: 'render <recording>',
  describe: 'render one recording as text in mV, PNG strips and/or an MP4 video (cleaned, with beat markers)',
  builder: (y) => y
    .positional('recording', { type: 'string', demandOption: true, describe: 'EDF/EDF+ file, or WFDB record by .hea or base path' })
    .option('text', { type: 'string', describe: 'write the text (mV, 3 decimals, a line per window and lead) to this file' })
    .option('strips', { type: 'string', describe: 'write one PNG strip per window into this folder' })
    .option('video', { type: 'string', describe: 'write an MP4 video, a frame per window, to this file' })
    .option('window', { type: 'number', default: 10, describe: 'window length, seconds' })
    .option('step', { type: 'number', describe: 'step between windows, seconds (default: the window length)' })
    .option('lead', { type: 'string', describe: 'lead to render: index or label (default: every ECG-like signal; text: the first)' })
    .option('raw', { type: 'boolean', describe: 'render the raw signal (no clean stage)' })
    .option('beats', { type: 'boolean', default: true, describe: 'detect beats and mark them and the reference beats on strips (--no-beats: no markers)' }),
  async handler(a, env) {
    const window = numberFlag(env.args, '--window', a.window, positive('seconds', 10)) ?? 10
    const step = numberFlag(env.args, '--step', a.step, positive('seconds', 10))
    const { renderCommand } = await import('../commands/render.ts')
    return renderCommand(a.recording, { text: a.text, strips: a.strips, video: a.video, window, step, lead: a.lead, raw: a.raw, beats: a.beats, signal: env.signal, err: env.stderr })
  },
})
