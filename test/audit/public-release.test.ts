// The audit on the public release: the answer numbers parse from every real line, the medoid
// leak the spec describes (event timing nearly always, counting and HR extremum well above
// chance), the join the spec describes (closed presence answered from the other questions of
// the same record, audited cross-split), and the floors and priors line of each way to run it.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { HoltercareItem } from '../../src/holtercare/format.ts'
import { parseCountAnswer, parseNumericOption, parseTimestampAnswer } from '../../src/qa/option-numbers.ts'
import { auditItems, type AuditReport } from '../../src/audit/report.ts'
import { renderAudit } from '../../src/audit/render.ts'
import { readHoltercareFolder } from '../../src/holtercare/folder.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'

const row = (r: AuditReport, task: string, answerer: string) => r.closed.find((t) => t.task === task)!.answerers.find((a) => a.answerer === answerer)!
const floors = (r: AuditReport) => Object.fromEntries(r.open.map((t) => [t.task, t.floors.map((f) => f.floor)]))

describeShared('the audit on the public release', () => {
  const DATA = sharedPath('data/holtercare-qa')
  const read = (split: string, rel: string) => JSON.parse(readFileSync(`${DATA}/${split}/${rel}`, 'utf8')) as HoltercareItem[]

  it('parses every open count; the counts are those the spec lists', () => {
    const tally: Record<number, number> = {}
    for (const x of ['train', 'valid'].flatMap((s) => read(s, 'Open-QA/open_event_counting.json'))) {
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

  it('the train split alone: no priors; the medoid flagged on event timing (99.9 %), counting and HR extremum', async () => {
    const r = auditItems((await readHoltercareFolder(`${DATA}/train`)).items)
    expect(r).toMatchObject({ splits: ['train'], priors: 'none', priorItems: 0 })
    expect(row(r, 'closed_event_timing', 'medoid')).toMatchObject({ items: 1238, chance: 0.25, leak: true })
    expect(row(r, 'closed_event_timing', 'medoid').accuracy).toBeGreaterThan(0.99)
    expect(row(r, 'closed_event_counting', 'medoid')).toMatchObject({ items: 1238, leak: true })
    expect(row(r, 'closed_event_counting', 'medoid').accuracy).toBeGreaterThan(0.45)
    expect(row(r, 'closed_HR_extremum_timing', 'medoid')).toMatchObject({ items: 1134, leak: true })
    expect(row(r, 'closed_HR_extremum_timing', 'medoid').accuracy).toBeGreaterThan(0.33)
    // The release states no span, so no position answerer applies and times have no floor without priors.
    expect(r.closed.flatMap((t) => t.answerers.filter((a) => ['span likelihood', 'nearest the middle'].includes(a.answerer)))).toEqual([])
    expect(floors(r)).toMatchObject({ open_event_counting: ['zero'], open_HR_extremum_timing: [] })
    expect(renderAudit(r)[0]).toBe('audit of train; no priors: one split and no --train, so the answerers that learn are skipped')
  })

  it('both splits cross-split: the learned join answers closed presence from the other questions (over 95 %)', async () => {
    const r = auditItems((await readHoltercareFolder(DATA)).items)
    expect(r).toMatchObject({ splits: ['train', 'valid'], priors: 'cross-split', priorItems: 18548, leftOut: [] })
    const join = row(r, 'closed_presence', 'learned join')
    expect(join).toMatchObject({ items: 5292, leak: true })
    expect(join.accuracy).toBeGreaterThan(0.95)
    expect(row(r, 'closed_presence', 'named elsewhere').leak).toBe(true)
    expect(renderAudit(r)[0]).toBe('audit of train, valid; priors cross-split: each split is audited with priors learned from the others (18548 items in all)')
  })

  it('valid with --train: the train priors, the medoid still flagged, the floors that need priors', async () => {
    const train = (await readHoltercareFolder(`${DATA}/train`)).items.map((i) => i.item)
    const r = auditItems((await readHoltercareFolder(`${DATA}/valid`)).items, train)
    expect(r).toMatchObject({ splits: ['valid'], priors: 'train', priorItems: 16672, leftOut: [] })
    expect(row(r, 'closed_event_timing', 'medoid')).toMatchObject({ items: 141, leak: true })
    expect(row(r, 'closed_event_timing', 'medoid').accuracy).toBeGreaterThan(0.99)
    expect(floors(r)).toMatchObject({
      open_event_counting: ['priors\' median', 'priors\' median for the finding named', 'zero'],
      open_HR_extremum_timing: ['priors\' median'],
      open_diagnosis: ['the priors\' most frequent answer'],
    })
    expect(r.open.find((t) => t.task === 'open_event_counting')).toMatchObject({ items: 141, parsed: 141 })
    expect(renderAudit(r)[0]).toBe('audit of valid; priors from --train (16672 items)')
  })
})
