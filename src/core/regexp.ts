// Text matched literally inside a RegExp built from names (event names, aliases, markers).

/** `s` with every RegExp metacharacter escaped. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
