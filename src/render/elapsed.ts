// Time from a record's start as hh:mm:ss.mmm, hours counting on past 24 (a Holter record is
// 13-24 h and more): the strips' header (draw-strip.ts) and render-text's line heads.

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** hh:mm:ss.mmm of `ms` (rounded to the millisecond, negative as 0). */
export function formatElapsed(ms: number): string {
  const t = Math.max(0, Math.round(ms))
  return `${pad(Math.floor(t / 3_600_000))}:${pad(Math.floor(t / 60_000) % 60)}:${pad(Math.floor(t / 1000) % 60)}.${pad(t % 1000, 3)}`
}
