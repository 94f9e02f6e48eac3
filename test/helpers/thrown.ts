// The error a function throws or a promise rejects with (fails the test when there is none).
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

/** The PipelineError a promise rejects with (fails the test when it resolves or rejects with something else). */
export async function pipelineRejection(p: Promise<unknown>): Promise<PipelineError> {
  const err = await rejection(p)
  expect(err).toBeInstanceOf(PipelineError)
  return err as PipelineError
}
