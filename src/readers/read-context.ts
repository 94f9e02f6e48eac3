// What the readers need from a stage context: the abort signal and a way to warn.

export interface ReadContext {
  signal: AbortSignal
  warn(code: string, message: string): void
}
