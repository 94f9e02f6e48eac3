// Result shapes of bench/stream-24h.ts, the issue's targets evaluated on them, and the Markdown
// table written to bench/results/stream-24h.md.

export interface RunMeasure {
  /** Whole child process, start to exit (node + tsx startup included). */
  wallSec: number
  peakRssBytes: number
  /** The runner's own wall time (progress.ndjson run-end wallMs): records only, no startup. */
  inRunSec?: number
  /** MNE: seconds inside mne.io.read_raw_edf(preload=True), imports excluded. */
  readSec?: number
  outputBytes?: number
  counts?: Record<string, number>
}

export interface CaseResult {
  name: string
  mode: 'read' | 'segment' | 'mne' | 'stage'
  file: string
  durationSec: number
  inputBytes: number
  runs: RunMeasure[]
  median?: { wallSec: number; peakRssBytes: number; inRunSec?: number; readSec?: number; outputBytes?: number }
  maxPeakRssBytes?: number
}

export interface Target { target: string; measured: string; holds: boolean }

export interface Report {
  date: string
  command: string
  machine: Record<string, unknown>
  runs: number
  cases: CaseResult[]
  targets: Target[]
}

const MB = 1e6
const ANCHOR_MNE_24H_SEC = 3.99
const mb = (b: number | undefined) => (b === undefined ? '' : (b / MB).toFixed(1))
const sec = (s: number | undefined) => (s === undefined ? '' : s.toFixed(2))

/** The issue's targets: RSS < 150 MB, 24 h within 20 % of 1 h, read >= 5x faster than MNE. */
export function evaluateTargets(r: Report): Target[] {
  const get = (name: string) => r.cases.find((c) => c.name === name)
  const out: Target[] = []
  for (const mode of ['read', 'segment']) {
    for (const f of ['1h', '24h']) {
      const c = get(`${mode}-${f}`)
      if (c?.maxPeakRssBytes) out.push({ target: `${mode} ${f}: peak RSS < 150 MB (worst of ${c.runs.length} runs)`, measured: `${mb(c.maxPeakRssBytes)} MB`, holds: c.maxPeakRssBytes < 150 * MB })
    }
    const a = get(`${mode}-1h`)?.median
    const b = get(`${mode}-24h`)?.median
    if (a && b) {
      const growth = b.peakRssBytes / a.peakRssBytes - 1
      out.push({ target: `${mode}: peak RSS of 24 h within 20 % of 1 h (medians)`, measured: `${mb(a.peakRssBytes)} -> ${mb(b.peakRssBytes)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %)`, holds: Math.abs(growth) <= 0.2 })
    }
  }
  const ours = get('read-24h')?.median
  const mne = get('mne-24h')?.median
  const mneSec = mne?.readSec ?? ANCHOR_MNE_24H_SEC
  const label = mne?.readSec !== undefined ? `MNE read_raw_edf(preload=True) measured here, median ${sec(mneSec)} s` : `MNE ${ANCHOR_MNE_24H_SEC} s from anchors.md (NOT measured here)`
  if (ours) {
    out.push({ target: `read 24 h with annotations >= 5x faster than MNE: whole pipeline process (startup included) vs ${label}`, measured: `${sec(ours.wallSec)} s, ${(mneSec / ours.wallSec).toFixed(2)}x`, holds: mneSec / ours.wallSec >= 5 })
    if (ours.inRunSec !== undefined) out.push({ target: `same, runner time only (no node startup; includes writing the annotation NDJSON)`, measured: `${sec(ours.inRunSec)} s, ${(mneSec / ours.inRunSec).toFixed(2)}x`, holds: mneSec / ours.inRunSec >= 5 })
  }
  const stage = get('stage-24h')?.median
  if (stage?.readSec !== undefined) out.push({ target: `read stage alone (blocks in mV + annotation items, nothing written), the equivalent of MNE's preload read, vs ${label}`, measured: `${sec(stage.readSec)} s, ${(mneSec / stage.readSec).toFixed(2)}x`, holds: mneSec / stage.readSec >= 5 })
  return out
}

/** The results as Markdown: machine, one row per case (medians), targets. */
export function renderMarkdown(r: Report): string {
  const m = r.machine
  const lines = [
    '# stream-24h results', '',
    `${r.date}, \`${r.command}\`, median of ${r.runs} runs (interleaved).`,
    `Machine: ${m.nproc} CPUs (${m.cpu}), ${m.memTotalGB} GB, node ${m.node}, ${m.platform}; peak RSS by ${m.rssMethod}${m.mne ? `; MNE ${m.mne} (Debian python3-mne, outside the project)` : ''}.`, '',
    '| case | file | wall s | runner s | x real time | peak RSS MB (max) | output MB | output MB/s | items |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const c of r.cases) {
    const md = c.median!
    const items = Object.entries(c.runs.at(-1)?.counts ?? {}).map(([k, n]) => `${n} ${k}`).join(', ')
    const runner = c.mode === 'mne' ? `${sec(md.readSec)} (read call)` : sec(md.inRunSec)
    const rate = md.outputBytes !== undefined ? (md.outputBytes / MB / md.wallSec).toFixed(1) : ''
    lines.push(`| ${c.name} | ${c.file} (${mb(c.inputBytes)} MB, ${c.durationSec / 3600} h) | ${sec(md.wallSec)} | ${runner} | ${(c.durationSec / md.wallSec).toFixed(0)} | ${mb(md.peakRssBytes)} (${mb(c.maxPeakRssBytes)}) | ${mb(md.outputBytes)} | ${rate} | ${items} |`)
  }
  lines.push('', 'wall: the whole child process (node + tsx startup, or python + MNE import). runner: the run\'s own wall time from progress.ndjson (run-end wallMs); for MNE, the read_raw_edf call alone. x real time = signal duration / wall.', '', '## Targets', '', '| target | measured | holds |', '|---|---|---|')
  for (const t of r.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.holds ? 'yes' : '**no**'} |`)
  return lines.join('\n') + '\n'
}
