// `pipeline qa audit`'s option-layout answerers (src/audit/answerers.ts) and what they read:
// numbers in options and answers, closed questions parsed from the public format, each blind
// answerer on hand-made items (units, lists of different lengths, letters inside words), and
// the answerers learned from a priors split (src/audit/priors.ts).
import { describe, expect, it } from 'vitest'
import type { TaskType } from '../../src/holtercare/format.ts'
import { listDistance, parseCountAnswer, parseNumericOption, parseNumericOptions, parseTimestampAnswer } from '../../src/qa/option-numbers.ts'
import { BLIND_ANSWERERS, answerersFor } from '../../src/audit/answerers.ts'
import { closedQuestion, learnPriors } from '../../src/audit/priors.ts'
import { item } from './items.ts'

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
  it('reads evidence reasoning by its opening yes/no, never its text as options', () => {
    const evidence = (answer: string) => closedQuestion(item('open_evidence_reasoning', 'Is it present, and which features support that (for example A. waves; B. intervals)?', answer))
    expect(evidence('Yes, sinus rhythm is present. Rhythm clues: regular RR.')).toMatchObject({ task: 'open_evidence_reasoning', options: null, gold: 'yes' })
    expect(evidence('Morphology: narrow QRS.')).toBeNull()
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
  it('counts: the gold numbers of the open numeric tasks', () => {
    expect(learnPriors(train).numbers.get('open_event_counting')).toEqual([3, 1])
  })
})
