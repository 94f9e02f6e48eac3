// `pipeline qa audit`'s pure parts (src/qa/audit-*.ts): numbers in options and answers, each
// blind answerer on hand-made items (units, lists of different lengths, letters inside words),
// chance, the flag threshold, the train priors, then the public release: the medoid leak the
// spec describes and the open-task rows, with the answer numbers parsed from real lines.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { HoltercareItem, TaskType } from '../../src/qa/holtercare-format.ts'
import { listDistance, parseCountAnswer, parseNumericOption, parseNumericOptions, parseTimestampAnswer } from '../../src/qa/option-numbers.ts'
import { BLIND_ANSWERERS, answerersFor, type Answerer } from '../../src/audit/answerers.ts'
import { closedQuestion, learnPriors } from '../../src/audit/priors.ts'
import { answererRow, auditItems } from '../../src/audit/report.ts'
import { renderAudit } from '../../src/audit/render.ts'
import { readHoltercareFolder } from '../../src/formats/holtercare-folder.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const item = (task: TaskType, question: string, answer: string, id = 'C1'): HoltercareItem => ({ id, task_type: task, qa_pair: { question, answer }, tag: 'train' })
// A closed question from inline options; the answer is option A unless given.
const q = (options: string, answer?: string, task: TaskType = 'closed_event_timing') => closedQuestion(item(task, `Which? ${options}`, answer ?? options.split('; ')[0]))!
const by = (name: string) => BLIND_ANSWERERS.find((a) => a.name === name)!

describe('numbers', () => {
  const options: [string, number[] | null, string?][] = [
    ['3', [3], ''], ['7396010 ms', [7396010], 'ms'], ['1.2 s', [1200], 'ms'], ['51368192, 51369692', [51368192, 51369692], ''],
    ['7,396,010 ms', [7396010], 'ms'], ['12,345, 67', [12345, 67], ''], ['80 bpm', [80], 'bpm'], ['Yes', null], ['3 to 4', null], ['', null],
  ]
  for (const [text, values, unit] of options) {
    it(`option "${text}"`, () => expect(parseNumericOption(text)).toEqual(values && { values, unit }))
  }
  it('needs one unit across options, time units converted', () => {
    expect(parseNumericOptions(['1 s', '900 ms'])).toEqual([[1000], [900]])
    expect(parseNumericOptions(['3 bpm', '4 ms'])).toBeNull()
    expect(parseNumericOptions(['3', 'three'])).toBeNull()
  })
  it('list distance: |a-b| for single numbers, symmetric nearest neighbour for lists of any length', () => {
    expect(listDistance([1], [4])).toBe(3)
    expect(listDistance([1, 10], [1])).toBe(4.5)
    expect(listDistance([1], [1, 10])).toBe(4.5)
    expect(listDistance([10, 1], [1, 10])).toBe(0)
  })
  const counts: [string, number | null][] = [
    ['There were 3 separate episodes of 2:1 AV Conduction Block.', 3], ['2:1 block is seen 5 times.', 5], ['No episodes of it were seen.', 0],
    ['It shows a single event.', 1], ['Count: 4.', 4], ['Two events, then 7 more beats.', 2], ['Nothing was seen.', null], ['Between 1 and 2.', null],
  ]
  for (const [s, n] of counts) it(`count of "${s}"`, () => expect(parseCountAnswer(s)).toBe(n))
  const stamps: [string, number | null][] = [
    ['It is at 7,396,010 ms.', 7396010], ['At 12 ms, then again at 40 milliseconds.', 40], ['Timestamp 1234.', 1234], ['Between 1 and 2.', null], ['At 55msec.', 55],
  ]
  for (const [s, n] of stamps) it(`timestamp of "${s}"`, () => expect(parseTimestampAnswer(s)).toBe(n))
})

