// Bounded concurrency in any order (the runner's records): at most `limit` calls of
// `fn` in flight, no new call once `signal` aborts, and it returns only after every started call
// settled. Stages whose results must come out in stream order use map-ordered.ts.

/** Runs `fn` over `items` with at most `limit` in flight; `skipped` gets the indices never started. */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
  opts: { signal?: AbortSignal; skipped?: (index: number) => void } = {},
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      if (opts.signal?.aborted) {
        opts.skipped?.(i)
        continue
      }
      await fn(items[i], i)
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker)
  await Promise.all(workers)
}
