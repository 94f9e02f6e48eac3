// Paths that outputs name are posix ("media/100/s0.png", "../demo/media/..."), whatever the
// platform: a run directory copied to another system still reads back.
import path from 'node:path'

/** path.relative(from, to) with "/" between the parts. */
export function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/')
}
