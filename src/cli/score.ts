// `pipeline score` on the command line: score the predictions of runs (or of another harness
// against a Holtercare folder, or the ECG multi-task benchmark) and write report.json and
// report.md. The implementation (src/commands/score.ts) is loaded only when it runs.
import { PipelineError } from '../core/errors.ts'
import { defineCommand } from './command.ts'
import { atLeastZero, integerIn, numberFlag } from './flags.ts'

export default defineCommand({
  command: 'score [runDirs..]',
  describe: 'score the predictions of runs like the paper (accuracy, ScoreMAE, BLEU, ROUGE-L, F1s, F1-Bio, ScoreGPT, McNemar, win rates, bootstrap CIs): report.json, report.md, index.html and chart PNGs',
  builder: (y) => y
    .positional('runDirs', { type: 'string', array: true, default: [] as string[], describe: 'run directories whose infer stage wrote predictions (their QA may be in the input run)' })
    .option('out', { type: 'string', describe: 'the report folder (default <first runDir>/report, or ./report with --qa)' })
    .option('baselines', { type: 'string', describe: 'models whose MAEs set ScoreMAE\'s mu and sigma, comma-separated (default random,prior,holter-dsp: those present)' })
    // Not `array: true`, which would take the run directories after it: repeated flags collect anyway.
    .option('compare', { type: 'string', describe: 'A:B, McNemar\'s test of two systems on the closed items (repeatable); a side is a model, or "model (modality)"' })
    .option('seed', { type: 'number', default: 1, describe: 'seed of the bootstrap intervals and the sample items' })
    .option('resamples', { type: 'number', describe: 'bootstrap resamples (default 1000)' })
    .option('samples', { type: 'number', describe: 'sample items shown per task (default 3)' })
    .option('tolerance-ms', { type: 'number', describe: 'timestamp F1: a predicted time matches a gold one within this many ms (default 150)' })
    .option('rouge-stem', { type: 'boolean', default: false, describe: 'ROUGE-L with Porter stemming (rouge-score\'s use_stemmer)' })
    .option('rouge-tokenizer', { choices: ['rouge-score', 'unicode'] as const, default: 'rouge-score' as const, describe: 'rouge-score\'s tokenizer (parity; non-ASCII letters are dropped) or one that keeps every letter and digit' })
    .option('mcnemar', { choices: ['exact', 'chi2'] as const, default: 'exact' as const, describe: 'McNemar\'s test: exact binomial on the discordant pairs, or chi-square with continuity correction' })
    .option('win-contests', { choices: ['task', 'task-modality'] as const, default: 'task' as const, describe: 'win rates: systems compete on each task, or models on each task in each modality (baselines in every modality)' })
    .option('win-ties', { choices: ['shared', 'split', 'none'] as const, default: 'shared' as const, describe: 'win rates: a tie for best is a win for each tied system, a 1/k share of one, or no win' })
    .option('qa', { type: 'string', describe: 'a Holtercare-format folder (ours or the public release) to score --predictions against' })
    .option('predictions', { type: 'string', describe: 'with --qa: JSON lines {task_type, index, prediction[, model, modality, split]}' })
    .option('multitask', { type: 'string', describe: 'score the ECG multi-task benchmark: JSON lines {id, task, prediction, label[, model]}' })
    .option('judge', { type: 'string', describe: 'ScoreGPT\'s judge: a YAML file of one openai-compatible model (pipelines/examples/judge-openai.yaml)' })
    .option('f1-bio', { type: 'string', describe: 'F1-Bio\'s model: the folder optimum-cli exported a BERT to (model.onnx, vocab.txt, config.json), or a YAML file naming it (pipelines/examples/f1-bio.yaml); needs onnxruntime-node' })
    .option('f1-bio-cache', { type: 'string', describe: 'where F1-Bio\'s scores are kept, so scoring again embeds no pair twice (default <out>/f1bio-cache)' })
    .option('judge-cache', { type: 'string', describe: 'where the judge\'s replies are kept, so scoring again asks nothing twice (default <out>/judge-cache)' }),
  async handler(a, env) {
    const { scoreCommand } = await import('../commands/score.ts')
    return scoreCommand({
      runDirs: a.runDirs ?? [],
      qa: a.qa,
      predictions: a.predictions,
      multitask: a.multitask,
      judgeFile: once('--judge', a.judge),
      judgeCache: once('--judge-cache', a.judgeCache),
      f1BioPath: once('--f1-bio', a.f1Bio),
      f1BioCache: once('--f1-bio-cache', a.f1BioCache),
      out: a.out,
      baselines: a.baselines === undefined ? undefined : ([] as string[]).concat(a.baselines).join(',').split(',').map((s) => s.trim()).filter(Boolean),
      compare: ([] as string[]).concat(a.compare ?? []).map(parsePair),
      seed: numberFlag(env.args, '--seed', a.seed, integerIn(0, 2 ** 31 - 1, 1)) ?? 1,
      resamples: numberFlag(env.args, '--resamples', a.resamples, integerIn(1, 1_000_000, 1000)),
      samplesPerTask: numberFlag(env.args, '--samples', a.samples, integerIn(0, 1000, 3)),
      toleranceMs: numberFlag(env.args, '--tolerance-ms', a.toleranceMs, atLeastZero('ms', 150)),
      rouge: { stem: a.rougeStem, tokenizer: a.rougeTokenizer },
      exactMcnemar: a.mcnemar !== 'chi2',
      winRateTies: a.winTies,
      winContests: a.winContests,
      stdout: env.stdout,
      signal: env.signal,
    })
  },
})

// A string flag given at most once (yargs makes a repeated one an array).
function once(flag: string, value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) throw new PipelineError('E_USAGE', `${flag} was given ${value.length} times; give it once`, { field: flag.slice(2) })
  return value
}

// "A:B" as two system names (model names hold no ':'; a system label "m (text)" neither).
function parsePair(text: string): [string, string] {
  const at = text.lastIndexOf(':')
  const [a, b] = [text.slice(0, at).trim(), text.slice(at + 1).trim()]
  if (at < 0 || !a || !b) throw new PipelineError('E_USAGE', `--compare: expected A:B (two model names), found ${JSON.stringify(text)}; for example --compare holter-dsp:random`, { field: 'compare' })
  return [a, b]
}
