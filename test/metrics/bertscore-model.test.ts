// F1-Bio's model plumbing end to end: a tiny BERT-shaped ONNX model (written by
// bertscore-tiny-onnx.ts, no Python) and a vocab.txt, run by onnxruntime-node through
// createBertEmbedder, must give the token vectors the same model computes in plain JS, in
// padded batches, for the output asked; then bertscoreMatch scores them.
// onnxruntime-node is not a dependency (docs/dependencies.md); without it this file skips, and fails
// under CI (test/helpers/ort.ts).
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { bertscoreMatch } from '../../src/metrics/bertscore-match.ts'
import { createBertEmbedder } from '../../src/metrics/bertscore-model.ts'
import { describeWithOrt } from '../helpers/ort.ts'
import { tmpDir } from '../helpers/tmp.ts'
import { TEST_VOCAB, tinyBertOnnx, tinyBertReference, tinyBertWeights } from './bertscore-tiny-onnx.ts'

describeWithOrt('createBertEmbedder on a tiny ONNX BERT', (ort) => {
  const dir = tmpDir('bertscore-')
  const vocabFile = path.join(dir, 'vocab.txt')
  writeFileSync(vocabFile, TEST_VOCAB)
  const weights = tinyBertWeights(TEST_VOCAB.split('\n').length - 1, 8)
  const model = path.join(dir, 'tiny-bert.onnx')
  writeFileSync(model, tinyBertOnnx(weights))
  const texts = ['Sinus rhythm at 72 bpm.', 'sinus bradycardia', '', 'premature beats, ST-segment depression']

  for (const output of ['last_hidden_state', 'embeddings'] as const) {
    it(`gives ${output} of each text as the model computes it, in padded batches`, async () => {
      const embedder = await createBertEmbedder({ model, vocabFile, lowerCase: true, output, batchSize: 3, ort })
      try {
        const got = await embedder.embed(texts)
        expect(got.map((g) => g.tokens.length)).toEqual([8, 5, 2, 9])
        let worst = 0
        for (const g of got) {
          const want = tinyBertReference(weights, g.ids, output)
          expect(g.embeddings.vectors.length).toBe(want.length)
          for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(g.embeddings.vectors[i] - want[i]))
          expect(Array.from(g.embeddings.special)).toEqual(g.tokens.map((t) => (t === '[CLS]' || t === '[SEP]' ? 1 : 0)))
        }
        expect(worst).toBeLessThan(1e-5)
      } finally {
        await embedder.close()
      }
    })
  }

  it('feeds the scorer: identical texts give 1, an empty one P = R = 0', async () => {
    const embedder = await createBertEmbedder({ model: tinyBertOnnx(weights), vocabFile, lowerCase: true, ort })
    try {
      const [a, b, empty, c] = (await embedder.embed([texts[0], texts[0].toUpperCase(), '', texts[3]])).map((e) => e.embeddings)
      expect(bertscoreMatch(a, b).f1).toBeCloseTo(1, 6)
      expect(bertscoreMatch(empty, a)).toMatchObject({ precision: 0, recall: 0, empty: 'hypothesis' })
      const other = bertscoreMatch(c, a).f1
      expect(other).toBeGreaterThan(-1)
      expect(other).toBeLessThan(0.999)
    } finally {
      await embedder.close()
    }
  })

  it('names the outputs when asked for one the model lacks; missing or bad files', async () => {
    await expect(createBertEmbedder({ model, vocabFile, lowerCase: true, output: 'hidden_states.9', ort })).rejects.toThrow(/no output "hidden_states.9"; it has last_hidden_state, embeddings/)
    await expect(createBertEmbedder({ model, vocabFile: path.join(dir, 'nope.txt'), lowerCase: true, ort })).rejects.toMatchObject({ code: 'E_FILE_MISSING' })
    await expect(createBertEmbedder({ model: path.join(dir, 'nope.onnx'), vocabFile, lowerCase: true, ort })).rejects.toMatchObject({ code: 'E_FILE_MISSING' })
    await expect(createBertEmbedder({ model: vocabFile, vocabFile, lowerCase: true, ort })).rejects.toMatchObject({ code: 'E_IO' })
  })
})
