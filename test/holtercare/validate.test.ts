// `pipeline qa validate`'s rules (src/holtercare/validate.ts, src/holtercare/folder.ts,
// src/commands/qa-validate.ts): each rule on small hand-written items, the layout on small
// folders, then the public train and valid splits (zero problems) and a copy of them broken in
// one element per rule, each problem named at its file and index.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatOptions, splitOptions, type TaskType } from '../../src/holtercare/format.ts'
import { readHoltercareTree } from '../../src/holtercare/folder.ts'
import { formatProblem, validateCaseSplits, validateGold, validateItem } from '../../src/holtercare/validate.ts'
import { validateFolder } from '../../src/commands/qa-validate.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

const el = (task: TaskType, question: string, answer: string, more: Record<string, unknown> = {}) => ({ id: 'C1', task_type: task, qa_pair: { question, answer }, tag: 'train', ...more })
const Q4 = 'How many runs? A. 1; B. 2; C. 3; D. 4'

describe('validateItem', () => {
  const cases: [string, unknown, TaskType, string[]][] = [
    ['a good counting item', el('closed_event_counting', Q4, 'B. 2'), 'closed_event_counting', []],
    ['a good two-option diagnosis', el('closed_diagnosis', 'Which? A. Sinus Pause; B. Asystole', 'A. Sinus Pause'), 'closed_diagnosis', []],
    ['a good free-text presence', el('closed_presence', 'Is there X?', 'No, none seen.'), 'closed_presence', []],
    ['a good option presence', el('closed_presence', 'Is there X? A. No; B. Yes', 'B. Yes'), 'closed_presence', []],
    ['an open item needs no options', el('open_event_counting', 'How many?', 'Two.'), 'open_event_counting', []],
    ['not an object', [1], 'open_diagnosis', ['not an object']],
    ['a missing key', { id: 'C1', task_type: 'open_diagnosis', qa_pair: { question: 'q', answer: 'a' } }, 'open_diagnosis', ['missing key "tag"; add it']],
    ['an extra key', el('open_diagnosis', 'q', 'a', { note: 1 }), 'open_diagnosis', ['unexpected key "note"; remove it']],
    ['a missing answer', { ...el('open_diagnosis', 'q', 'a'), qa_pair: { question: 'q' } }, 'open_diagnosis', ['missing key "qa_pair.answer"']],
    ['an extra qa_pair key', { ...el('open_diagnosis', 'q', 'a'), qa_pair: { question: 'q', answer: 'a', gold: 1 } }, 'open_diagnosis', ['unexpected key "qa_pair.gold"']],
    ['qa_pair not an object', { ...el('open_diagnosis', 'q', 'a'), qa_pair: 'q?' }, 'open_diagnosis', ['"qa_pair" must be an object']],
    ['an empty id', el('open_diagnosis', 'q', 'a', { id: ' ' }), 'open_diagnosis', ['"id" must be a non-empty string, found " "; write the case id']],
    ['a number answer', el('open_diagnosis', 'q', 'a', { qa_pair: { question: 'q', answer: 3 } }), 'open_diagnosis', ['"qa_pair.answer" must be a non-empty string, found 3']],
    ['task_type of another file', el('open_event_timing', 'q', 'a'), 'open_diagnosis', ['task_type "open_event_timing" in the file of open_diagnosis; move the element to Open-QA/open_event_timing.json or set task_type to "open_diagnosis"']],
    ['an unknown task_type', el('open_diagnosis', 'q', 'a', { task_type: 'closed_other' }), 'open_diagnosis', ['task_type "closed_other" in the file of open_diagnosis; set task_type']],
    ['no options on a closed item', el('closed_event_timing', 'When?', 'A. 1'), 'closed_event_timing', ['no inline options ("A. ...; B. ...") at the end of the question; closed_event_timing needs exactly 4']],
    ['letters that skip', el('closed_event_counting', 'How many? A. 1; B. 2; D. 3; E. 4', 'A. 1'), 'closed_event_counting', ['options are lettered A, B, D, E, not consecutively from A']],
    ['3 options on counting', el('closed_event_counting', 'How many? A. 1; B. 2; C. 3', 'A. 1'), 'closed_event_counting', ['3 options; closed_event_counting needs exactly 4']],
    ['5 options on diagnosis', el('closed_diagnosis', 'Which? A. a; B. b; C. c; D. d; E. e', 'A. a'), 'closed_diagnosis', ['5 options; closed_diagnosis needs 2 to 4']],
    ['3 options on HR timing', el('closed_HR_extremum_timing', 'When? A. 1 ms; B. 2 ms; C. 3 ms', 'A. 1 ms'), 'closed_HR_extremum_timing', ['3 options; closed_HR_extremum_timing needs exactly 4']],
    ['duplicated option text', el('closed_event_counting', 'How many? A. 1; B. 2; C. 2 ; D. 4', 'A. 1'), 'closed_event_counting', ['options B and C have the same text "2 "; make every option distinct']],
    ['duplicated text in another case', el('closed_diagnosis', 'Which? A. Asystole; B. asystole', 'A. Asystole'), 'closed_diagnosis', ['options A and B have the same text']],
    ['a letter not among the options', el('closed_event_counting', Q4, 'E. 2'), 'closed_event_counting', ['answer names option E, but the options are A-D; name one of them']],
    ['a wrong letter for the text', el('closed_event_counting', Q4, 'C. 2'), 'closed_event_counting', ['answer text "2" differs from option C\'s text "3"; write "C. 3"']],
    ['an answer without a letter', el('closed_event_counting', Q4, '2'), 'closed_event_counting', ['answer "2" does not start with an option letter']],
    ['presence free text not yes/no', el('closed_presence', 'Is there X?', 'Maybe.'), 'closed_presence', ['must start with "Yes" or "No"']],
    ['presence with "Yesterday"', el('closed_presence', 'Is there X?', 'Yesterday, yes.'), 'closed_presence', ['must start with "Yes" or "No"']],
    ['presence with other options', el('closed_presence', 'Is there X? A. Yes; B. Maybe', 'A. Yes'), 'closed_presence', ['presence options must be Yes and No (in any order), found "Yes", "Maybe"']],
    ['presence with 3 options', el('closed_presence', 'Is there X? A. Yes; B. No; C. Unsure', 'A. Yes'), 'closed_presence', ['3 options; closed_presence needs exactly 2', 'presence options must be Yes and No']],
  ]
  for (const [name, x, task, want] of cases) {
    it(name, () => {
      const got = validateItem(x, task)
      expect(got).toHaveLength(want.length)
      want.forEach((w, i) => expect(got[i]).toContain(w))
    })
  }
  it('checks the tag against the split\'s rule', () => {
    expect(validateItem(el('open_diagnosis', 'q', 'a', { tag: 'valid' }), 'open_diagnosis', { tag: 'train', why: 'the split folder\'s name' }))
      .toEqual(['tag "valid" differs from "train" (the split folder\'s name); set tag to "train" or move the case to that split'])
  })
})

