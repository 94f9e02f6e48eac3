// Running beat templates for the beat classifier, after the template scheme of Hamilton's open
// source ECG analysis (OSEA, "Open Source ECG Analysis", Computers in Cardiology 29:101-104, 2002):
// a few templates, each the running average of the beats that match it (correlation >= MATCH_CORR
// and an amplitude within a factor of 1.5, after alignment); a beat that matches none starts a new
// one, replacing the least supported. The dominant template, the patient's normally conducted
// beat, is the narrowest (by QRS span) among the well supported ones, where support counts the
// beats that came on time (not premature), decaying over a few hundred beats: on time and narrow
// picks the sinus beats even in bigeminy or trigeminy, where PVCs can outnumber them.
import { type BeatShape, blendInto, type Match, matchTemplate } from './beat-features.ts'

export interface Template {
  wave: Float64Array
  /** Beats averaged into it (capped: the running average then forgets with time constant 16). */
  beats: number
  /** Decayed count of its beats that were not premature. */
  support: number
  /** Running average of its beats' QRS span, ms. */
  spanMs: number
  /** Running average of its beats' QRS peak-to-peak, mV. */
  ptp: number
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
  /** The template the beat joins (updated, or created for it) and the match against it. */
  assign(shape: BeatShape, onTime: boolean): { template: Template; match: Match | null }
  /** The dominant (normal) template; null before the first beat. */
  dominant(): Template | null
}

/** Creates an empty template set; state is per record. */
export function createTemplateSet(): TemplateSet {
  const templates: Template[] = []
  let dom: Template | null = null

  function best(shape: BeatShape): { template: Template; match: Match } | null {
    let found: { template: Template; match: Match } | null = null
    for (const template of templates) {
      const match = matchTemplate(shape.wave, template.wave)
      const gain = template.ptp > 0 ? shape.ptp / template.ptp : Infinity
      if (match.corr < MATCH_CORR || gain > MAX_GAIN || gain < 1 / MAX_GAIN) continue
      if (found === null || match.corr > found.match.corr) found = { template, match }
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

  return {
    assign(shape, onTime) {
      for (const t of templates) t.support *= 1 - 1 / DECAY
      const found = best(shape)
      let template: Template
      if (found) {
        template = found.template
        template.beats = Math.min(template.beats + 1, AVERAGE_OF)
        const w = 1 / template.beats
        blendInto(template.wave, shape.wave, found.match.shift, w)
        template.spanMs += w * (shape.spanMs - template.spanMs)
        template.ptp += w * (shape.ptp - template.ptp)
      } else {
        template = { wave: Float64Array.from(shape.wave), beats: 1, support: 0, spanMs: shape.spanMs, ptp: shape.ptp }
        if (templates.length < MAX_TEMPLATES) templates.push(template)
        else {
          let weakest = -1
          templates.forEach((t, i) => {
            if (t !== dom && (weakest < 0 || t.support < templates[weakest].support)) weakest = i
          })
          templates[weakest] = template
        }
      }
      if (onTime) template.support += 1
      chooseDominant()
      return { template, match: found ? found.match : null }
    },
    dominant: () => dom,
  }
}
