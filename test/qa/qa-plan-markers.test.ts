// The qa stage's load-time check that a model's strips and clips carry no reference beat labels
// (src/qa/qa-plan-check.ts): those labels are the gold of most questions.
import { describe, expect, it } from 'vitest'
import { qaPlanProblems } from '../../src/qa/qa-plan-check.ts'

const plan = (markers: string | undefined, inputs: string[], source = 'reference') => [
  { name: 'excerpt', options: { set: 's', stratified: { lengthSec: 60, perHour: 20 } } },
  { name: 'render-strip', options: { excerpts: ['s'], excerptTileSec: 10, ...(markers ? { markers } : {}) } },
  { name: 'render-video', options: { clips: [{ excerpts: ['s'], stepSec: 1, windowSec: 10 }], fps: 5, ...(markers ? { markers } : {}) } },
  { name: 'qa', options: { source, sets: { s: { inputs } }, budgets: {} } },
]

describe('qa plan: no reference markers on a model\'s input', () => {
  it.each([undefined, 'all', 'reference'])('markers %s on strips and clips asked for as inputs: one problem each, saying what to set', (markers) => {
    const problems = qaPlanProblems(plan(markers, ['images', 'video']), 3)
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(new RegExp(`render-strip draws set "s" with markers: ${markers ?? 'all'}, which prints the reference's beat labels \\(the gold\\).*markers: none`))
    expect(problems[1]).toMatch(/render-video draws set "s"/)
  })

  it.each(['none', 'detector'])('markers %s: fine', (markers) => {
    expect(qaPlanProblems(plan(markers, ['images', 'video']), 3)).toEqual([])
  })

  it.each(['detector', 'auto'])('markers detector when qa takes the gold from the detector (source %s): refused too', (source) => {
    const problems = qaPlanProblems(plan('detector', ['images'], source), 3)
    expect(problems).toEqual([expect.stringMatching(/markers: detector while qa's source .* their labels are the gold/)])
  })

  it('strips drawn for people but not asked for as inputs: fine', () => {
    expect(qaPlanProblems(plan('all', []), 3)).toEqual([])
  })
})