describe('validateCaseSplits and formatProblem', () => {
  it('names the first item of the split holding fewer of the case\'s items', () => {
    const seen = [
      { split: 'train', file: 'train/a.json', index: 0, id: 'A1' }, { split: 'train', file: 'train/a.json', index: 1, id: 'A1' },
      { split: 'valid', file: 'valid/b.json', index: 4, id: 'A1' }, { split: 'valid', file: 'valid/b.json', index: 5, id: 'A2' },
    ]
    const [p, ...rest] = validateCaseSplits(seen)
    expect(rest).toEqual([])
    expect(formatProblem(p)).toBe('valid/b.json:4: case A1 also occurs in split train (train/a.json:0, 2 items); cases are split by case, never by item: move its 1 item(s) in valid to train')
  })
  it('writes file:line for gold lines and file: for whole files', () => {
    expect(formatProblem({ file: 'x.gold.ndjson', line: 3, message: 'm' })).toBe('x.gold.ndjson:3: m')
    expect(formatProblem({ file: 'x.json', message: 'm' })).toBe('x.json: m')
  })
})

describe('validateGold', () => {
  const els = [el('closed_event_counting', Q4, 'B. 2'), el('closed_presence', 'Is there X?', 'Yes, seen.', { id: 'C2' })]
  const good = [{ id: 'q1', caseId: 'C1', choices: ['1', '2', '3', '4'], correct: 1 }, { id: 'q2', caseId: 'C2' }].map((g) => JSON.stringify(g))
  const line = (i: number, g: object) => good.map((l, k) => (k === i ? JSON.stringify(g) : l))
  const cases: [string, string[], [number, string][]][] = [
    ['agrees', good, []],
    ['free-text presence choices that agree', line(1, { id: 'q2', caseId: 'C2', choices: ['Yes', 'No'], correct: 0 }), []],
    ['a missing line', good.slice(0, 1), [[2, 'missing line for element 1 (id C2)']]],
    ['an extra line', [...good, JSON.stringify({ id: 'q3', caseId: 'C3' })], [[3, 'extra line: the task file has 2 elements']]],
    ['not JSON', line(0, {}).map((l, k) => (k === 0 ? '{"id":' : l)), [[1, 'not JSON']]],
    ['caseId of another case', line(0, { id: 'q1', caseId: 'C9', choices: ['1', '2', '3', '4'], correct: 1 }), [[1, 'caseId "C9" differs from element 0\'s id "C1"']]],
    ['a wrong correct', line(0, { id: 'q1', caseId: 'C1', choices: ['1', '2', '3', '4'], correct: 2 }), [[1, 'correct 2 (C) but element 0\'s answer is B (index 1)']]],
    ['other choices', line(0, { id: 'q1', caseId: 'C1', choices: ['1', '2', '3', '5'], correct: 1 }), [[1, 'differ from element 0\'s options']]],
    ['no choices on a closed item', line(0, { id: 'q1', caseId: 'C1', correct: 1 }), [[1, '"choices" must be the array of option texts']]],
    ['a duplicate id', line(1, { id: 'q1', caseId: 'C2' }), [[2, 'id "q1" is also on line 1']]],
    ['presence choices that disagree', line(1, { id: 'q2', caseId: 'C2', choices: ['Yes', 'No'], correct: 1 }), [[2, 'do not say "yes"']]],
  ]
  for (const [name, lines, want] of cases) {
    it(name, () => {
      const got = validateGold('t.gold.ndjson', els, lines)
      expect(got.map((p) => p.line)).toEqual(want.map((w) => w[0]))
      want.forEach((w, i) => expect(got[i].message).toContain(w[1]))
    })
  }
})