describe('closedQuestion', () => {
  it('reads options whose text holds a letter and a dot inside a word, and the gold index', () => {
    expect(closedQuestion(item('closed_diagnosis', 'Grade A. first? A. Mobitz B. type; B. Sinus Pause', 'B. Sinus Pause'))).toMatchObject({ options: ['Mobitz B. type', 'Sinus Pause'], gold: 1 })
  })
  it('reads free-text presence as yes/no, and leaves out what does not parse', () => {
    expect(closedQuestion(item('closed_presence', 'X?', 'No, not seen.'))).toMatchObject({ options: null, gold: 'no' })
    expect(closedQuestion(item('closed_presence', 'X?', 'Not seen.'))).toBeNull()
    expect(closedQuestion(item('closed_presence', 'X?', 'Yesterday.'))).toBeNull()
    expect(closedQuestion(item('closed_event_counting', 'How many? A. 1; B. 2', 'C. 3'))).toBeNull()
  })
})

describe('blind answerers', () => {
  const cases: [string, string, number | null][] = [
    // Four numbers: the sum of distances is flat between the middle two, the earlier wins.
    ['medoid', 'A. 9; B. 4; C. 1; D. 2', 1],
    ['medoid', 'A. 100, 200; B. 100; C. 100, 200, 300; D. 100, 210', 0],
    ['medoid', 'A. 1.2 s; B. 1100 ms; C. 900 ms; D. 2 s', 0],
    ['medoid', 'A. Asystole; B. Sinus Pause', null],
    ['smallest', 'A. 1.2 s; B. 1100 ms; C. 900 ms; D. 2 s', 2],
    ['largest', 'A. 1.2 s; B. 1100 ms; C. 900 ms; D. 2 s', 3],
    ['smallest', 'A. 5, 9; B. 5; C. 3, 100; D. 6', 2],
    ['largest', 'A. 5, 9; B. 5; C. 3, 100; D. 6', 3],
    ['tightest list', 'A. 10, 20; B. 10, 11, 40; C. 10; D. 10, 50', 1],
    ['widest list', 'A. 10, 20; B. 10, 11, 40; C. 10; D. 10, 50', 3],
    ['tightest list', 'A. 1; B. 2; C. 3; D. 4', null],
    ['longest text', 'A. Asystole; B. Atrial Flutter; C. Sinus Pause', 1],
    ['shortest text', 'A. Asystole; B. Atrial Flutter; C. Sinus Pause', 0],
    ['longest text', 'A. ab; B. cd', 0],
    ['first letter', 'A. Asystole; B. Atrial Flutter; C. Sinus Pause', 0],
    ['last letter', 'A. Asystole; B. Atrial Flutter; C. Sinus Pause', 2],
  ]
  for (const [name, options, want] of cases) it(`${name} on ${options}`, () => expect(by(name).pick(q(options))).toBe(want))
  it('abstain on free-text presence; always yes / always no answer only those', () => {
    const free = closedQuestion(item('closed_presence', 'X?', 'Yes, seen.'))!
    for (const a of BLIND_ANSWERERS) expect(a.pick(free)).toBeNull()
    const all = answerersFor()
    expect(all.find((a) => a.name === 'always yes')!.pick(free)).toBe('yes')
    expect(all.find((a) => a.name === 'always no')!.pick(q('A. Yes; B. No'))).toBeNull()
  })
})

