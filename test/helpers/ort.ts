// Tests that run an ONNX model need onnxruntime-node, which is not a dependency of the project
// (docs/metrics.md, F1-Bio): `.ci/run` installs it. A clone without it skips those tests with a
// message saying how to install it; under CI (CI=true) a missing onnxruntime-node is a failure,
// never a skip. BERTSCORE_ORT may name another copy (a path to its entry file).
import { describe, it } from 'vitest'
import type { OrtModule } from '../../src/metrics/bertscore-model.ts'

const from = process.env.BERTSCORE_ORT ?? 'onnxruntime-node'

/** onnxruntime-node, or undefined when it is not installed. */
export const ORT = (await import(from).catch(() => undefined)) as OrtModule | undefined

/** A describe block that needs onnxruntime-node: skipped with a reason locally, failing under CI. */
export function describeWithOrt(name: string, fn: (ort: OrtModule) => void): void {
  if (ORT) {
    describe(name, () => fn(ORT))
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs onnxruntime-node (CI=true)', () => {
        throw new Error(`onnxruntime-node could not be loaded from ${from}; .ci/run installs it (ONNXRUNTIME_NODE_INSTALL=skip npm i --no-save -E onnxruntime-node@1.30.0)`)
      })
    })
  } else {
    describe.skip(`${name} (skipped: onnxruntime-node is not installed; ONNXRUNTIME_NODE_INSTALL=skip npm i --no-save -E onnxruntime-node@1.30.0)`, () => fn(undefined as never))
  }
}
