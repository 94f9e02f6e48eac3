// The ECG multi-task benchmark's tasks as registry modules: their gold from the beats, the
// rhythm and the header, what is left out and why, how they are scored, and the registry's
// agreement with the public layout.
import { describe, expect, it } from 'vitest'
import { FS, beatsOf, factsOf } from './hand-facts.ts'
import { OPTIONS } from './synthetic-facts.ts'
import { meanRrMs, rhythmClass } from '../../src/qa/rhythm-class.ts'
import { ARRHYTHMIA_CLASSES } from '../../src/metrics/multitask.ts'
import { recordQuestions } from '../../src/qa/record-questions.ts'
import { MULTITASK_TYPES, TASKS, taskModule } from '../../src/qa/tasks/index.ts'
import { TASKS_BY_TIER, TASK_TYPES } from '../../src/holtercare/format.ts'
import { scoreItem } from '../../src/report/score-items.ts'
import { primaryMetric, taskMetrics } from '../../src/report/task-metrics.ts'
import type { RhythmSpan } from '../../src/qa/excerpt-facts.ts'

const cls = (name: string) => ARRHYTHMIA_CLASSES.indexOf(name as (typeof ARRHYTHMIA_CLASSES)[number])
const over = (rhythm: string, beats: ReturnType<typeof beatsOf>): RhythmSpan[] => [{ rhythm, startSample: 0, startMs: 0, endSample: Infinity, endMs: Infinity }]

describe('the mean RR interval and the rhythm class', () => {
  it('the mean RR is the mean of the beat-to-beat intervals in samples, in ms', () => {
    const beats = beatsOf('NNNNNNNNNNNN')
    let sum = 0
    for (let i = 1; i < beats.length; i++) sum += beats[i].sample - beats[i - 1].sample
    expect(meanRrMs(factsOf(beats))).toBeCloseTo((1000 * sum) / (beats.length - 1) / FS, 9)
  })

  it('classes sinus excerpts by their premature beats and rate, and leaves out what no statement says whole', () => {
    const sinus = beatsOf('NNNNNNNNNNNN')
    expect(rhythmClass(factsOf(sinus, over('N', sinus)))).toEqual({ cls: cls('sinus rhythm') })
    const pvc = beatsOf('NNNNNVNNNNNN')
    expect(rhythmClass(factsOf(pvc, over('N', pvc)))).toEqual({ cls: cls('sinus rhythm with pvc(s)') })
    const pac = beatsOf('NNNNNSNNNNNN')
    expect(rhythmClass(factsOf(pac, over('N', pac)))).toEqual({ cls: cls('sinus rhythm with pac(s)') })
    const both = beatsOf('NNNSNNNVNNNN')
    expect(rhythmClass(factsOf(both, over('N', both)))).toEqual({ leftOut: 'both premature kinds' })
    // About 800 ms a beat is 75 bpm: atrial fibrillation without a rapid response.
    expect(rhythmClass(factsOf(sinus, over('AFIB', sinus)))).toEqual({ cls: cls('atrial fibrillation') })
    expect(rhythmClass(factsOf(sinus, over('AFL', sinus)))).toEqual({ leftOut: 'rhythm AFL' })
    expect(rhythmClass(factsOf(sinus))).toEqual({ leftOut: 'no reference rhythm' })
    expect(rhythmClass(factsOf(sinus), { assumeSinus: true })).toEqual({ cls: cls('sinus rhythm') })
    const f = factsOf(sinus, [{ rhythm: 'N', startSample: 0, startMs: 0, endSample: sinus[5].sample, endMs: sinus[5].timeMs }, { rhythm: 'AFIB', startSample: sinus[5].sample, startMs: sinus[5].timeMs, endSample: Infinity, endMs: Infinity }])
    expect(rhythmClass(f)).toEqual({ leftOut: 'rhythm changes' })
  })
})

