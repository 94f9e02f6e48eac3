// The signature texts of a score report (report-types.ts `signatures`): one line per metric
// saying exactly what was computed, built from the metrics' own signature functions plus how
// `pipeline score` counts unparsed, failed and missing items and averages over items. Pure.
import { bleuSignature } from '../metrics/bleu.ts'
import { bootstrapSignature } from '../metrics/bootstrap.ts'
import { labelF1Signature } from '../metrics/label-f1.ts'
import { mcnemarSignature } from '../metrics/mcnemar.ts'
import { rougeSignature, type RougeOptions } from '../metrics/rouge-l.ts'
import { timestampF1Signature } from '../metrics/timestamp-f1.ts'
import { winRateSignature, type TiePolicy } from '../metrics/win-rate.ts'
import type { MetricKey } from './task-metrics.ts'

export interface SignatureSettings {
  seed: number
  resamples: number
  level: number
  toleranceMs: number
  rouge: RougeOptions
  exactMcnemar: boolean
  /** Names parseLabels read (their count is in the signature). */
  vocabularySize: number
  f1Bio: string
  scoreGpt: string
  /** Tasks whose win is decided by a lower score. */
  lowerIsBetter: string[]
  ties: TiePolicy
  winContests: string
}

const PARSE = 'parse:answer-parse@1'
const EXCLUDED = 'failed,missing,no-gold:excluded'

/** Every signature of a report but ScoreMAE's (one per task, aggregate.ts), by key. */
export function reportSignatures(s: SignatureSettings): Record<MetricKey | 'bootstrap' | 'mcnemar' | 'winRate', string> {
  return {
    accuracy: `accuracy|${PARSE}(choice,yesno,class)|unparsed:wrong|${EXCLUDED}|scale:100`,
    yesNoAccuracy: `yes-no-accuracy|${PARSE}(yesno)|unparsed:wrong|${EXCLUDED}|scale:100`,
    mae: `mae|${PARSE}(count,timestamp-ms,number)|unparsed:excluded|${EXCLUDED}`,
    scoreMae: 'score-mae|see scoreMae:<task>',
    timestampF1: `${timestampF1Signature({ toleranceMs: s.toleranceMs })}|${PARSE}(timestamps)|avg:micro|unparsed:predicts-none|${EXCLUDED}|scale:100`,
    labelF1: `${labelF1Signature().replace('avg:micro,macro,samples', 'avg:micro')}|${PARSE}(labels,vocab:${s.vocabularySize})|unparsed:predicts-none|${EXCLUDED}|scale:100`,
    binaryF1: `binary-f1|pos:1|den:max(.,1)|${PARSE}(class)|unparsed:wrong-class|${EXCLUDED}|scale:100`,
    bleu1: `${bleuSignature({ maxOrder: 1 })}|sentence|avg:mean`,
    bleu4: `${bleuSignature({ maxOrder: 4 })}|sentence|avg:mean`,
    corpusBleu1: `${bleuSignature({ maxOrder: 1, effectiveOrder: false })}|corpus`,
    corpusBleu4: `${bleuSignature({ maxOrder: 4, effectiveOrder: false })}|corpus`,
    rougeL: `${rougeSignature(s.rouge)}|f|avg:mean|scale:100`,
    f1Bio: `f1-bio|${s.f1Bio}|avg:mean|scale:100`,
    // The judge's own signature already names the metric (src/models/judge.ts judgeSignatureFor).
    scoreGpt: `${s.scoreGpt.startsWith('score-gpt|') ? s.scoreGpt : `score-gpt|${s.scoreGpt}`}|avg:mean|judge-errors:excluded`,
    bootstrap: bootstrapSignature({ seed: s.seed, resamples: s.resamples, level: s.level }, 'case'),
    mcnemar: `${mcnemarSignature({ exact: s.exactMcnemar })}|items:both-read|unparsed:wrong`,
    winRate: `${winRateSignature({ lowerIsBetter: s.lowerIsBetter, ties: s.ties })}|contest:${s.winContests}`,
  }
}