describe('train priors', () => {
  const train = [
    item('closed_diagnosis', 'D? A. Asystole; B. Sinus Pause; C. Atrial Flutter', 'B. Sinus Pause'),
    item('closed_diagnosis', 'D? A. Sinus Pause; B. Asystole; C. Atrial Flutter', 'A. Sinus Pause'),
    item('closed_diagnosis', 'D? A. Asystole; B. Atrial Flutter; C. Sinus Tachycardia', 'C. Sinus Tachycardia'),
    item('closed_presence', 'P?', 'No, none.'), item('closed_presence', 'P?', 'No, none.'), item('closed_presence', 'P?', 'Yes, some.'),
    item('open_event_counting', 'How many?', 'There are 3 events.'), item('open_event_counting', 'How many?', 'There is 1 event.'),
  ]
  const answerers = answerersFor(learnPriors(train))
  const pick = (name: string, question: ReturnType<typeof q>) => answerers.find((a) => a.name === name)!.pick(question)
  it('letter: the most frequent correct letter for the task and option count, ties to the earlier', () => {
    expect(pick('train letter', q('A. a; B. b; C. c', 'A. a', 'closed_diagnosis'))).toBe(0)
    expect(pick('train letter', q('A. a; B. b', 'A. a', 'closed_diagnosis'))).toBeNull() // no 2-option item in train
  })
  it('frequent value: the option text most often correct (trimmed, lower-case), else A', () => {
    expect(pick('train frequent value', q('A. Atrial Flutter; B. sinus pause ; C. Sinus Tachycardia', undefined, 'closed_diagnosis'))).toBe(1)
    expect(pick('train frequent value', q('A. Ventricular Flutter; B. Third-degree AV Block', undefined, 'closed_diagnosis'))).toBe(0)
  })
  it('rare distractor: the option least often a distractor, abstaining when train saw none', () => {
    expect(pick('train rare distractor', q('A. Asystole; B. Atrial Flutter; C. Sinus Tachycardia', undefined, 'closed_diagnosis'))).toBe(2)
    expect(pick('train rare distractor', q('A. Ventricular Flutter; B. Third-degree AV Block', undefined, 'closed_diagnosis'))).toBeNull()
  })
  it('yes/no: the more frequent free-text answer', () => {
    expect(pick('train yes/no', closedQuestion(item('closed_presence', 'P?', 'Yes.'))!)).toBe('no')
    expect(answerers.map((a) => a.name)).not.toContain('always yes')
  })
  it('open constants: the train median and mean, MAE over the audited items', () => {
    const r = auditItems([{ item: item('open_event_counting', 'How many?', 'There are 4 events.') }], train)
    expect(r.open).toEqual([{ task: 'open_event_counting', items: 1, parsed: 1, parseRate: 1, constants: [{ constant: 'train median', value: 2, mae: 2 }, { constant: 'train mean', value: 2, mae: 2 }] }])
  })
})

describe('chance and flags', () => {
  it('chance is the mean of 1/options, 1/2 for free-text yes/no', () => {
    const items = [q('A. 1; B. 2; C. 3; D. 4', undefined, 'closed_diagnosis'), q('A. 1; B. 2', undefined, 'closed_diagnosis')]
    expect(answererRow(by('first letter'), items).chance).toBeCloseTo((1 / 4 + 1 / 2) / 2)
    const r = auditItems([item('closed_presence', 'P?', 'Yes.'), item('closed_presence', 'P? A. Yes; B. No', 'A. Yes'), item('closed_presence', 'P? A. No; B. Yes; C. Maybe', 'A. No')].map((i) => ({ item: i })))
    expect(r.closed[0]).toMatchObject({ task: 'closed_presence', items: 3, unparsed: 0, chance: (1 / 2 + 1 / 2 + 1 / 3) / 3 })
  })
  const always0: Answerer = { name: 'A', describe: 'A', pick: (x) => (x.options ? 0 : null) }
  const batch = (n: number, right: number) => Array.from({ length: n }, (_, i) => q('A. 1; B. 2; C. 3; D. 4', i < right ? 'A. 1' : 'B. 2'))
  it('flags more than 5 points over chance on at least 100 items, else marks few items', () => {
    expect(answererRow(always0, batch(100, 31))).toMatchObject({ items: 100, correct: 31, leak: true, fewItems: false })
    expect(answererRow(always0, batch(100, 30))).toMatchObject({ leak: false, fewItems: false })
    expect(answererRow(always0, batch(99, 60))).toMatchObject({ leak: false, fewItems: true })
    expect(answererRow(always0, batch(200, 10))).toMatchObject({ leak: false, fewItems: false, marginPoints: -20 })
  })
  it('renders a table per task with the flags', () => {
    const r = auditItems(batch(120, 100).map((x, i) => ({ split: 'dev', item: item('closed_event_counting', `${x.question}`, `${'ABCD'[x.gold as number]}. ${x.options![x.gold as number]}`, `C${i}`) })))
    const text = renderAudit(r).join('\n')
    expect(text).toContain('closed_event_counting: 120 items, chance 25.0%')
    expect(text).toMatch(/first letter\s+120\s+83\.3%\s+25\.0%\s+\+58\.3\s+LEAK/)
    expect(r.splits).toEqual(['dev'])
  })
})

