// Text layout of `pipeline info`.
import type { RecordingInfo } from './info.ts'
import { count } from './plural.ts'

/** The human-readable description of a recording. */
export function renderInfo(info: RecordingInfo): string {
  const lines = [
    `file:        ${info.file}`,
    `format:      ${info.format}`,
    `start time:  ${info.startTime ?? 'not specified'}`,
    `duration:    ${clock(info.durationSec)} (${count(info.samples, 'sample')} per signal)`,
  ]
  const patient = Object.entries(info.patient ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '')
  if (patient.length) lines.push(`patient:     ${patient.map(([k, v]) => `${k} ${v}`).join(', ')}`)
  for (const [k, v] of Object.entries(info.details)) lines.push(`${`${k}:`.padEnd(12)} ${v}`)
  lines.push(`signals:     ${info.signals.length}`)
  for (const s of info.signals) {
    const phys = s.physicalMin === null ? 'physical range not declared' : `physical ${s.physicalMin} .. ${s.physicalMax} ${s.units}`
    const extra = Object.entries(s).filter(([k]) => !['index', 'label', 'fs', 'samples', 'units', 'physicalMin', 'physicalMax', 'digitalMin', 'digitalMax'].includes(k)).map(([k, v]) => `${k} ${v}`).join(', ')
    const samples = typeof s.samples === 'number' && s.samples !== info.samples ? ` (${count(s.samples, 'sample')})` : ''
    lines.push(`  ${String(s.index).padStart(2)}  ${JSON.stringify(s.label).padEnd(18)} ${s.fs} Hz${samples}, ${phys}, digital ${s.digitalMin} .. ${s.digitalMax}${extra ? `, ${extra}` : ''}`)
  }
  const a = info.annotations
  lines.push(`annotations: ${a.file === null ? 'none' : `${a.count}${a.beats !== undefined ? ` (${count(a.beats, 'beat')})` : ''} in ${a.file}`}`)
  if (a.byType && Object.keys(a.byType).length) lines.push(`             ${Object.entries(a.byType).sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`)
  for (const c of info.comments ?? []) lines.push(`# ${c}`)
  for (const w of info.warnings) lines.push(`warning: ${w}`)
  return lines.join('\n') + '\n'
}

function clock(sec: number): string {
  const ms = Math.round(sec * 1000)
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor((ms % 3_600_000) / 60_000)
  const s = (ms % 60_000) / 1000
  return `${h}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`
}
