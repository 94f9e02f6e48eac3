// Bounded, ordered concurrency for stages: work is started in stream order, at most
// `concurrency` results wait at a time, and results come out in the order the work was started,
// whatever order it finishes in. The detect stage keeps chunks in flight in its beat worker, the
// render stages strips and frames in their drawing threads, the model stage its calls.
// A queue (createOrderedQueue) when a stage also passes other items on while the work runs;
// mapOrdered when the stream is only the work. Rejections are held until their turn (never
// unhandled meanwhile), and a stage that stops early settles what is in flight before its
// resources are released.

export interface OrderedQueue<R> {
  /** Results waiting (started, not yet taken). */
  readonly size: number
  /** Starts tracking `work` (a promise or a value already known). */
  push(work: R | PromiseLike<R>): void
  /** The oldest results while more than `keep` wait (default: one less than the concurrency, so there is room for the next). */
  land(keep?: number): AsyncGenerator<R>
  /** Waits until everything started has settled, ignoring failures (for `finally`: nothing may still write after cleanup). */
  settle(): Promise<void>
}

const ignore = () => undefined

/** A queue of at most `concurrency` pending results, taken oldest first. */
export function createOrderedQueue<R>(concurrency: number): OrderedQueue<R> {
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new RangeError(`concurrency must be an integer of at least 1, found ${concurrency}`)
  const pending: Promise<R>[] = []
  return {
    get size() {
      return pending.length
    },
    push(work) {
      const p = Promise.resolve(work)
      p.catch(ignore)
      pending.push(p)
    },
    async *land(keep = concurrency - 1) {
      while (pending.length > keep) yield await pending.shift()!
    },
    async settle() {
      await Promise.allSettled(pending)
    },
  }
}

export interface MapOrderedOptions {
  concurrency: number
  signal?: AbortSignal
}

/**
 * `fn` over every value of `source`, at most `concurrency` results pending, yielded in source
 * order. `fn` is called in source order (a worker that must see its input in order may rely on
 * it); a value it returns directly comes out as soon as the results before it have.
 */
export async function* mapOrdered<T, R>(source: AsyncIterable<T> | Iterable<T>, fn: (value: T, index: number) => R | PromiseLike<R>, opts: MapOrderedOptions): AsyncGenerator<R> {
  const queue = createOrderedQueue<R>(opts.concurrency)
  let index = 0
  try {
    for await (const value of source as AsyncIterable<T>) {
      opts.signal?.throwIfAborted()
      queue.push(fn(value, index++))
      yield* queue.land()
    }
    yield* queue.land(0)
  } finally {
    await queue.settle()
  }
}
