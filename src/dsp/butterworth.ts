// Butterworth design as scipy does it, so our coefficients equal scipy's `butter(..., output='sos')`
// (`clean`): analog prototype poles (buttap) -> lp2lp/lp2hp at the prewarped cutoff ->
// bilinear transform at fs = 2 -> zpk2sos with pairing 'nearest' (odd orders get an extra pole
// and zero at the origin; the pole nearest the unit circle is paired first and ends up in the
// LAST section; the gain goes into the first section). Complex numbers are [re, im] pairs.

/** One second-order section: [b0, b1, b2, 1, a1, a2]. */
export type Sos = number[][]

type C = [number, number]
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]]
const div = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1]
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d]
}
const abs = (a: C) => Math.hypot(a[0], a[1])
const isReal = (a: C) => a[1] === 0

export interface ButterworthSpec {
  order: number
  cutoffHz: number
  fs: number
  type: 'highpass' | 'lowpass'
}

/** Designs a digital Butterworth filter as second-order sections, equal to scipy's `butter(order, cutoffHz, type, output='sos', fs)`. */
export function designButterworth({ order, cutoffHz, fs, type }: ButterworthSpec): Sos {
  if (!Number.isInteger(order) || order < 1) throw new RangeError(`Butterworth order must be a positive integer, found ${order}`)
  const wn = (2 * cutoffHz) / fs
  if (!(wn > 0 && wn < 1)) throw new RangeError(`cutoff ${cutoffHz} Hz must lie between 0 and fs/2 = ${fs / 2} Hz`)
  const warped = 4 * Math.tan((Math.PI * wn) / 2) // 2*fs*tan(pi*Wn/fs) with scipy's internal fs = 2
  // Analog prototype: p = -exp(i*pi*m/(2N)), m = -N+1, -N+3, ..., N-1 (middle one exactly -1).
  let poles: C[] = []
  for (let m = -order + 1; m < order; m += 2) {
    const t = (Math.PI * m) / (2 * order)
    poles.push([-Math.cos(t), m === 0 ? 0 : -Math.sin(t)])
  }
  let k = 1
  let zeros: C[]
  if (type === 'highpass') {
    // lp2hp: p -> wo/p, N zeros at s = 0, k *= 1/prod(-p)
    let prodNegP: C = [1, 0]
    for (const p of poles) prodNegP = mul(prodNegP, [-p[0], -p[1]])
    k *= div([1, 0], prodNegP)[0]
    poles = poles.map((p) => div([warped, 0], p))
    zeros = poles.map((): C => [0, 0])
  } else {
    poles = poles.map((p): C => [p[0] * warped, p[1] * warped])
    k *= warped ** order
    zeros = []
  }
  // Bilinear transform with fs2 = 2*fs = 4: x -> (4 + x)/(4 - x); zeros at infinity go to -1.
  let num: C = [1, 0]
  let den: C = [1, 0]
  for (const z of zeros) num = mul(num, [4 - z[0], -z[1]])
  for (const p of poles) den = mul(den, [4 - p[0], -p[1]])
  k *= div(num, den)[0]
  const zd: C[] = zeros.map((z) => div([4 + z[0], z[1]], [4 - z[0], -z[1]]))
  while (zd.length < poles.length) zd.push([-1, 0])
  const pd: C[] = poles.map((p) => div([4 + p[0], p[1]], [4 - p[0], -p[1]]))
  return zpkToSosNearest(zd, pd, k)
}

// scipy's zpk2sos(pairing='nearest') for real zeros (all Butterworth zeros are real).
function zpkToSosNearest(zeros: C[], poles: C[], k: number): Sos {
  let z = zeros.map((c) => c[0])
  let p = poles.filter((c) => c[1] >= 0) // one of each conjugate pair plus the real ones
  if (poles.length % 2 === 1) {
    p.push([0, 0])
    z.push(0)
  }
  const nSections = Math.ceil(poles.length / 2)
  const sos: number[][] = []
  const takeNearestZero = (to: C): number => {
    let best = 0
    for (let i = 1; i < z.length; i++) if (abs([z[i] - to[0], -to[1]]) < abs([z[best] - to[0], -to[1]])) best = i
    return z.splice(best, 1)[0]
  }
  for (let s = 0; s < nSections; s++) {
    // The "worst" pole (closest to the unit circle) first; it ends up in the last section.
    let i1 = 0
    for (let i = 1; i < p.length; i++) if (Math.abs(1 - abs(p[i])) < Math.abs(1 - abs(p[i1]))) i1 = i
    const p1 = p.splice(i1, 1)[0]
    let a: number[]
    if (isReal(p1)) {
      let i2 = -1
      for (let i = 0; i < p.length; i++) {
        if (isReal(p[i]) && (i2 < 0 || Math.abs(abs(p[i]) - abs(p1)) < Math.abs(abs(p[i2]) - abs(p1)))) i2 = i
      }
      if (i2 < 0) throw new Error('zpk2sos: unpaired real pole') // cannot happen: real poles are even after padding
      const p2 = p.splice(i2, 1)[0]
      a = [1, -(p1[0] + p2[0]), p1[0] * p2[0]]
    } else {
      a = [1, -2 * p1[0], p1[0] * p1[0] + p1[1] * p1[1]]
    }
    const z1 = takeNearestZero(p1)
    const z2 = takeNearestZero(p1)
    sos.push([1, -(z1 + z2), z1 * z2, ...a])
  }
  sos.reverse()
  for (let j = 0; j < 3; j++) sos[0][j] *= k
  return sos
}
