// The QRS front end's WebAssembly kernels against the JavaScript fallback: the committed bytes are
// what the generator assembles, and every output (held raw, band-pass, integrated energy) and
// every beat is bit-identical, and so is the peak picker's state at each stop, on real records
// (MIT-BIH, Icentia11k) and on invalid samples, gaps, resets and any blocking.
import { describe, expect, it } from 'vitest'
import { createQrsDetector } from '../../src/dsp/qrs-detector.ts'
import { createQrsFrontEnd, qrsBandpass, type QrsKernel } from '../../src/dsp/qrs-front-end.ts'
import { createWasmFrontEndBuffers } from '../../src/dsp/qrs-front-end-wasm.ts'
import { QRS_FRONT_END_WASM } from '../../src/dsp/qrs-front-end-wasm-bytes.ts'
import { blocksOf, concatLead, readRecord, recordSpec } from '../helpers/read-record.ts'
import { describeShared, sharedPath } from '../helpers/shared.ts'
// @ts-expect-error: a plain .mjs script without types
import { kernelsSource } from '../../scripts/wasm-qrs-kernels.mjs'

/** Lead 0 of a record, block by block as the read stage yields them, and joined. */
async function readLead0(file: string): Promise<{ blocks: Float32Array[]; x: Float32Array }> {
  const { items } = await readRecord(recordSpec(file))
  return { blocks: blocksOf(items).map((b) => b.leads[0]), x: concatLead(items, 0) }
}

/**
 * Every output of the front end over x in blocks of the given sizes (cycled), copied: the peak
 * picker's state at every stop (alternately after one sample and after the rest of the block;
 * its last energy is the integrated energy), then raw and bp.
 */
function frontEndOutputs(kernel: QrsKernel, fs: number, x: Float32Array, sizes: number[], history: number, resetAt = -1): Float64Array[] {
  const fe = createQrsFrontEnd(fs, kernel)
  const out: Float64Array[] = []
  for (let at = 0, k = 0; at < x.length; k++) {
    if (at >= resetAt && resetAt >= 0) {
      fe.reset()
      resetAt = -1
    }
    const block = x.subarray(at, at + sizes[k % sizes.length])
    const { raw, bp } = fe.load(block, history)
    // Alternately a sample at a time and through the rest of the block (past every peak).
    for (let j = 0; j < block.length; j++) {
      j = fe.scan(j, j % 2 === 0 ? j + 1 : block.length, at)
      out.push(fe.pick.slice())
    }
    out.push(Float64Array.from(raw), bp.slice())
    at += sizes[k % sizes.length]
  }
  return out
}

/** Index of the first block output whose bits differ from the reference's, or -1 (fast on large arrays). */
function firstDifference(got: Float64Array[], ref: Float64Array[]): number {
  const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  if (got.length !== ref.length) return Math.min(got.length, ref.length)
  return got.findIndex((a, i) => !bytes(a).equals(bytes(ref[i])))
}

/** Beats of the detector with the given kernel over blocks pushed one after another. */
function beats(kernel: QrsKernel, fs: number, blocks: Float32Array[]): number[] {
  const det = createQrsDetector({ fs, kernel })
  const found: number[] = []
  let at = 0
  for (const b of blocks) {
    found.push(...det.push(b, at))
    at += b.length
  }
  return [...found, ...det.finish()]
}

describe('QRS front-end WebAssembly kernels', () => {
  it('the committed bytes are what scripts/wasm-qrs-kernels.mjs assembles from its WAT text', async () => {
    const source: string = await kernelsSource()
    expect(source).toContain(`'${QRS_FRONT_END_WASM}'`)
  })

  it('run on this Node (WebAssembly SIMD), so the detector takes the WebAssembly path', () => {
    expect(createWasmFrontEndBuffers(Float64Array.from(qrsBandpass(360).flat()), 54, 100, 100)).not.toBeNull()
  })

  it('bit-identical to JavaScript on invalid samples, a reset and any blocking', () => {
    const fs = 250
    const x = Float32Array.from({ length: 20_000 }, (_, i) => Math.sin(i / 9) + 0.4 * Math.sin(i / 2.3) + ((i * 7919) % 101) / 400)
    x.fill(Number.NaN, 3000, 3400)
    x[5000] = Number.POSITIVE_INFINITY
    x[5001] = Number.NEGATIVE_INFINITY
    x[0] = Number.NaN
    for (const sizes of [[250], [1, 2, 3, 1000], [4096, 7]]) {
      for (const resetAt of [-1, 9000]) {
        const ref = frontEndOutputs('js', fs, x, sizes, 512, resetAt)
        expect(firstDifference(frontEndOutputs('wasm', fs, x, sizes, 512, resetAt), ref)).toBe(-1)
      }
    }
  })
})

describeShared('QRS front-end WebAssembly kernels on real records', () => {
  it.each(['100', '208'])('MIT-BIH %s: every front-end output and every beat as with JavaScript', async (rec) => {
    const { blocks, x } = await readLead0(sharedPath(`data/mitdb/${rec}`))
    const ref = frontEndOutputs('js', 360, x, [3600, 1001], 1024)
    expect(firstDifference(frontEndOutputs('wasm', 360, x, [3600, 1001], 1024), ref)).toBe(-1)
    expect(beats('wasm', 360, blocks)).toEqual(beats('js', 360, blocks))
  }, 60_000)

  it('Icentia11k p00000 s00 (250 Hz): the same beats as with JavaScript', async () => {
    const { blocks } = await readLead0(sharedPath('data/icentia11k/p00000_s00'))
    const js = beats('js', 250, blocks)
    expect(js.length).toBeGreaterThan(1000)
    expect(beats('wasm', 250, blocks)).toEqual(js)
  }, 60_000)
})
