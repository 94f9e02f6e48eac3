// The services a stage reaches through its context (design.md "Units": Context), as contracts:
// the run directory's implementations live in src/run, the writers in src/sinks, so stages and
// plugins depend on these shapes only.

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

/** A media file as a render item names it: its path relative to the run directory (posix) and its size. */
export interface MediaFile {
  path: string
  bytes: number
}

/** A file the stage appends to while the record streams (render-text's text). */
export interface MediaAppender {
  /** The run-relative path items name. */
  readonly path: string
  /** Bytes written so far: where the next write lands. */
  readonly offset: number
  /** Appends `bytes` (the caller may reuse them at once); once it resolves they are in the file, readable by anyone. */
  write(bytes: Uint8Array): Promise<void>
  /** Closes the file. */
  close(): Promise<void>
}

/**
 * A file another program writes (ffmpeg): it writes `partial` and gives it the name `file` when
 * complete (src/sinks/partial-file.ts); `adopt` then makes it one of the record's media.
 */
export interface MediaReservation {
  readonly file: string
  readonly partial: string
  readonly path: string
  /** The file is complete under its name: the store keeps it with the record's media; resolves with its size. */
  adopt(): Promise<number>
  /** Removes the partial file (after a failure). */
  discard(): Promise<void>
}

/**
 * One record's media (design.md: media write/open): files are complete under their name when
 * write/commit resolve (written under a temporary name, renamed when whole), and the files of a
 * record that fails are removed, so no media is left without the item that names it.
 */
export interface MediaStore {
  /** The record's media folder (absolute): media/<recordId>/ in a run. */
  readonly dir: string
  /** A file's path as items name it: relative to the run directory, with "/". */
  relative(file: string): string
  /** The absolute file that an item's path names (paths into an input run start with ../). */
  resolve(path: string): string
  /** Writes a whole file at `rel` under dir (folders made as needed). */
  write(rel: string, bytes: Uint8Array): Promise<MediaFile>
  /** Opens `rel` under dir for appending (truncating what an interrupted attempt left). */
  append(rel: string): Promise<MediaAppender>
  /** A file at `rel` under dir for another program to write (folders made as needed). */
  reserve(rel: string): Promise<MediaReservation>
  /** Removes a file this store wrote (one whose item will never be yielded). */
  remove(file: string): Promise<void>
  /** Reads a media file named by an item's path (this run's or an input run's), whole or a byte range. */
  read(path: string, range?: { offset: number; bytes: number }): Promise<Buffer>
}

/** Calls shared by all records of a run, bounded in number and rate (src/run/limiter.ts). */
export interface Limiter {
  /** Runs `fn` when a slot is free and the rates allow `cost` (tokens) now. */
  run<T>(fn: () => Promise<T>, opts?: { cost?: number; signal?: AbortSignal }): Promise<T>
  readonly active: number
  readonly waiting: number
}

export interface LimiterOptions {
  /** Calls at a time. */
  concurrency: number
  /** Calls started per minute. */
  rpm?: number
  /** Cost (tokens) started per minute. */
  tpm?: number
}

/** A content-addressed store that survives --restart and may be shared across runs (src/run/content-cache.ts). */
export interface ContentCache {
  /** The key of a value: a hash of its canonical JSON. */
  key(value: unknown): string
  get<T = unknown>(key: string): Promise<T | undefined>
  /** Stores durably; a key already stored keeps its first value. */
  put(key: string, value: unknown): Promise<void>
  readonly dir: string
}

/** A secret read from an environment variable: never serializable (toJSON and structured clones carry nothing). */
export interface Secret {
  /** The environment variable it came from (safe to print). */
  readonly name: string
  /** The value, for the one call that needs it. */
  reveal(): string
}

/** Services shared by every record of a run. */
export interface RunServices {
  /** The limiter named `name`, the same object for every record of the run. */
  limiter(name: string, options: LimiterOptions): Limiter
  /** The content cache for `namespace` (a folder of the run's cache directory). */
  cache(namespace: string): ContentCache
  /** The secret in environment variable `name`; E_SECRET_MISSING when it is not set. */
  secret(name: string): Secret
  /** The result of `make()` for `key`, made once per run (a check of a binary, an opened input run); a failure is not kept. */
  once<T>(key: string, make: () => Promise<T>): Promise<T>
}
