// The PipelineError a function throws (fails the test when it throws nothing or something else).
import { expect } from 'vitest'
import { PipelineError } from '../../src/core/errors.ts'

/** Calls `fn` and returns the PipelineError it threw. */
export function thrown(fn: () => unknown): PipelineError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(PipelineError)
    return err as PipelineError
  }
  throw new Error('expected a PipelineError, nothing was thrown')
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a rejection')
}
