import { describe, expect, it } from 'vitest'
import { type MultitaskRecord, multitaskSignature, parseMultitaskValue, scoreMultitask } from '../../src/metrics/multitask.ts'

describe('parseMultitaskValue', () => {
  it.each([
    // MAE tasks: the first number after the last "Label:", else in the whole text
    ['rr_interval', 812, 812],
    ['rr_interval', 'Label: 812.5', 812.5],
    ['rr_interval', '...Please provide the rr_interval after \'Label:\'.\nLabel: 790 ms', 790],
    ['age', 'The patient is about 1,000 years old', 1000],
    ['age', 'I think around 63 years.', 63],
    ['age', 'unknown', null],
    ['age', '', null],
    ['age', Number.NaN, null],
    // gender: 1 = female
    ['gender', 'Label: 1', 1],
    ['gender', 'Female', 1],
    ['gender', 'The patient is male.', 0],
    ['gender', 'Label: 1 (female)', 1],
    ['gender', 'F', 1],
    ['gender', '0: Male, 1: Female', null], // the options echoed: two classes named
    ['gender', 'Label: 0.5', null],
    ['gender', 2, null],
    // flag: 1 = abnormal potassium
    ['flag', 'abnormal', 1],
    ['flag', 'Label: normal', 0],
    ['flag', 'hyperkalemia likely', 1],
    ['flag', 'normal or abnormal', null],
    // arrhythmia: class names (longest wins), or the only integer
    ['report_label', 'Label: 3', 3],
    ['report_label', 'atrial fibrillation', 3],
    ['report_label', 'Atrial fibrillation with RVR', 6],
    ['report_label', 'Atrial fibrillation with rapid ventricular response', 6],
    ['report_label', 'Sinus rhythm with first-degree AV block', 5],
    ['report_label', 'sinus rhythm with borderline 1st degree a-v block', 4],
    ['report_label', 'Normal sinus rhythm with PVCs', 12],
    ['report_label', 'sinus rhythm with pac(s)', 8],
    ['report_label', 'Consider acute ST elevation MI ***', 10],
    ['report_label', 'other', 14],
    ['report_label', 'no other findings: sinus bradycardia', 1],
    ['report_label', 'sinus bradycardia or sinus tachycardia', null],
    ['report_label', 'Label: 15', null],
    ['report_label', 'no idea', null],
  ] as const)('%s %j -> %j', (task, value, expected) => {
    expect(parseMultitaskValue(task, value)).toBe(expected)
  })
})

const rec = (task: string, prediction: unknown, label: unknown, id = 'x'): MultitaskRecord => ({ id, task, prediction, label })

describe('scoreMultitask', () => {
  it('scores each task with its metric, in the benchmark order, aliases accepted', () => {
    const scores = scoreMultitask([
      rec('arrhythmia', 'sinus rhythm', 0),
      rec('report_label', '3', 'atrial fibrillation'),
      rec('report_label', 'garbled', 7),
      rec('rr', 'Label: 800', 820),
      rec('rr_interval', 'n/a', 700),
      rec('age', 50, 60),
      rec('age', '65', 60),
    ])
    expect(scores.map((s) => [s.task, s.metric, s.higherIsBetter])).toEqual([
      ['rr_interval', 'mae', false], ['age', 'mae', false], ['report_label', 'accuracy', true],
    ])
    expect(scores[0]).toMatchObject({ value: 20, items: 2, unparsed: 1 })
    expect(scores[1]).toMatchObject({ value: 7.5, items: 2, unparsed: 0 })
    expect(scores[2].value).toBeCloseTo(2 / 3, 12)
    expect(scores[2].unparsed).toBe(1)
  })

  it.each([
    // [predictions, labels, tp, fp, fn, f1]
    ['perfect', [1, 0, 1], [1, 0, 1], 2, 0, 0, 1],
    ['mixed', [1, 1, 0, 0], [1, 0, 1, 0], 1, 1, 1, 0.5],
    ['no positive anywhere: max(., 1) gives P = R = 0, F1 0', [0, 0], [0, 0], 0, 0, 0, 0],
    ['unparsed is the wrong class', ['?', '?'], [1, 0], 0, 1, 1, 0],
  ] as const)('binary F1 (sex): %s', (_n, preds, labels, tp, fp, fn, f1) => {
    const [s] = scoreMultitask(preds.map((p, i) => rec('sex', p, labels[i], `r${i}`)))
    expect(s).toMatchObject({ task: 'gender', metric: 'f1', counts: { tp, fp, fn } })
    expect(s.value).toBeCloseTo(f1, 12)
    expect(s.precision).toBeCloseTo(tp / Math.max(tp + fp, 1), 12)
    expect(s.recall).toBeCloseTo(tp / Math.max(tp + fn, 1), 12)
  })

  it('potassium uses 1 = abnormal as the positive class', () => {
    const [s] = scoreMultitask([rec('potassium', 'abnormal', 1), rec('flag', 'normal', 1)])
    expect(s).toMatchObject({ task: 'flag', counts: { tp: 1, fn: 1 }, precision: 1, recall: 0.5 })
  })

  it('an MAE task with nothing parsed scores null, not 0', () => {
    expect(scoreMultitask([rec('age', 'no', 50)])[0]).toMatchObject({ value: null, unparsed: 1 })
  })

  it('rejects an unknown task or an unreadable label, naming the record', () => {
    expect(() => scoreMultitask([rec('qt', 1, 1, 'r7')])).toThrow(/record r7 has task "qt"/)
    expect(() => scoreMultitask([rec('gender', 1, 'unknown', 'r8')])).toThrow(/record r8 \(gender\)/)
  })

  it('signs what it computes', () => {
    expect(multitaskSignature()).toContain('den:max(.,1)')
  })
})
