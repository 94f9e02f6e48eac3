// What the splits of a benchmark lack (src/qa/split-coverage.ts, and qa validate's reading of a
// folder, src/commands/qa-validate.ts): an empty split, a task type or an event one split has and
// another lacks, with the counts of those that have it; nothing for splits that agree.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSplitCoverage, goldEvents } from '../../src/qa/split-coverage.ts'
import { splitWarnings } from '../../src/commands/qa-validate.ts'
import { readHoltercareTree } from '../../src/holtercare/folder.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
import { tmpDir } from '../helpers/tmp.ts'

describe('createSplitCoverage', () => {
  it('says which split is empty, which task type and which event a split lacks, with the counts of the others', () => {
    const c = createSplitCoverage(['train', 'valid', 'test'])
    for (let i = 0; i < 40; i++) c.add('train', 'closed_event_counting', ['Ventricular Tachycardia'])
    for (let i = 0; i < 12; i++) c.add('train', 'closed_presence', i < 2 ? ['Atrial Fibrillation'] : [])
    c.add('test', 'closed_presence', ['Atrial Fibrillation', 'Atrial Fibrillation'])
    expect(c.warnings()).toEqual([
      'split valid is empty',
      'split test has no closed_event_counting item (train has 40)',
      'event Ventricular Tachycardia appears in train (40 items) but not in test',
    ])
  })

  it('lists every split that has what another lacks; task types in the paper\'s order', () => {
    const c = createSplitCoverage(['train', 'valid', 'test'])
    c.add('train', 'open_diagnosis', ['Sinus Pause'])
    c.add('valid', 'open_diagnosis', ['Sinus Pause'])
    c.add('test', 'closed_diagnosis')
    c.add('train', 'closed_diagnosis')
    expect(c.warnings()).toEqual([
      'split valid has no closed_diagnosis item (train has 1, test has 1)',
      'split test has no open_diagnosis item (train has 1, valid has 1)',
      'event Sinus Pause appears in train (1 item) and valid (1 item) but not in test',
    ])
  })

  it('nothing when the splits hold the same task types and events; a split seen only in add joins', () => {
    const c = createSplitCoverage(['train'])
    c.add('train', 'closed_presence', ['X'])
    c.add('dev', 'closed_presence', ['X'])
    expect(c.warnings()).toEqual([])
    expect(createSplitCoverage(['a', 'b']).warnings()).toEqual(['split a is empty', 'split b is empty'])
  })

  it.each([
    [{ event: 'Ventricular Tachycardia' }, ['Ventricular Tachycardia']],
    [{ labels: ['Atrial Fibrillation', 'Sinus Pause'] }, ['Atrial Fibrillation', 'Sinus Pause']],
    [{ event: 'A', labels: ['B', 3, ''] }, ['A', 'B']],
    [{ event: 7, labels: 'x' }, []],
    [{}, []],
  ])('the events of the gold %j', (gold, events) => {
    expect(goldEvents(gold)).toEqual(events)
  })
})

describe('qa validate\'s split warnings', () => {
  const element = (task: string, tag: string) => ({ id: `C-${tag}`, task_type: task, qa_pair: { question: 'How many? A. 1; B. 2; C. 3; D. 4', answer: 'B. 2' }, tag })
  const write = (root: string, split: string, task: string, n: number, gold?: Record<string, unknown>[]) => {
    mkdirSync(path.join(root, split, 'Closed-QA'), { recursive: true })
    writeFileSync(path.join(root, split, 'Closed-QA', `${task}.json`), JSON.stringify(Array.from({ length: n }, () => element(task, split))))
    if (gold) writeFileSync(path.join(root, split, 'Closed-QA', `${task}.gold.ndjson`), gold.map((g) => JSON.stringify(g)).join('\n') + '\n')
  }

  it('task types from the task files; events only from gold files beside them', async () => {
    const root = tmpDir('qa-split-warn-')
    write(root, 'train', 'closed_event_counting', 3, [{ event: 'Ventricular Tachycardia' }, { event: 'Ventricular Tachycardia' }, { event: 'Atrial Tachycardia' }])
    write(root, 'train', 'closed_presence', 2)
    write(root, 'test', 'closed_event_counting', 1, [{ event: 'Atrial Tachycardia' }])
    expect(splitWarnings(await readHoltercareTree(root))).toEqual([
      'split test has no closed_presence item (train has 2)',
      'event Ventricular Tachycardia appears in train (2 items) but not in test',
    ])
    // One split given alone has nothing to be compared with.
    expect(splitWarnings(await readHoltercareTree(path.join(root, 'test')))).toEqual([])
  })
})

describeShared('the public Holtercare QA release', () => {
  it('train and valid hold the same task types: no warning', async () => {
    expect(splitWarnings(await readHoltercareTree(sharedPath('data/holtercare-qa')))).toEqual([])
  })
})
