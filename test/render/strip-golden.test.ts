// Golden image: a 10 s, 2-lead strip of MIT-BIH record 208 around its first PVC after 60 s
// (window from 5 s before the PVC's second, the window's reference beats as markers), drawn with
// the default options and compared pixel by pixel with test/golden/render/208-pvc.png. Drawing
// is integer-exact, so every pixel must match to within CHANNEL_TOLERANCE per channel (a
// relabelled marker, a missing lead label or paper painted over the margin all fail; a tolerance
// of 0.1 % of the pixels, as before, let those through). After an intended change, regenerate
// with `UPDATE_GOLDEN=1 npx vitest run test/render/strip-golden.test.ts` and look at the image.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { isBeatSymbol } from '../../src/formats/wfdb-annotation-codes.ts'
import { type Canvas } from '../../src/render/canvas.ts'
import { drawStrip, type StripInput } from '../../src/render/draw-strip.ts'
import { decodePng, encodePng } from '../../src/render/png.ts'
import { annotationsOf, concatLead, readRecord, recordingOf, recordSpec } from '../helpers/read-record.ts'

const RECORD = path.resolve('samples/mitdb/208.hea')
const GOLDEN = path.resolve('test/golden/render/208-pvc.png')
const WINDOW_SEC = 10
// Below the smallest difference between two colours of the strip (paper and margin differ by 8).
const CHANNEL_TOLERANCE = 2
const MAX_DIFFERING = 0 // pixels
const UPDATE = process.env.UPDATE_GOLDEN === '1'
if (UPDATE && process.env.CI) throw new Error('UPDATE_GOLDEN=1 under CI would compare the strip with itself; regenerate goldens by hand')

async function pvcWindow(): Promise<StripInput> {
  const { items } = await readRecord(recordSpec(RECORD))
  const rec = recordingOf(items)
  const fs = rec.fs
  const annotations = annotationsOf(items)
  const pvc = annotations.find((a) => a.symbol === 'V' && a.sample > 60 * fs)
  if (!pvc) throw new Error('record 208 has no PVC after 60 s')
  const startSec = Math.floor(pvc.sample / fs) - 5
  const startSample = startSec * fs
  const n = WINDOW_SEC * fs
  const lead = (label: string) => concatLead(items, rec.labels.indexOf(label)).slice(startSample, startSample + n)
  return {
    samples: [lead('MLII'), lead('V1')],
    labels: ['MLII', 'V1'],
    fs,
    startSample,
    startMs: startSec * 1000,
    windowSec: WINDOW_SEC,
    title: '208',
    startTime: rec.startTime,
    markers: annotations
      .filter((a) => a.sample >= startSample && a.sample < startSample + n && isBeatSymbol(a.symbol))
      .map((a) => ({ sample: a.sample, label: a.symbol, source: 'reference' as const })),
  }
}

// How many pixels differ by more than the tolerance in any channel.
function countDiffering(a: Canvas, b: Canvas): number {
  let n = 0
  for (let p = 0; p < a.width * a.height; p++) {
    for (let ch = 0; ch < 4; ch++) {
      if (Math.abs(a.data[p * 4 + ch] - b.data[p * 4 + ch]) > CHANNEL_TOLERANCE) {
        n++
        break
      }
    }
  }
  return n
}

describe('strip golden: record 208 around a PVC', () => {
  let input: StripInput
  let strip: Canvas
  beforeAll(async () => {
    input = await pvcWindow()
    strip = drawStrip(input)
  })

  it('the window holds the PVC and its neighbours as markers', () => {
    const labels = input.markers!.map((m) => m.label)
    expect(labels).toContain('V')
    expect(labels.length).toBeGreaterThan(8)
    expect(input.samples.every((s) => s.length === WINDOW_SEC * input.fs)).toBe(true)
  })

  it('matches test/golden/render/208-pvc.png', () => {
    if (UPDATE) {
      mkdirSync(path.dirname(GOLDEN), { recursive: true })
      writeFileSync(GOLDEN, encodePng(strip))
      console.warn(`strip-golden: wrote ${GOLDEN}; look at it, the comparison is skipped on an update run`)
      return
    }
    const golden = decodePng(readFileSync(GOLDEN))
    expect([strip.width, strip.height]).toEqual([golden.width, golden.height])
    const differing = countDiffering(strip, golden)
    if (differing > MAX_DIFFERING) {
      // Left in the temp directory on purpose, to be looked at beside the golden.
      const actual = path.join(os.tmpdir(), 'holter-208-pvc.actual.png')
      writeFileSync(actual, encodePng(strip))
      console.error(`strip-golden: ${differing} pixels differ by more than ${CHANNEL_TOLERANCE}; the drawn strip is at ${actual}`)
    }
    expect(differing).toBeLessThanOrEqual(MAX_DIFFERING)
  })
})
