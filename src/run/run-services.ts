// The services every record of a run shares (RunServices, src/core/services.ts): limiters by
// name, the content cache, secrets and once-per-run results (a binary checked, an input run
// opened). One object per run, made by the runner (or by a command that streams one recording),
// so nothing is kept at module level.
import { PipelineError } from '../core/errors.ts'
import type { Limiter, LimiterOptions, RunServices } from '../core/services.ts'
import { createContentCache } from './content-cache.ts'
import { createLimiter } from './limiter.ts'
import { readSecret } from './secrets.ts'

export interface RunServicesOptions {
  /** The cache's folder; null: no cache (a command outside a run), cache() then says so. */
  cacheDir: string | null
  env?: NodeJS.ProcessEnv
}

/** Services for one run. */
export function createRunServices(o: RunServicesOptions): RunServices {
  const limiters = new Map<string, { options: string; limiter: Limiter }>()
  const made = new Map<string, Promise<unknown>>()
  return {
    limiter(name: string, options: LimiterOptions) {
      const key = JSON.stringify([options.concurrency, options.rpm ?? null, options.tpm ?? null])
      const known = limiters.get(name)
      if (known) {
        if (known.options !== key) throw new PipelineError('E_CONFIG_VALUE', `limiter "${name}" is asked for with other limits (${key}) than it was made with (${known.options}); give every user of one limiter the same concurrency, rpm and tpm`, { field: 'limiter' })
        return known.limiter
      }
      const limiter = createLimiter(options)
      limiters.set(name, { options: key, limiter })
      return limiter
    },
    cache(namespace: string) {
      if (o.cacheDir === null) throw new PipelineError('E_USAGE', 'the content cache exists only inside `pipeline run` (a run directory or a configured cache folder)', { field: 'cache' })
      return createContentCache(o.cacheDir, namespace)
    },
    secret: (name: string) => readSecret(name, o.env),
    once<T>(key: string, make: () => Promise<T>): Promise<T> {
      let p = made.get(key) as Promise<T> | undefined
      if (!p) {
        p = make()
        made.set(key, p)
        p.catch(() => made.delete(key)) // a failure is not kept: the next record tries again
      }
      return p
    },
  }
}
