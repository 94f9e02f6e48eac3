// Secrets (design.md "Configuration"): API keys come only from environment variables named in
// the config, and are never written to any output, log or manifest. A Secret keeps its value in
// a closure, not in a property: JSON.stringify of it (or of an item holding it) throws, a
// structured clone (postMessage to a worker) carries nothing, and printing it shows only the
// variable's name.
import { inspect } from 'node:util'
import { PipelineError } from '../core/errors.ts'
import type { Secret } from '../core/services.ts'

/** The secret in environment variable `name` of `env`; E_SECRET_MISSING when unset or empty. */
export function readSecret(name: string, env: NodeJS.ProcessEnv = process.env): Secret {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    // Not echoed: what was given where a name belongs may be the secret itself.
    throw new PipelineError('E_CONFIG_VALUE', `expected the name of an environment variable (letters, digits and _), found ${name.length} other characters; name the variable that holds the secret, never the secret itself`, { field: 'env' })
  }
  const value = env[name]
  if (!value) throw new PipelineError('E_SECRET_MISSING', `the environment variable ${name} is not set; export it before the run (export ${name}=...)`, { env: name })
  return createSecret(name, value)
}

function createSecret(name: string, value: string): Secret {
  const shown = `[secret ${name}]`
  const secret = Object.create(null) as Secret & Record<string | symbol, unknown>
  Object.defineProperties(secret, {
    name: { value: name, enumerable: false },
    reveal: { value: () => value, enumerable: false },
    toJSON: {
      value: () => {
        throw new PipelineError('E_INTERNAL', `the secret from ${name} was about to be serialized (written to an output, a log or a cache key); pass secret.reveal() only to the call that needs it`, { env: name })
      },
      enumerable: false,
    },
    toString: { value: () => shown, enumerable: false },
    [inspect.custom]: { value: () => shown, enumerable: false },
    [Symbol.toPrimitive]: { value: () => shown, enumerable: false },
  })
  return Object.freeze(secret)
}
