// Answerers that read the other questions about the same excerpt (never the ECG): a benchmark
// whose questions are asked only where a finding occurs, or that say so ("X is present in this
// excerpt"), or whose option sets name what another question asks about, lets one question
// answer another. Two of them:
//   named elsewhere   yes/no: yes when another question of the excerpt names the finding asked
//                     about; counts: the smallest non-zero option when another question names it,
//                     else 0; diagnosis: the option other questions name most;
//   learned join      a naive Bayes model, learned on a split the audit does not score, of what
//                     the other questions (their task, whether they name the finding, their
//                     wording with names and numbers masked) say about the answer: it finds a
//                     selection rule or a wording that gives the answer away without being told
//                     which.
// Both abstain where the audit gathered no siblings. Pure.
import { taskModule } from '../qa/tasks/index.ts'
import { argBest, type Answerer, type Pick } from './pick.ts'
import type { ClosedQuestion, Sibling } from './priors.ts'
import { normName } from './mentions.ts'
import { parseNumericOptions } from '../qa/option-numbers.ts'

// Tasks whose options are findings (a diagnosis), not numbers.
const labelOptions = (task: string) => taskModule(task)?.options === 'labels'

const yesIndex = (q: ClosedQuestion, yes: boolean): Pick => {
  if (q.options === null) return yes ? 'yes' : 'no'
  const i = q.options.findIndex((o) => new RegExp(`^\\s*${yes ? 'yes' : 'no'}\\b`, 'i').test(o))
  return i < 0 ? null : i
}
const isYesNo = (q: ClosedQuestion) => q.options === null || (q.options.length === 2 && q.options.every((o) => /^\s*(yes|no)\b/i.test(o)))
const names = (s: Sibling, name: string) => s.names.includes(name) || s.optionNames.includes(name)

function namedElsewhere(q: ClosedQuestion): Pick {
  const sibs = q.siblings
  if (!sibs) return null
  if (isYesNo(q)) return q.target ? yesIndex(q, sibs.some((s) => names(s, q.target!))) : null
  if (!q.options) return null
  const lists = parseNumericOptions(q.options)
  if (taskModule(q.task)?.options === 'counts' && lists && q.target) {
    const named = sibs.some((s) => names(s, q.target!))
    return argBest(lists.length, (i) => (lists[i].length !== 1 ? null : named ? (lists[i][0] > 0 ? lists[i][0] : null) : lists[i][0] === 0 ? 0 : null))
  }
  if (labelOptions(q.task)) {
    const counts = q.options.map((o) => sibs.filter((s) => s.names.includes(normName(o))).length)
    return Math.max(...counts) > 0 ? argBest(counts.length, (i) => -counts[i]) : null
  }
  return null
}

// The features one candidate answer (yes, no, or an option) has in the light of the siblings.
function features(q: ClosedQuestion, option: number | null): string[] {
  const sibs = q.siblings ?? []
  const lists = q.options ? parseNumericOptions(q.options) : null
  const about = option !== null && labelOptions(q.task) ? normName(q.options![option]) : (q.target ?? null)
  const value = option === null ? '' : lists ? (lists[option].length === 1 && lists[option][0] === 0 ? 'zero|' : 'nonzero|') : labelOptions(q.task) ? 'finding|' : `opt${option}|`
  const out = [`${value}`]
  for (const s of sibs) {
    const mark = about === null ? '?' : s.names.includes(about) ? 'T' : s.optionNames.includes(about) ? 'O' : '-'
    out.push(`${value}${s.task}|${mark}`, `${value}${s.task}|${mark}|${s.template}`)
  }
  return out
}

interface Counts {
  docs: [number, number]
  total: [number, number]
  f: Map<string, [number, number]>
}

function learn(train: readonly ClosedQuestion[], task: string): Counts | null {
  const c: Counts = { docs: [0, 0], total: [0, 0], f: new Map() }
  const add = (fs: string[], y: 0 | 1) => {
    c.docs[y]++
    for (const f of fs) {
      const v = c.f.get(f) ?? c.f.set(f, [0, 0]).get(f)!
      v[y]++
      c.total[y]++
    }
  }
  for (const q of train) {
    if (q.task !== task || !q.siblings) continue
    if (isYesNo(q)) {
      const gold = q.options === null ? q.gold : /^\s*yes/i.test(q.options[q.gold as number]) ? 'yes' : 'no'
      add(features(q, null), gold === 'yes' ? 1 : 0)
    } else if (q.options) q.options.forEach((_, i) => add(features(q, i), i === q.gold ? 1 : 0))
  }
  return c.docs[0] && c.docs[1] ? c : null
}

function logOdds(c: Counts, fs: string[]): number {
  const v = c.f.size + 1
  let s = Math.log(c.docs[1] / c.docs[0])
  for (const f of fs) {
    const [n0, n1] = c.f.get(f) ?? [0, 0]
    s += Math.log((n1 + 1) / (c.total[1] + v)) - Math.log((n0 + 1) / (c.total[0] + v))
  }
  return s
}

/** The learned join answerer, trained on `train`'s questions (with their siblings). */
export function learnedJoin(train: readonly ClosedQuestion[]): Answerer {
  const models = new Map<string, Counts | null>()
  const model = (task: string) => (models.has(task) ? models.get(task)! : models.set(task, learn(train, task)).get(task)!)
  return {
    name: 'learned join',
    describe: 'naive Bayes over what the other questions of the excerpt say (their task, whether they name the finding, their masked wording), learned on the priors\' split',
    pick(q) {
      const c = q.siblings ? model(q.task) : null
      if (!c) return null
      if (isYesNo(q)) return yesIndex(q, logOdds(c, features(q, null)) >= 0)
      if (!q.options || taskModule(q.task)?.options === 'times') return null
      return argBest(q.options.length, (i) => -logOdds(c, features(q, i)))
    },
  }
}

/** The join answerer that needs no priors. */
export const NAMED_ELSEWHERE: Answerer = {
  name: 'named elsewhere',
  describe: 'yes when another question of the excerpt names the finding; counts: the smallest non-zero option if named, else 0; diagnosis: the option other questions name most',
  pick: namedElsewhere,
}