// A folder tree from {relative path: contents}.
function writeTree(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    writeFileSync(path.join(root, rel), text)
  }
  return root
}

describe('the layout', () => {
  const counting = (tag: string, id = 'C1') => JSON.stringify([{ ...el('closed_event_counting', Q4, 'B. 2'), tag, id }])
  it('reports unknown files and folders, a task in the wrong tier, a gold file alone, a split without task files', async () => {
    const root = writeTree(tmpDir('qa-layout-'), {
      'train/Closed-QA/closed_event_counting.json': counting('train'),
      'train/Closed-QA/open_diagnosis.json': '[]',
      'train/Closed-QA/notes.txt': '',
      'train/Closed-QA/closed_diagnosis.gold.ndjson': '',
      'train/Extra-QA/x.json': '[]',
      'test/README': '',
      'inputs/C1/a.txt': '',
      'top.json': '[]',
    })
    const r = validateFolder(await readHoltercareTree(root))
    expect(r.problems.map(formatProblem)).toEqual([
      'test/README: unknown file in a split; a split holds the tier folders Closed-QA, Open-QA, Report-Generation: move or remove it',
      'test: split test has no task file; add <tier>/<task_type>.json files or remove the folder',
      'top.json: not a split folder; a folder of splits holds only <split>/<tier>/<task_type>.json (tiers Closed-QA, Open-QA, Report-Generation): move or remove it',
      'train/Closed-QA/closed_diagnosis.gold.ndjson: gold file without its task file closed_diagnosis.json; add the task file or remove the gold file',
      'train/Closed-QA/notes.txt: unknown file; Closed-QA holds only <task_type>.json (and <task_type>.gold.ndjson) of its tasks: rename, move or remove it',
      'train/Closed-QA/open_diagnosis.json: open_diagnosis belongs to Open-QA, not Closed-QA; move it to train/Open-QA/open_diagnosis.json',
      'train/Extra-QA: unknown folder in a split; a split holds the tier folders Closed-QA, Open-QA, Report-Generation: move or remove it',
    ])
    expect(r).toMatchObject({ files: 1, items: 1 })
  })
  it('takes a folder holding a tier folder as one split, whose elements share the most common tag', async () => {
    const root = writeTree(tmpDir('qa-split-'), {
      'Closed-QA/closed_event_counting.json': JSON.stringify([...JSON.parse(counting('dev')), ...JSON.parse(counting('dev')), ...JSON.parse(counting('train'))]),
      'Open-QA/open_diagnosis.json': '{"a": 1}',
      'Open-QA/open_event_counting.json': '[1,',
    })
    const read = await readHoltercareTree(root)
    expect(read.layout).toBe('split')
    const lines = validateFolder(read).problems.map(formatProblem)
    expect(lines[0]).toBe('Closed-QA/closed_event_counting.json:2: tag "train" differs from "dev" (the tag of 2 of this split\'s elements; a split has one tag); set tag to "dev" or move the case to that split')
    expect(lines[1]).toMatch(/^Open-QA\/open_diagnosis.json: JSON object, not an array; a task file is one JSON array/)
    expect(lines[2]).toMatch(/^Open-QA\/open_event_counting.json: not JSON \(/)
    expect(lines).toHaveLength(3)
  })
  it('says so when a folder holds no split', async () => {
    const r = validateFolder(await readHoltercareTree(tmpDir('qa-empty-')))
    expect(r.problems.map(formatProblem)).toEqual(['.: no split folder and no tier folder (Closed-QA, Open-QA, Report-Generation); give a folder of splits or one split\'s folder'])
  })
  it('fails with E_FILE_MISSING on a missing folder', async () => {
    await expect(readHoltercareTree('/nonexistent/qa')).rejects.toMatchObject({ code: 'E_FILE_MISSING', message: expect.stringContaining('no folder /nonexistent/qa') })
  })
})

// Copies a folder as new writable files (the public files are read-only).
function copyTree(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    const src = path.join(from, name)
    if (statSync(src).isDirectory()) {
      mkdirSync(path.join(to, name), { recursive: true })
      copyTree(src, path.join(to, name))
    } else writeFileSync(path.join(to, name), readFileSync(src))
  }
}

