// Finding and checking the system ffmpeg. Video is encoded by spawning the `ffmpeg`
// binary directly (fluent-ffmpeg is archived and hangs the pipeline when ffmpeg dies; see
// docs/dependencies.md). The binary is FFMPEG_PATH or the first `ffmpeg` on PATH, found by
// walking PATH ourselves: shelling out to `which` would need a shell and differs per platform.
// The binary is looked up afresh each time (findFfmpeg); a check that passed is kept for the run
// (checkFfmpegOnce, through the run's once()), keyed by the file's path, size and mtime, so the
// records after the first do not spawn ffmpeg twice more and a replaced binary is checked again.
import { execFile } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'
import { PipelineError } from '../core/errors.ts'

export interface FfmpegPaths {
  ffmpeg: string
  ffprobe: string | null
}

export interface CheckOptions {
  /** Who needs ffmpeg, for the message (e.g. 'stage render-video'). */
  what?: string
  /** How long each of `-version` and `-encoders` may take before the binary counts as broken; default 10 s. */
  timeoutMs?: number
}

/** The ffmpeg (and ffprobe) to use: FFMPEG_PATH, else PATH; null when there is none. */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): FfmpegPaths | null {
  const explicit = env.FFMPEG_PATH
  // A set FFMPEG_PATH that is unusable is an error, not a reason to take another ffmpeg.
  if (explicit) return isExecutable(explicit) ? { ffmpeg: path.resolve(explicit), ffprobe: findFfprobe(env, path.dirname(path.resolve(explicit)), path.extname(explicit)) } : null
  const ffmpeg = searchPath('ffmpeg', env)
  return ffmpeg ? { ffmpeg, ffprobe: findFfprobe(env, path.dirname(ffmpeg), path.extname(ffmpeg)) } : null
}

/** The ffmpeg binary's path, or E_FFMPEG_MISSING saying what needs it and how to get it. */
export function requireFfmpeg(what: string, env: NodeJS.ProcessEnv = process.env): string {
  const found = findFfmpeg(env)
  if (found) return found.ffmpeg
  const explicit = env.FFMPEG_PATH
  const problem = explicit
    ? `FFMPEG_PATH is set to "${explicit}", which ${describeUnusable(explicit)}`
    : 'no ffmpeg was found on PATH and FFMPEG_PATH is not set'
  throw new PipelineError('E_FFMPEG_MISSING', `ffmpeg is needed by ${what}, but ${problem}. ${installHint()}`, { ffmpegPath: explicit })
}

/** What to do about a missing or unusable ffmpeg: install it, point FFMPEG_PATH at one, or turn video off. */
export function installHint(): string {
  return (
    'Install ffmpeg with libx264: `sudo apt-get install -y ffmpeg` on Debian/Ubuntu, `brew install ffmpeg` on macOS ' +
    '(or run `bash scripts/ensure-ffmpeg.sh`); or set FFMPEG_PATH to an ffmpeg binary; ' +
    'or, to render no video, remove the render-video stage from the pipeline.'
  )
}

/** Runs `ffmpeg -version` and `-encoders` once (with a timeout); E_FFMPEG_MISSING unless it runs and has libx264. Returns the version line. */
export async function checkFfmpeg(ffmpeg: string, signal: AbortSignal, opts: CheckOptions = {}): Promise<{ version: string }> {
  const what = opts.what ?? 'video rendering'
  const timeoutMs = opts.timeoutMs ?? 10_000
  const version = await runQuiet(ffmpeg, ['-hide_banner', '-version'], { signal, what, timeoutMs })
  const encoders = await runQuiet(ffmpeg, ['-hide_banner', '-encoders'], { signal, what, timeoutMs })
  if (!/^\s*V\S*\s+libx264\s/m.test(encoders)) {
    throw new PipelineError('E_FFMPEG_MISSING', `ffmpeg with the libx264 encoder is needed by ${what}, but ${ffmpeg} (${firstLine(version)}) lists no libx264 in \`-encoders\`. ${installHint()}`, { file: ffmpeg })
  }
  return { version: firstLine(version) }
}

/**
 * checkFfmpeg through `once` (a run's once-per-run results): not again for a binary that has
 * passed, keyed by its path, size and mtime, so a replaced binary is checked afresh; a failure
 * is not kept.
 */
export function checkFfmpegOnce(ffmpeg: string, signal: AbortSignal, once: <T>(key: string, make: () => Promise<T>) => Promise<T>, opts: CheckOptions = {}): Promise<{ version: string }> {
  const s = statSync(ffmpeg, { throwIfNoEntry: false })
  return once(`ffmpeg-check:${ffmpeg}\0${s?.size}\0${s?.mtimeMs}`, () => checkFfmpeg(ffmpeg, signal, opts))
}

/** stdout of `ffmpeg args`; a failure to start, a non-zero exit or the timeout becomes E_FFMPEG_MISSING, the caller's abort stays an abort. */
async function runQuiet(ffmpeg: string, args: string[], { signal, what, timeoutMs }: { signal: AbortSignal; what: string; timeoutMs: number }): Promise<string> {
  signal.throwIfAborted()
  const timeout = AbortSignal.timeout(timeoutMs)
  const both = AbortSignal.any([signal, timeout])
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(ffmpeg, args, { signal: both, killSignal: 'SIGKILL', maxBuffer: 4 << 20, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stderrText: stderr }))
        else resolve(stdout)
      })
    })
  } catch (err) {
    if (signal.aborted) throw signal.reason
    const why = timeout.aborted ? `did not answer within ${timeoutMs} ms` : `failed: ${errorText(err)}`
    throw new PipelineError('E_FFMPEG_MISSING', `a working ffmpeg is needed by ${what}, but \`${ffmpeg} ${args.join(' ')}\` ${why}. ${installHint()}`, { file: ffmpeg }, { cause: err })
  }
}

function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { stderrText?: string }
  const stderr = e.stderrText?.trim()
  return stderr ? `${e.code ?? e.message}: ${stderr.slice(-500)}` : (e.code ?? e.message)
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0].trim()
}

// ffprobe comes with ffmpeg: FFPROBE_PATH, else beside the ffmpeg in use, else on PATH.
function findFfprobe(env: NodeJS.ProcessEnv, dir: string, ext: string): string | null {
  if (env.FFPROBE_PATH) return isExecutable(env.FFPROBE_PATH) ? path.resolve(env.FFPROBE_PATH) : null
  const beside = path.join(dir, `ffprobe${ext}`)
  return isExecutable(beside) ? beside : searchPath('ffprobe', env)
}

// The first executable `name` in env.PATH (with PATHEXT's extensions on Windows).
function searchPath(name: string, env: NodeJS.ProcessEnv): string | null {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean)
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : ['']
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.resolve(dir, name + ext)
      if (isExecutable(candidate)) return candidate
    }
  }
  return null
}

function isExecutable(file: string): boolean {
  return describeUnusable(file) === null
}

// Why `file` cannot be run as a program, in words for a message, or null when it can.
function describeUnusable(file: string): string | null {
  let stat
  try {
    stat = statSync(file)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as NodeJS.ErrnoException).code})`
  }
  if (!stat.isFile()) return 'is not a file'
  try {
    accessSync(file, constants.X_OK)
    return null
  } catch {
    return 'is not executable (try `chmod +x`)'
  }
}
