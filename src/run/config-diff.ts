// What changed between the config a run directory was made with and the one given now, in the
// dataset's terms (`stages[3] detect: options.lead 0 -> 1`, `records: + 203`), so a refused
// resume says what to undo instead of showing two hashes.

const MAX_LINES = 8

/** Lines describing how `after` differs from `before` (both configForHash values). */
export function describeConfigChange(before: unknown, after: unknown): string[] {
  const out: string[] = []
  diff(before, after, '', out)
  return out.length > MAX_LINES ? [...out.slice(0, MAX_LINES), `... and ${out.length - MAX_LINES} more`] : out
}

// Every change is found (the count after the cut says how many more there are); configs are small.
function diff(a: unknown, b: unknown, at: string, out: string[]): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (at === 'records' || isKeyed(a, 'id')) return diffKeyed(a as { id: string }[], b as { id: string }[], at, out)
    if (a.length !== b.length || a.some((x, i) => named(x) !== named(b[i]))) {
      if (a.every(named) && b.every(named)) return void out.push(`${at}: [${a.map(named).join(', ')}] -> [${b.map(named).join(', ')}]`)
    }
    const n = Math.max(a.length, b.length)
    for (let i = 0; i < n; i++) diff(a[i], b[i], `${at}[${i}]${named(b[i] ?? a[i]) ? ` ${named(b[i] ?? a[i])}` : ''}`, out)
    return
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[k], b[k], at ? `${at}.${k}` : k, out)
    return
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${at || '(config)'}: ${short(a)} -> ${short(b)}`)
}

function diffKeyed(a: { id: string }[], b: { id: string }[], at: string, out: string[]): void {
  const before = new Map(a.map((r) => [r.id, r]))
  const after = new Map(b.map((r) => [r.id, r]))
  const added = b.filter((r) => !before.has(r.id)).map((r) => r.id)
  const removed = a.filter((r) => !after.has(r.id)).map((r) => r.id)
  if (added.length) out.push(`${at}: added ${ids(added)}`)
  if (removed.length) out.push(`${at}: removed ${ids(removed)}`)
  for (const [id, r] of after) if (before.has(id)) diff(before.get(id), r, `${at} ${id}`, out)
}

const ids = (xs: string[]) => (xs.length > 10 ? `${xs.slice(0, 10).join(', ')} and ${xs.length - 10} more` : xs.join(', '))
const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)
const isKeyed = (xs: unknown[], key: string) => xs.length > 0 && xs.every((x) => isObject(x) && typeof x[key] === 'string')
const named = (x: unknown): string => (isObject(x) && typeof x.name === 'string' ? x.name : '')

function short(x: unknown): string {
  if (x === undefined) return '(none)'
  const text = JSON.stringify(x)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
