// A promise with its resolvers outside it, so a test finishes work (calls, slots, latches) in
// whatever order it wants, instead of waiting on timers.

export interface Deferred<T> {
  promise: Promise<T>
  resolve(v: T): void
  reject(e: unknown): void
}

/** A promise and its resolve/reject. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Resolves after the work already resolved (callbacks queued, promises settled) has run: one turn of the event loop. */
export const settle = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve))
