// Template matching for the beat classifier (beat-templates.ts) in WebAssembly SIMD, with the
// JavaScript of beat-features.ts (shiftVariances, matchCentred) as the fallback where SIMD is
// missing. Matching is the largest part of the classifier's time; the kernels (scripts/
// wasm-beat-kernels.mjs) put two shifts of one sum in the lanes of an f64x2 register, each lane
// summing in the JavaScript's k order, so results are bit-identical to it (test/dsp/
// beat-match.test.ts). A template's centred values live in the instance's memory (a Float64Array
// view that centreTemplate fills in place), so a match copies nothing; the beat's match range
// (83 values) is copied in once per beat. A template's running average lives beside its centred
// values, and the kernels blend the beat into it and centre it again, two values at a time.
import { blendInto, type CentredTemplate, centreTemplate, createCentred, type Match, MATCH_FROM, MATCH_LEN, MATCH_TO, MAX_SHIFT, matchCentred, shiftVariances, SHIFTS } from './beat-features.ts'
import { BEAT_KERNELS_LAYOUT as L, beatKernelsModule } from './beat-kernels.ts'
import { instantiateWithMemory } from './wasm-module.ts'

export interface BeatMatcher {
  /** A centred template for `match`; at most `slots` (createBeatMatcher's) at a time. */
  createCentred(): CentredTemplate
  /** Sets the beat (a beat-window.ts wave) that `match` compares; once per beat. */
  setBeat(wave: Float64Array): void
  /** matchCentred of the beat set last with `t` (one of this matcher's centred templates). */
  match(t: CentredTemplate, out: Match): Match
  /** Starts `t` (one of this matcher's) from a beat's wave: its match range, centred. */
  start(t: CentredTemplate, wave: Float64Array): void
  /** Moves `t` towards the beat set last by `weight`, aligned by `shift` (blendInto), and centres it again. */
  blend(t: CentredTemplate, shift: number, weight: number): void
}

/** The matcher in JavaScript (beat-features.ts), for where WebAssembly SIMD is unavailable. */
export function createJsBeatMatcher(): BeatMatcher {
  const variances = new Float64Array(SHIFTS)
  let beat: Float64Array = new Float64Array(0)
  return {
    createCentred,
    setBeat(wave) {
      beat = wave
      shiftVariances(wave, variances)
    },
    match: (t, out) => matchCentred(beat, variances, t, out),
    start(t, wave) {
      t.range.set(wave.subarray(MATCH_FROM, MATCH_TO))
      centreTemplate(t.range, t)
    },
    blend(t, shift, weight) {
      blendInto(t.range, beat, shift, weight)
      centreTemplate(t.range, t)
    },
  }
}

/** The matcher in WebAssembly SIMD with room for `slots` templates; null where SIMD is unavailable. */
export function createWasmBeatMatcher(slots: number): BeatMatcher | null {
  const module = beatKernelsModule()
  if (!module) return null
  if (L.MATCH_LEN !== MATCH_LEN || L.SHIFTS !== SHIFTS) throw new Error(`beat-match: the kernels were generated for MATCH_LEN ${L.MATCH_LEN} and SHIFTS ${L.SHIFTS}, beat-features.ts has ${MATCH_LEN} and ${SHIFTS}; run scripts/wasm-beat-kernels.mjs with its constants updated`)
  type Kernels = { variances(): void; match(at: number, tVar: number): number; centre(at: number): number; blend(at: number, e: number, weight: number): number }
  const { exports: kernels, buffer } = instantiateWithMemory<Kernels>(module, L.TEMPLATES + slots * L.SLOT)
  const beat = new Float64Array(buffer, L.BEAT, L.BEAT_LEN)
  const best = new Float64Array(buffer, L.BEST, 1)
  const from = MATCH_FROM - MAX_SHIFT
  let used = 0
  const views: Float64Array[] = [] // each slot's centred values, to recognise this matcher's templates
  // The byte offset of `t`'s slot; `t` must be one of this matcher's (comparing views rather than
  // their .buffer, which V8 makes slow to read).
  const slotOf = (t: CentredTemplate) => {
    const at = t.centred.byteOffset
    if (views[(at - L.TEMPLATES) / L.SLOT] !== t.centred) throw new RangeError('beat-match: the template was not made by this matcher\'s createCentred()')
    return at
  }
  return {
    createCentred() {
      if (used === slots) throw new RangeError(`beat-match: all ${slots} template slots are taken; reuse a replaced template's centred values or create the matcher with more slots`)
      const at = L.TEMPLATES + L.SLOT * used++
      views.push(new Float64Array(buffer, at, MATCH_LEN))
      return { centred: views[views.length - 1], variance: 0, range: new Float64Array(buffer, at + L.RANGE, MATCH_LEN) }
    },
    setBeat(wave) {
      beat.set(wave.subarray(from, from + L.BEAT_LEN))
      kernels.variances()
    },
    match(t, out) {
      const e = kernels.match(slotOf(t), t.variance)
      out.corr = best[0]
      out.shift = e - MAX_SHIFT
      return out
    },
    start(t, wave) {
      const at = slotOf(t)
      t.range.set(wave.subarray(MATCH_FROM, MATCH_TO))
      t.variance = kernels.centre(at)
    },
    blend(t, shift, weight) {
      t.variance = kernels.blend(slotOf(t), shift + MAX_SHIFT, weight)
    },
  }
}

/** The WebAssembly matcher where SIMD is available, else the JavaScript one; one per template set. */
export function createBeatMatcher(slots: number): BeatMatcher {
  return createWasmBeatMatcher(slots) ?? createJsBeatMatcher()
}
