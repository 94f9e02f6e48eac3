// The public Holtercare-Bench QA format (the Holtercare-Bench paper and release, "Public file format"):
// one JSON array per task file under <split>/<tier>/<task_type>.json, each element exactly
// {id, task_type, qa_pair: {question, answer}, tag}, with closed-task options inline at the end
// of the question ("... A. 2; B. 0; C. 3; D. 1") and the answer repeating the letter and the
// option's text ("D. 1"). Pure: the commands that read and write folders use these.

export const TIERS = ['Closed-QA', 'Open-QA', 'Report-Generation'] as const
export type Tier = (typeof TIERS)[number]

/** The 12 task types of the public release, by tier, in the order the paper lists them. */
export const TASKS_BY_TIER = {
  'Closed-QA': ['closed_presence', 'closed_event_counting', 'closed_event_timing', 'closed_HR_extremum_timing', 'closed_diagnosis'],
  'Open-QA': ['open_event_counting', 'open_HR_extremum_timing', 'open_event_timing', 'open_diagnosis', 'open_evidence_reasoning'],
  'Report-Generation': ['report_statistical_overview', 'report_general_summary'],
} as const

export type TaskType = (typeof TASKS_BY_TIER)[Tier][number]

export const TASK_TYPES: readonly TaskType[] = TIERS.flatMap((t) => TASKS_BY_TIER[t])

export type ClosedTask = (typeof TASKS_BY_TIER)['Closed-QA'][number]

/** The tier a task type belongs to. */
export function tierOf(task: TaskType): Tier {
  return TIERS.find((t) => (TASKS_BY_TIER[t] as readonly string[]).includes(task))!
}

/** Whether a string is one of the 12 task types. */
export function isTaskType(s: string): s is TaskType {
  return (TASK_TYPES as readonly string[]).includes(s)
}

/** One element of a public task file. */
export interface HoltercareItem {
  id: string
  task_type: TaskType
  qa_pair: { question: string; answer: string }
  tag: string
}

export const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'] as const

export interface InlineOption {
  letter: string
  text: string
}

/**
 * The options written at the end of a question, or null when it has none: the last " A. " from
 * which the rest splits on "; B. ", "; C. "... into consecutive letters (at least two options).
 */
export function splitOptions(question: string): { stem: string; options: InlineOption[] } | null {
  for (let at = question.lastIndexOf(' A. '); at >= 0; at = question.lastIndexOf(' A. ', at - 1)) {
    const parts = question.slice(at + 1).split(/; (?=[B-F]\. )/)
    if (parts.length < 2) continue
    const options = parts.map((p, i) => ({ letter: p.slice(0, 1), text: p.slice(3), ok: p.startsWith(`${LETTERS[i]}. `) }))
    if (options.every((o) => o.ok && o.text.trim() !== '')) return { stem: question.slice(0, at), options: options.map(({ letter, text }) => ({ letter, text })) }
    if (at === 0) break
  }
  return null
}

/** Options written inline: "A. x; B. y; ...". */
export function formatOptions(texts: readonly string[]): string {
  return texts.map((t, i) => `${LETTERS[i]}. ${t}`).join('; ')
}

/** A closed answer "C. text" split into its letter and text, or null when it does not start with one. */
export function splitAnswer(answer: string): InlineOption | null {
  const m = /^([A-F])\. (.*)$/s.exec(answer)
  return m ? { letter: m[1], text: m[2] } : null
}

/** The task file of a task type, relative to a split folder: <tier>/<task_type>.json. */
export function taskFile(task: TaskType): string {
  return `${tierOf(task)}/${task}.json`
}
