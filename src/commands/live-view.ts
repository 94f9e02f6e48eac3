// Draws a block of status lines: redrawn in place on a terminal, printed when it changes (at
// most once a second) otherwise, so logs of non-interactive runs stay readable.

export interface LiveView {
  update(lines: string[]): void
  final(lines: string[]): void
}

/** A live view on `out` (a TTY gets in-place redraws). */
export function createLiveView(out: NodeJS.WritableStream & { isTTY?: boolean }, minGapMs = 1000): LiveView {
  let drawn = 0
  let lastText = ''
  let lastAt = 0
  const draw = (lines: string[]) => {
    if (out.isTTY) {
      out.write(`${drawn ? `\x1b[${drawn}F\x1b[J` : ''}${lines.join('\n')}\n`)
      drawn = lines.length
    } else {
      out.write(lines.join('\n') + '\n')
    }
  }
  return {
    update(lines) {
      const text = lines.join('\n')
      const now = Date.now()
      if (text === lastText || (!out.isTTY && now - lastAt < minGapMs)) return
      lastText = text
      lastAt = now
      draw(lines)
    },
    final(lines) {
      draw(lines)
    },
  }
}
