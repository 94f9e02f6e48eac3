// Writes a bench/results/*.md table and keeps the hand-written part of the old file from its
// "## Notes" heading on, so a re-run refreshes the numbers without losing the notes.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

export async function writeResultsKeepingNotes(file: string, md: string): Promise<void> {
  const old = await readFile(file, 'utf8').catch(() => '')
  const notes = old.indexOf('\n## Notes')
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, notes < 0 ? md : md + '\n' + old.slice(notes + 1))
}