describeShared('the public release', () => {
  const DATA = sharedPath('data/holtercare-qa')
  const read = (split: string, rel: string) => JSON.parse(readFileSync(`${DATA}/${split}/${rel}`, 'utf8')) as HoltercareItem[]
  it('parses every open count; the counts are those the spec lists', () => {
    const all = ['train', 'valid'].flatMap((s) => read(s, 'Open-QA/open_event_counting.json'))
    const tally: Record<number, number> = {}
    for (const x of all) {
      const n = parseCountAnswer(x.qa_pair.answer)
      expect(n, x.qa_pair.answer).not.toBeNull()
      tally[n!] = (tally[n!] ?? 0) + 1
    }
    expect(tally).toEqual({ 1: 651, 2: 475, 3: 199, 4: 46, 5: 5, 7: 2, 10: 1 })
  })
  it('parses every open HR-extremum time, each the answer of a closed HR item of the same case', () => {
    for (const s of ['train', 'valid']) {
      const closed = new Set(read(s, 'Closed-QA/closed_HR_extremum_timing.json').map((x) => `${x.id} ${parseNumericOption(x.qa_pair.answer.slice(3))!.values[0]}`))
      for (const x of read(s, 'Open-QA/open_HR_extremum_timing.json')) expect(closed.has(`${x.id} ${parseTimestampAnswer(x.qa_pair.answer)}`), x.qa_pair.answer).toBe(true)
    }
  })
  it('flags the medoid on the train split, far above chance on event timing', async () => {
    const r = auditItems((await readHoltercareFolder(`${DATA}/train`)).items)
    const medoid = (task: string) => r.closed.find((t) => t.task === task)!.answerers.find((a) => a.answerer === 'medoid')!
    expect(medoid('closed_event_timing')).toMatchObject({ items: 1238, chance: 0.25, leak: true })
    expect(medoid('closed_event_timing').accuracy).toBeGreaterThan(0.85)
    expect(medoid('closed_event_counting')).toMatchObject({ items: 1238, leak: true })
    expect(medoid('closed_event_counting').accuracy).toBeGreaterThan(0.45)
    expect(medoid('closed_HR_extremum_timing')).toMatchObject({ items: 1134, leak: true })
    expect(medoid('closed_HR_extremum_timing').accuracy).toBeGreaterThan(0.33)
    expect(r.open.map((t) => [t.task, t.items, t.parseRate, t.constants.map((c) => c.constant)])).toEqual([
      ['open_event_counting', 1238, 1, ['audited median (self)']],
      ['open_HR_extremum_timing', 1134, 1, ['audited median (self)']],
    ])
    expect(r.open[0].constants[0].value).toBe(2)
  })
  it('with train priors on valid: the constants are the train median and mean', async () => {
    const train = (await readHoltercareFolder(`${DATA}/train`)).items.map((i) => i.item)
    const r = auditItems((await readHoltercareFolder(`${DATA}/valid`)).items, train)
    expect(r.trainItems).toBe(16672)
    expect(r.open[0].constants.map((c) => c.constant)).toEqual(['train median', 'train mean'])
    expect(r.closed.find((t) => t.task === 'closed_event_timing')!.answerers.find((a) => a.answerer === 'medoid')!.accuracy).toBeGreaterThan(0.85)
  })
})
