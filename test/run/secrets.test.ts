// Secrets from environment variables (src/run/secrets.ts), unit layer: the value comes out only
// through reveal(); every other way of writing, printing or sending a Secret carries its name at
// most. A real worker thread checks what postMessage delivers.
import { format, inspect } from 'node:util'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { readSecret } from '../../src/run/secrets.ts'
import { thrown } from '../helpers/thrown.ts'

const VALUE = 'sk-test-5ecret-V4lue'
const env = { API_KEY: VALUE }

describe('secrets', () => {
  it('reads the variable from the env it is given; reveal() returns the value, name the variable', () => {
    const secret = readSecret('API_KEY', env)
    expect(secret.reveal()).toBe(VALUE)
    expect(secret.name).toBe('API_KEY')
    expect(readSecret('_under_9', { _under_9: 'x' }).reveal()).toBe('x')
  })

  it.each([
    ['unset', {}],
    ['empty', { API_KEY: '' }],
  ])('a variable that is %s is E_SECRET_MISSING, saying what to export', (_, e) => {
    const err = thrown(() => readSecret('API_KEY', e))
    expect(err.code).toBe('E_SECRET_MISSING')
    expect(err.context.env).toBe('API_KEY')
    expect(err.message).toContain('export API_KEY=')
  })

  it.each(['', '1ABC', 'API-KEY', 'A B', '$HOME', 'sk-live-123abc', 'KEY='])('refuses %j, which is not an environment variable name, with E_CONFIG_VALUE', (name) => {
    const err = thrown(() => readSecret(name, { [name]: 'whatever' }))
    expect(err.code).toBe('E_CONFIG_VALUE')
    expect(err.context.field).toBe('env')
    // What stands where a name belongs may be the secret itself: never echoed.
    if (name.length > 1) expect(err.message).not.toContain(name)
  })

  it.each([
    ['the secret', (s: unknown) => JSON.stringify(s)],
    ['an object holding it', (s: unknown) => JSON.stringify({ headers: { authorization: s } })],
    ['an array holding it', (s: unknown) => JSON.stringify([1, s])],
  ])('JSON.stringify of %s throws, without the value in the message', (_, stringify) => {
    const secret = readSecret('API_KEY', env)
    const err = thrown(() => stringify(secret))
    expect(err.code).toBe('E_INTERNAL')
    expect(err.message).toContain('API_KEY')
    expect(err.message).not.toContain(VALUE)
  })

  it.each([
    ['String()', (s: unknown) => String(s)],
    ['a template', (s: unknown) => `${s}`],
    ['+ ""', (s: unknown) => (s as string) + ''],
    ['util.inspect', (s: unknown) => inspect(s)],
    ['util.format %s', (s: unknown) => format('%s', s)],
    ['util.format %o', (s: unknown) => format('%o', s)],
  ])('%s shows "[secret API_KEY]"', (_, show) => {
    expect(show(readSecret('API_KEY', env))).toBe('[secret API_KEY]')
  })

  it.each([
    ['inspect of an object holding it', (s: unknown) => inspect({ auth: s }, { depth: null })],
    ['inspect without custom inspectors, hidden properties shown', (s: unknown) => inspect(s, { customInspect: false, showHidden: true, depth: null })],
    ['its own property names and values', (s: unknown) => Reflect.ownKeys(s as object).map((k) => `${String(k)}=${String(Reflect.get(s as object, k))}`).join(';')],
    ['a spread copy', (s: unknown) => inspect({ ...(s as object) }, { showHidden: true })],
  ])('%s never shows the value', (_, show) => {
    const out = show(readSecret('API_KEY', env))
    expect(out).not.toContain(VALUE)
  })

  it('is frozen: its reveal cannot be swapped', () => {
    const secret = readSecret('API_KEY', env)
    expect(() => Object.assign(secret, { reveal: () => 'other' })).toThrow(TypeError)
    expect(secret.reveal()).toBe(VALUE)
  })

  it('a structured clone carries no value (nor a reveal)', () => {
    const clone = structuredClone({ auth: readSecret('API_KEY', env), other: 1 }) as { auth: object; other: number }
    expect(clone.other).toBe(1)
    expect('reveal' in clone.auth).toBe(false)
    expect(inspect(clone, { showHidden: true, depth: null })).not.toContain(VALUE)
  })

  it('postMessage to a worker delivers no value', async () => {
    // The worker sends back everything it can see of what it received.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads')
       const { inspect } = require('node:util')
       parentPort.once('message', (m) => parentPort.postMessage(JSON.stringify(m) + ' ' + inspect(m, { showHidden: true, depth: null })))`,
      { eval: true },
    )
    try {
      const reply = new Promise<string>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
      })
      worker.postMessage({ marker: 'delivered', auth: readSecret('API_KEY', env) })
      const seen = await reply
      expect(seen).toContain('delivered')
      expect(seen).not.toContain(VALUE)
    } finally {
      await worker.terminate()
    }
  })
})
