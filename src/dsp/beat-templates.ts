// Running beat templates for the beat classifier, after the template scheme of Hamilton's open
// source ECG analysis (OSEA, "Open Source ECG Analysis", Computers in Cardiology 29:101-104, 2002):
// a few templates, each the running average of the beats that match it (correlation >= MATCH_CORR
// and an amplitude within a factor of 1.5, after alignment); a beat that matches none starts a new
// one, replacing the least supported. The dominant template, the patient's normally conducted
// beat, is the narrowest (by QRS span) among the well supported ones, where support counts the
// beats that came on time (not premature), decaying over a few hundred beats: on time and narrow
// picks the sinus beats even in bigeminy or trigeminy, where PVCs can outnumber them.
// Speed: a template keeps only the part of the grid that is compared (the match range), the
// amplitude test comes before the correlation (it is free and rules out about a quarter of the
// templates), each template keeps its centred values until it changes, the matcher blends and
// centres templates where it keeps them (beat-match.ts), and the beat's match with the dominant
// template is reused when it was computed while assigning.
import type { BeatShape, CentredTemplate, Match } from './beat-features.ts'
import { createBeatMatcher } from './template-match.ts'

export interface Template {
  /** Beats averaged into it (capped: the running average then forgets with time constant 16). */
  beats: number
  /** Decayed count of its beats that were not premature. */
  support: number
  /** Running average of its beats' QRS span, ms. */
  spanMs: number
  /** Running average of its beats' QRS peak-to-peak, mV. */
  ptp: number
  /** Running average of its beats over the match range (centred.range, MATCH_FROM..MATCH_TO of the grid), and it centred (beat-features.ts). */
  centred: CentredTemplate
  /** Its match with the beat being assigned, valid when `matchedBeat` is that beat's number. */
  match: Match
  matchedBeat: number
}

/** Correlation a beat needs with a template to join it. */
export const MATCH_CORR = 0.9
const MAX_GAIN = 1.5
const MAX_TEMPLATES = 8
const AVERAGE_OF = 16
// Support decays by 1/DECAY per beat; a template needs this share of the best support (and a few
// beats) to be a candidate for dominant.
const DECAY = 300
const CANDIDATE_SHARE = 0.3
const CANDIDATE_BEATS = 4

export interface TemplateSet {
  /** Puts the beat into the template it matches best (updated), or into a new one; returns that template. */
  assign(shape: BeatShape, onTime: boolean): Template
  /** The dominant (normal) template; null before the first beat. */
  dominant(): Template | null
  /**
   * The last assigned beat's match with the dominant template: as it was before the beat was
   * averaged in, when the beat joined it. Call right after `assign` with the same shape.
   */
  matchDominant(shape: BeatShape): Match
}

/** Creates an empty template set; state is per record. */
export function createTemplateSet(): TemplateSet {
  const templates: Template[] = []
  let dom: Template | null = null
  let beatNumber = 0
  // WebAssembly SIMD where available (beat-match.ts); a replaced template's centred values (and
  // running average) are reused by the one replacing it, so the matcher's MAX_TEMPLATES slots suffice.
  const matcher = createBeatMatcher(MAX_TEMPLATES)
  let matcherBeat = -1 // beat number the matcher holds

  function matchOf(template: Template, shape: BeatShape): Match {
    if (template.matchedBeat !== beatNumber) {
      if (matcherBeat !== beatNumber) {
        matcher.setBeat(shape.wave)
        matcherBeat = beatNumber
      }
      matcher.match(template.centred, template.match)
      template.matchedBeat = beatNumber
    }
    return template.match
  }

  function best(shape: BeatShape): Template | null {
    let found: Template | null = null
    for (const template of templates) {
      const gain = template.ptp > 0 ? shape.ptp / template.ptp : Infinity
      if (gain > MAX_GAIN || gain < 1 / MAX_GAIN) continue
      const match = matchOf(template, shape)
      if (match.corr < MATCH_CORR) continue
      if (found === null || match.corr > found.match.corr) found = template
    }
    return found
  }

  function chooseDominant(): void {
    let top = 0
    for (const t of templates) top = Math.max(top, t.support)
    let pick: Template | null = null
    for (const t of templates) {
      if (t.support < CANDIDATE_SHARE * top || t.beats < CANDIDATE_BEATS) continue
      if (pick === null || t.spanMs < pick.spanMs) pick = t
    }
    // Before any template has support, the narrowest is the best guess of a normal beat.
    if (pick === null) for (const t of templates) if (pick === null || t.spanMs < pick.spanMs) pick = t
    dom = pick
  }

  function create(shape: BeatShape): Template {
    let weakest = -1
    if (templates.length === MAX_TEMPLATES) {
      for (let i = 0; i < templates.length; i++) {
        const t = templates[i]
        if (t !== dom && (weakest < 0 || t.support < templates[weakest].support)) weakest = i
      }
    }
    const template: Template = {
      beats: 1, support: 0, spanMs: shape.spanMs, ptp: shape.ptp,
      centred: weakest < 0 ? matcher.createCentred() : templates[weakest].centred, match: { corr: -1, shift: 0 }, matchedBeat: -1,
    }
    matcher.start(template.centred, shape.wave)
    if (weakest < 0) templates.push(template)
    else templates[weakest] = template
    return template
  }

  return {
    assign(shape, onTime) {
      beatNumber++
      for (const t of templates) t.support *= 1 - 1 / DECAY
      let template = best(shape)
      if (template) {
        template.beats = Math.min(template.beats + 1, AVERAGE_OF)
        const w = 1 / template.beats
        // The matcher holds this beat: best() matched it with this template.
        matcher.blend(template.centred, template.match.shift, w)
        template.spanMs += w * (shape.spanMs - template.spanMs)
        template.ptp += w * (shape.ptp - template.ptp)
      } else template = create(shape)
      if (onTime) template.support += 1
      chooseDominant()
      return template
    },
    dominant: () => dom,
    matchDominant: (shape) => matchOf(dom!, shape),
  }
}
