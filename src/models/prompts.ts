// The prompts models are shown (ours, versioned: PROMPT_VERSION goes into every request, so a
// changed prompt is a new request, never a cached answer to the old one). One system prompt per
// tier says what the model is looking at and the exact form of the answer the scorer parses; the
// user turn is the item's question after its input, with a header that says how to read the input.
import type { QaInputs, QaItem } from '../core/items.ts'
import { clock } from '../qa/phrasing.ts'

export const PROMPT_VERSION = 'hp-prompts-1'

const LOOKING = 'You are a cardiologist reading an excerpt of a long-term (Holter) ECG recording. Times are given in milliseconds from the start of the recording.'

const SYSTEM: Record<string, string> = {
  'Closed-QA': `${LOOKING} Answer the multiple-choice question from the ECG you are shown. When the question lists lettered options, reply with the letter and the option's text only, for example "B. 355792". When it has no options, reply "Yes" or "No" first, then at most one sentence.`,
  'Open-QA': `${LOOKING} Answer the question from the ECG you are shown in one or two sentences. Give numbers as digits: counts as integers, times in milliseconds from the start of the recording, heart rates in beats per minute.`,
  Multitask: 'You are a cardiologist reading a short ECG. Answer with the value asked for only: a number in the unit the question names, or one of the classes it lists, written as the question writes it.',
  'Report-Generation': `${LOOKING} Write the report asked for in plain prose of at most 200 words: the figures first (duration, number of beats, mean, fastest and slowest heart rate with their times), then the rhythm, ectopic beats and episodes, then a conclusion. Give numbers as digits.`,
}

/** The system prompt of a tier. */
export function systemPrompt(tier: string): string {
  return SYSTEM[tier] ?? SYSTEM['Open-QA']
}

/** The line before an excerpt's text: which lead, at what rate, in which unit, from when. */
export function textHeader(t: NonNullable<QaInputs['text']>, startMs: number, rate = t.fs): string {
  const leads = t.leads.length === 1 ? `lead ${t.leads[0]}` : `leads ${t.leads.join(', ')} (one line each)`
  return `ECG excerpt as text: ${leads}, ${rate} samples per second, values in millivolts separated by commas, starting at ${startMs} ms (${clock(startMs)}) from the start of the recording. Each line starts with the lead's name, its start time (hh:mm:ss.mmm) and the rate.`
}

/** The sentence before images or a clip. */
export function mediaHeader(item: QaItem, what: 'images' | 'video' | 'frames', count: number): string {
  const span = `${item.excerpt.startMs} ms to ${item.excerpt.endMs} ms`
  if (what === 'images') return `ECG excerpt from ${span} as ${count} consecutive strip image${count === 1 ? '' : 's'} in time order; each strip's start time is printed on it.`
  if (what === 'frames') return `ECG excerpt from ${span} as ${count} frame${count === 1 ? '' : 's'} sampled evenly from a scrolling video of the trace, in time order.`
  return `ECG excerpt from ${span} as a video of the scrolling trace.`
}
