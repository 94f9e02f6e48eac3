// `pipeline tail <runDir>` on the command line (the command itself: src/commands/tail.ts).
import { defineCommand } from './command.ts'
import { atLeastZero, numberFlag, positive } from './flags.ts'

export default defineCommand({
  command: 'tail <runDir>',
  describe: 'follow the live progress of a run',
  builder: (y) => y
    .positional('runDir', { type: 'string', demandOption: true })
    .option('interval', { type: 'number', default: 250, describe: 'poll interval in ms' })
    .option('wait', { type: 'number', default: 60, describe: 'seconds to wait for a run that has not started' }),
  async handler(a, env) {
    const intervalMs = numberFlag(env.args, '--interval', a.interval, positive('milliseconds', 250))
    const wait = numberFlag(env.args, '--wait', a.wait, atLeastZero('seconds', 60))
    const { tailRun } = await import('../commands/tail.ts')
    return tailRun(a.runDir, { out: env.stdout, signal: env.signal, intervalMs, waitMs: wait === undefined ? undefined : wait * 1000 })
  },
})
