// What a task is, in one place: where its items come from (the block of an excerpt it is asked
// in, and how it makes an item there), how its answers are read and scored (its kind, its
// metrics, the one that decides who wins it) and how a baseline answers it. The registry
// (index.ts) lists every task; the generator, the scorer, the report and the baselines read it,
// so a new task is its own file and one line there. Pure.
import type { ExcerptFacts } from '../excerpt-facts.ts'
import type { QaDraft } from '../draft.ts'
import type { CountWords } from '../count-words.ts'
import type { HrExtreme } from '../hr-extreme.ts'
import type { Patient } from '../phrasing.ts'
import type { Question } from '../question-read.ts'
import type { VocabularyEvent } from '../vocabulary.ts'
import type { SeededRandom } from '../../excerpts/seeded-random.ts'

/** The tiers of the public Holtercare release, and the ECG multi-task benchmark's tasks beside them. */
export const TASK_TIERS = ['Closed-QA', 'Open-QA', 'Report-Generation', 'Multitask'] as const
export type TaskTier = (typeof TASK_TIERS)[number]

/**
 * How an answer is read: an option, a count, one time, a list of times, labels, yes/no, a report
 * (text metrics only), a number in the task's unit (regression) or a class of the task's classes.
 */
export type TaskKind = 'choice' | 'count' | 'timestamp' | 'timestamps' | 'labels' | 'yesno' | 'report' | 'number' | 'class'

export type MetricKey =
  | 'accuracy' | 'mae' | 'scoreMae' | 'timestampF1' | 'labelF1' | 'yesNoAccuracy' | 'binaryF1'
  | 'bleu1' | 'bleu4' | 'corpusBleu1' | 'corpusBleu4' | 'rougeL' | 'f1Bio' | 'scoreGpt'

/** What a baseline answers, per kind of question; null where it cannot tell (the caller falls back). */
export interface TaskAnswers {
  /** The index of the option to pick; absent: options are answered from the measures below, nearest first. */
  option?(q: Question, options: readonly string[]): number | null
  yes(q: Question): boolean | null
  count(q: Question): number | null
  /** Event times in record ms (open event timing). */
  times(q: Question): number[] | null
  extreme(q: Question): { timeMs: number; bpm: number | null } | null
  /** The findings named (closed: the diagnosis labels an option can hold; open: every event). */
  labels(q: Question, closed: boolean): string[] | null
  /** The measured evidence behind a yes/no (open_evidence_reasoning); absent or null: none stated. */
  evidence?(q: Question, yes: boolean): string | null
  report(q: Question, kind: 'overview' | 'summary'): string | null
  /** A number a regression task asks for (its module says which and in what unit). */
  estimate?(q: Question, task: string): number | null
  /** The index of the class a classification task asks for, among `classes`. */
  classify?(q: Question, task: string, classes: readonly string[]): number | null
}

/** What a pair block gives each of its tasks: one finding, asked of an excerpt with it and one without. */
export interface PairAsk {
  event: string
  words: CountWords
  /** The presence options the pair shares (["Yes","No"] or ["No","Yes"]), or null for free text. */
  options: readonly string[] | null
  group: string
  maxList: number
  vocabulary: readonly VocabularyEvent[]
  rng: SeededRandom
}

/** What a counting group gives its task: the finding, the group's shared options and the member's. */
export interface CountAsk {
  event: string
  words: CountWords
  values: readonly string[]
  truth: number
  group: string
  rng: SeededRandom
}

export interface DiagnosisAsk {
  form: 'present' | 'absent'
  values: readonly string[]
  truth: number
  group: string
  rng: SeededRandom
}

export interface TimingAsk {
  event: string
  words: CountWords
  /** Where the record's other truths lie in their spans (0-1), where decoys go. */
  references: readonly number[]
  rng: SeededRandom
}

export interface ExtremumAsk {
  x: HrExtreme
  /** Where the same kind of extreme lies in the record's other excerpts asking it (0-1). */
  references: readonly number[]
  /** How often each reference's own excerpt keeps its item (`keepRate`), by reference; absent: equal. */
  weights?: readonly number[]
  rng: SeededRandom
}

/** What a task asked of every excerpt of its set gets. */
export interface EveryAsk {
  avgBeats: number
  patient: Patient
  vocabulary: readonly VocabularyEvent[]
  rng: SeededRandom
  /** Notes that the excerpt could not carry the item and why (counted per record). */
  leftOut(reason: string): void
}

/**
 * The block a task is asked in (record-questions.ts, excerpt-roles.ts) and how it makes an item
 * there. `canAsk` says whether the excerpt can carry the item: a pair asks a task of both its
 * excerpts or of neither.
 */
export type TaskAsk =
  | { block: 'pair'; canAsk?(facts: ExcerptFacts, a: PairAsk): boolean; make(facts: ExcerptFacts, a: PairAsk): QaDraft | null }
  | { block: 'count'; make(facts: ExcerptFacts, a: CountAsk): QaDraft | null }
  | { block: 'diagnosis'; make(facts: ExcerptFacts, a: DiagnosisAsk): QaDraft | null }
  | { block: 'timing'; make(facts: ExcerptFacts, a: TimingAsk): QaDraft | null }
  | { block: 'extremum'; canAsk?(x: HrExtreme): boolean; make(facts: ExcerptFacts, a: ExtremumAsk): QaDraft | null; keepRate?(facts: ExcerptFacts, a: ExtremumAsk): number }
  | { block: 'every'; make(facts: ExcerptFacts, a: EveryAsk): QaDraft | null }

export type Block = TaskAsk['block']

export interface TaskModule<T extends string = string> {
  type: T
  tier: TaskTier
  kind: TaskKind
  /** What a closed task's options hold, which says how a measure picks one and what the audit reads in them. */
  options?: 'yesno' | 'counts' | 'times' | 'labels'
  /** The unit of a numeric answer (count, timestamp and number kinds). */
  unit?: string
  /** The metrics reported, the task's own first. */
  metrics: readonly MetricKey[]
  /** The metric that decides who wins the task (win rate); default the first. */
  decidedBy?(scoreGptComputed: boolean): MetricKey
  /** A classification task's classes, in class-id order. */
  classes?: readonly string[]
  /** Whether the question opens with the patient sentence (age and sex); false where they are the answer. */
  tellsPatient?: boolean
  ask: TaskAsk
  /** The option a baseline that measures picks (closed tasks), or null when it cannot tell. */
  pick?(a: TaskAnswers, q: Question, options: readonly string[], vocab: readonly VocabularyEvent[]): number | null
  /** A baseline's answer sentence from what it measured (an item without options), or null when it cannot tell. */
  answer(a: TaskAnswers, q: Question, vocab: readonly VocabularyEvent[]): string | null
}

/** A task module, its type kept as a literal so the registry can name every task type. */
export function defineTask<const T extends string>(m: TaskModule<T>): TaskModule<T> {
  return m
}

/** Text metrics every open and report task is scored by beside its own. */
export const TEXT_METRICS: readonly MetricKey[] = ['bleu1', 'bleu4', 'corpusBleu1', 'corpusBleu4', 'rougeL', 'f1Bio']