describe('the qa stage\'s multitask items', () => {
  const beats = beatsOf('NNNNNVNNNNNN')
  const excerpt = { facts: factsOf(beats, over('N', beats)), tasks: new Set(MULTITASK_TYPES) }

  it('asks RR, age, sex and class with the gold from the beats and the header', () => {
    const { drafts, leftOut } = recordQuestions('r', [excerpt], { ...OPTIONS, patient: { age: 69, sex: 'F' } })
    const gold = Object.fromEntries(drafts.map((d) => [d.draft.task, d.draft.gold.value]))
    expect(gold).toEqual({ rr_interval: Math.round(meanRrMs(excerpt.facts)!), age: 69, gender: 1, report_label: cls('sinus rhythm with pvc(s)') })
    expect(leftOut.size).toBe(0)
    for (const d of drafts) expect(d.draft.question).not.toMatch(/\b69\b|\baged\b|years old/i)
  })

  it('leaves out age and sex where the header lacks them, and counts why', () => {
    const { drafts, leftOut } = recordQuestions('r', [excerpt, excerpt], OPTIONS)
    expect(drafts.map((d) => d.draft.task).sort()).toEqual(['report_label', 'report_label', 'rr_interval', 'rr_interval'])
    expect([...leftOut].map(([t, why]) => [t, [...why]])).toEqual([['age', [['age not in the header', 2]]], ['gender', [['sex not in the header', 2]]]])
  })
})

describe('scoring the multitask items', () => {
  const qa = (taskType: string, value: number) => ({ id: `q:${taskType}`, caseId: 'c', taskType, question: 'q', answer: 'a', gold: { value, evidenceBeats: [] } })
  const pred = (answer: string) => ({ model: 'm', modality: 'text', answer })
  const opts = { vocabulary: [] }

  it('reads a number as that benchmark does and scores its error', () => {
    expect(scoreItem(qa('rr_interval', 812) as never, pred('Label: 790 ms') as never, opts)).toMatchObject({ status: 'scored', absError: 22 })
    expect(scoreItem(qa('age', 69) as never, pred('I cannot tell') as never, opts)).toMatchObject({ status: 'unparsed' })
  })

  it('a class right or wrong, with the positive class counted for binary F1; an unread class is the wrong one', () => {
    expect(scoreItem(qa('gender', 1) as never, pred('The patient is female.') as never, opts)).toMatchObject({ correct: true, counts: { tp: 1, fp: 0, fn: 0 } })
    expect(scoreItem(qa('gender', 0) as never, pred('female') as never, opts)).toMatchObject({ correct: false, counts: { tp: 0, fp: 1, fn: 0 } })
    expect(scoreItem(qa('gender', 1) as never, pred('no idea') as never, opts)).toMatchObject({ status: 'unparsed', correct: false, counts: { tp: 0, fp: 0, fn: 1 } })
    expect(scoreItem(qa('report_label', 12) as never, pred('Sinus rhythm with PVC(s).') as never, opts)).toMatchObject({ correct: true })
  })

  it('each task is decided by the benchmark\'s metric', () => {
    expect(Object.fromEntries(MULTITASK_TYPES.map((t) => [t, [taskMetrics(t), primaryMetric(t, false)]]))).toEqual({
      rr_interval: [['mae'], 'mae'], age: [['mae'], 'mae'], gender: [['binaryF1'], 'binaryF1'], report_label: [['accuracy'], 'accuracy'],
    })
  })
})

describe('the registry', () => {
  it('lists the public release\'s 12 tasks by tier in the paper\'s order, then the multitask ones, each type once', () => {
    expect(TASKS_BY_TIER['Closed-QA']).toEqual(['closed_presence', 'closed_event_counting', 'closed_event_timing', 'closed_HR_extremum_timing', 'closed_diagnosis'])
    expect(TASKS_BY_TIER['Open-QA']).toEqual(['open_event_counting', 'open_HR_extremum_timing', 'open_event_timing', 'open_diagnosis', 'open_evidence_reasoning'])
    expect(TASKS_BY_TIER['Report-Generation']).toEqual(['report_statistical_overview', 'report_general_summary'])
    expect(TASK_TYPES).toHaveLength(12)
    expect(MULTITASK_TYPES).toEqual(['rr_interval', 'age', 'gender', 'report_label'])
    expect(new Set(TASKS.map((t) => t.type)).size).toBe(TASKS.length)
    for (const t of TASKS) expect(taskModule(t.type)).toBe(t)
    // Every closed task picks an option from a measure.
    for (const t of TASKS.filter((x) => x.kind === 'choice')) expect(typeof t.pick).toBe('function')
  })
})