describeShared('the public Holtercare QA release', () => {
  const PUBLIC = sharedPath('data/holtercare-qa')
  it('passes: train and valid together, and each split alone', async () => {
    expect(validateFolder(await readHoltercareTree(PUBLIC))).toEqual({ files: 24, items: 18548, problems: [] })
    expect(validateFolder(await readHoltercareTree(path.join(PUBLIC, 'valid')))).toEqual({ files: 12, items: 1876, problems: [] })
    expect(validateFolder(await readHoltercareTree(path.join(PUBLIC, 'train'))).problems).toEqual([])
  })

  it('names the file and index of each element broken in a copy', async () => {
    const root = tmpDir('qa-broken-')
    copyTree(PUBLIC, root)
    const edit = (rel: string, f: (a: any[]) => void) => {
      const a = JSON.parse(readFileSync(path.join(root, rel), 'utf8'))
      f(a)
      writeFileSync(path.join(root, rel), JSON.stringify(a))
    }
    const withOptions = (q: string, f: (texts: string[]) => string[]) => {
      const s = splitOptions(q)!
      return `${s.stem} ${formatOptions(f(s.options.map((o) => o.text)))}`
    }
    const trainCase = JSON.parse(readFileSync(path.join(PUBLIC, 'train/Closed-QA/closed_presence.json'), 'utf8'))[0].id
    edit('valid/Closed-QA/closed_event_counting.json', (a) => {
      a[0].qa_pair.answer = a[0].qa_pair.answer.replace(/^./, 'E') // wrong letter
      a[7].qa_pair.question = withOptions(a[7].qa_pair.question, (t) => t.slice(0, 3)) // 3 options
    })
    edit('valid/Closed-QA/closed_HR_extremum_timing.json', (a) => (a[1].qa_pair.answer += '0')) // text not an option's
    edit('valid/Closed-QA/closed_diagnosis.json', (a) => delete a[2].tag)
    edit('valid/Open-QA/open_diagnosis.json', (a) => (a[3].source = 'x'))
    edit('valid/Open-QA/open_event_counting.json', (a) => (a[4].task_type = 'open_event_timing'))
    edit('valid/Report-Generation/report_general_summary.json', (a) => (a[5].tag = 'train'))
    edit('valid/Closed-QA/closed_presence.json', (a) => (a[6].id = trainCase))
    edit('valid/Closed-QA/closed_event_timing.json', (a) => (a[8].qa_pair.question = withOptions(a[8].qa_pair.question, (t) => [t[0], t[0], t[2], t[3]])))
    // A gold file beside a task file: right except line 4's correct index.
    const diag = JSON.parse(readFileSync(path.join(root, 'train/Closed-QA/closed_diagnosis.json'), 'utf8')) as any[]
    const gold = diag.map((x, i) => {
      const s = splitOptions(x.qa_pair.question)!
      const correct = s.options.findIndex((o) => o.letter === x.qa_pair.answer[0])
      return JSON.stringify({ id: `g${i}`, caseId: x.id, choices: s.options.map((o) => o.text), correct: i === 3 ? (correct + 1) % s.options.length : correct })
    })
    writeFileSync(path.join(root, 'train/Closed-QA/closed_diagnosis.gold.ndjson'), gold.join('\n') + '\n')
    const r = validateFolder(await readHoltercareTree(root))
    const lines = r.problems.map(formatProblem)
    const at = (prefix: string, says: string) => expect(lines.filter((l) => l.startsWith(prefix)).join('\n')).toContain(says)
    at('valid/Closed-QA/closed_event_counting.json:0: ', 'answer names option E, but the options are A-D')
    at('valid/Closed-QA/closed_event_counting.json:7: ', '3 options; closed_event_counting needs exactly 4')
    at('valid/Closed-QA/closed_HR_extremum_timing.json:1: ', 'differs from option')
    at('valid/Closed-QA/closed_diagnosis.json:2: ', 'missing key "tag"')
    at('valid/Open-QA/open_diagnosis.json:3: ', 'unexpected key "source"')
    at('valid/Open-QA/open_event_counting.json:4: ', 'task_type "open_event_timing" in the file of open_event_counting')
    at('valid/Report-Generation/report_general_summary.json:5: ', 'tag "train" differs from "valid" (the split folder\'s name)')
    at('valid/Closed-QA/closed_presence.json:6: ', `case ${trainCase} also occurs in split train`)
    at('valid/Closed-QA/closed_event_timing.json:8: ', 'options A and B have the same text')
    at('train/Closed-QA/closed_diagnosis.gold.ndjson:4: ', 'correct')
    const places = new Set(lines.map((l) => l.split(': ')[0]))
    expect(places.size).toBe(10) // nothing else
    expect(r.files).toBe(25)
  })
})
