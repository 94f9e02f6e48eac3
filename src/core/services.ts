// The services a stage reaches through its context (design.md "Units": Context), as contracts:
// the run directory's implementations live in src/run, so stages depend on these shapes only.

/** An item-level checkpoint store that survives interruption (src/run/item-journal.ts). */
export interface ItemJournal {
  readonly file: string
  has(key: string): boolean
  get<T = unknown>(key: string): Promise<T | undefined>
  /** Stores the value durably; a key already stored keeps its first value. */
  put(key: string, value: unknown): Promise<void>
  readonly size: number
  close(): Promise<void>
}
