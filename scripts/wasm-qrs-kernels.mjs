// Writes src/dsp/qrs-front-end-wasm-bytes.ts: the WebAssembly kernel of the QRS front end
// (src/dsp/qrs-front-end-wasm.ts), as WAT text generated below and assembled by wabt (a
// devDependency; the assembled bytes are committed, so neither a run nor a test needs wabt, and
// test/dsp/qrs-front-end.test.ts checks they are these). Same pattern as scripts/wasm-kernels.mjs.
//
// frontEnd does per sample exactly what frontEndKernel in src/dsp/qrs-front-end-js.ts and
// then scanEnergy in src/dsp/qrs-peaks.ts do, in their order (WebAssembly neither fuses nor
// reorders floating-point operations), so results are bit-identical: hold invalid samples, two
// biquads (transposed direct form II), five-point derivative, squaring, moving-window
// integration, then the peak picker on that energy; it returns after the sample at which a peak
// ends, so JavaScript sees peaks and the detector's deadlines, not samples. The two biquads run
// in the two lanes of f64x2 registers, the high-pass at sample k beside the low-pass at sample
// k-1 (software pipelining; a prologue and an epilogue run one lane alone).
// V8 (node 20) compiles this loop to ~100 instructions per sample and it is bound by their
// number, not by the biquads' recurrences, so every value it need not carry is left out: the
// derivative reads its past inputs back from bp, the constants are read from fixed addresses,
// the input is copied into raw and held in place, the energy is not stored, and the picker keeps
// its values as i64 bits with conditional moves (see `pick`). The picker in the same loop costs
// ~3 ns/sample against ~3-5 for the JavaScript scan over a stored energy (bench/results/qrs-speed.md).
// Layout (byte addresses from 0, f64 unless said): K: the biquads' coefficients as (high-pass,
// low-pass) pairs b0 b1 b2 a1 a2, then dScale and the integration width; ST: the state as
// qrs-front-end-kernel.ts lays it out (its d1-d4 are not used here: bp holds them); then, at
// addresses the caller passes: sq = energy ring (width values), bp and raw (f32) with at least 4
// samples of history before the first one.
//
//   node scripts/wasm-qrs-kernels.mjs [--check]   (--check: exit 1 if the committed file differs)
import { generatedModule, writeOrCheck } from './wasm-assemble.mjs'

const OUT = new URL('../src/dsp/qrs-front-end-wasm-bytes.ts', import.meta.url)

// Fixed addresses (qrs-front-end-wasm.ts uses the same): constants, then the state.
const K = 0, ST = 96
// State indices (qrs-front-end-kernel.ts): z0, z1 of both sections, held, (d1-d4,) sum, pos, then
// the peak picker's (qrs-peaks.ts): rising flag, height, its sample, last energy, peak flag.
const HELD = 4, SUM = 9, POS = 10, UP = 11, H = 12, AT = 13, PREV = 14, PEAK = 15

const get = (n) => `(local.get $${n})`
const set = (n, v) => `(local.set $${n} ${v})`
const state = (i) => `(f64.load offset=${ST + 8 * i} (i32.const 0))`
const store = (i, v) => `(f64.store offset=${ST + 8 * i} (i32.const 0) ${v})`
const bump = (p, by) => set(p, `(i32.add ${get(p)} (i32.const ${by}))`)
const DSCALE = `(f64.load offset=${K + 80} (i32.const 0))`
const WIDTH = `(f64.load offset=${K + 88} (i32.const 0))`

// Both lanes' biquad on $in into $out and the new states $nz0, $z1n (sos-filter.ts's order).
const COEF = { b0: 0, b1: 1, b2: 2, a1: 3, a2: 4 }
const vmul = (c, v) => `(f64x2.mul (v128.load offset=${K + 16 * COEF[c]} (i32.const 0)) ${get(v)})`
const biquad = [
  set('out', `(f64x2.add ${vmul('b0', 'in')} ${get('z0')})`),
  set('nz0', `(f64x2.add (f64x2.sub ${vmul('b1', 'in')} ${vmul('a1', 'out')}) ${get('z1')})`),
  set('z1n', `(f64x2.sub ${vmul('b2', 'in')} ${vmul('a2', 'out')})`),
]
const lane0 = '0 1 2 3 4 5 6 7'
// Lanes from two vectors: `keep` takes lane 0 from a and lane 1 from b.
const keep = (a, b) => `(i8x16.shuffle ${lane0} 24 25 26 27 28 29 30 31 ${get(a)} ${get(b)})`
const spread0 = `(i8x16.shuffle ${lane0} ${lane0} ${get('out')} ${get('out')})`

// Reads raw at $p into $to (an invalid sample holds the last valid value, $held) and writes it back.
const hold = (to) => [
  set('v', `(f64.promote_f32 (f32.load ${get('p')}))`),
  // Number.isFinite(v): |v| < Infinity is false for NaN and for +-Infinity.
  set(to, `(select ${get('v')} ${get('held')} (f64.lt (f64.abs ${get('v')}) (f64.const inf)))`),
  `(f32.store ${get('p')} (f32.demote_f64 ${get(to)}))`,
]

// From the band-passed $b of the sample at bp address $q on: the derivative (its inputs d1, d3,
// d4 are bp's last values), energy, integration into $m (JS: left to right).
const bpAt = (back) => `(f64.load (i32.sub ${get('q')} (i32.const ${8 * back})))`
const fromBandpass = [
  `(f64.store ${get('q')} ${get('b')})`,
  set('e', `(f64.mul (f64.sub (f64.sub (f64.add (f64.mul (f64.const 2) ${get('b')}) ${bpAt(1)}) ${bpAt(3)}) (f64.mul (f64.const 2) ${bpAt(4)})) ${DSCALE})`),
  set('e', `(f64.mul ${get('e')} ${get('e')})`),
  set('sum', `(f64.add ${get('sum')} (f64.sub ${get('e')} (f64.load ${get('pos')})))`),
  `(f64.store ${get('pos')} ${get('e')})`,
  bump('pos', 8),
  set('pos', `(select ${get('sq')} ${get('pos')} (i32.eq ${get('pos')} ${get('end')}))`),
  // A running sum can drift slightly below zero by rounding; energy never is.
  set('m', `(select (f64.div ${get('sum')} ${WIDTH}) (f64.const 0) (f64.gt ${get('sum')} (f64.const 0)))`),
]

// The peak picker (scanEnergy) on $m, the sample at bp address $q, without a branch per sample.
// Energy is never negative nor NaN, and such doubles order as their bits do as integers, so the
// picker keeps one reference $r as i64 bits, moved by conditional moves (V8 turns an f64 select
// into a branch, mispredicted at every turn of the noise): while rising it is the candidate's
// height h, while falling the last energy; a sample above it rises ($rise: a new candidate).
// While rising, energy below half of h ends the peak ($fall; h stays in $r for the state).
const pick = [
  set('mb', `(i64.reinterpret_f64 ${get('m')})`),
  set('fall', `(i32.and ${get('up')} (f64.lt ${get('m')} (f64.mul (f64.const 0.5) (f64.reinterpret_i64 ${get('r')}))))`),
  set('rise', `(i64.gt_s ${get('mb')} ${get('r')})`),
  set('r', `(select ${get('r')} ${get('mb')} (i32.gt_u ${get('up')} ${get('rise')}))`),
  set('at', `(select ${get('q')} ${get('at')} ${get('rise')})`),
  // Rising stays rising unless it fell; falling rises on a rise (a fall implies rising and no rise).
  set('up', `(i32.xor (i32.or ${get('up')} ${get('rise')}) ${get('fall')})`),
]

// Samples raw[p..p+n) (their bp at q..), x[0] being sample `first`; returns the index of the last one taken.
const PARAMS = '(param $sq i32) (param $end i32) (param $p i32) (param $q i32) (param $n i32) (param $first f64) (result i32)'
const LOCALS = [
  '(local $z0 v128) (local $z1 v128) (local $nz0 v128) (local $z1n v128) (local $in v128) (local $out v128)',
  ...['held', 'hn', 'v', 'b', 'e', 'sum', 'm'].map((n) => `(local $${n} f64)`),
  ...['pos', 'pEnd', 'q0', 'at', 'up', 'rise', 'fall'].map((n) => `(local $${n} i32)`),
  '(local $mb i64) (local $r i64)',
].join(' ')

function frontEndKernel() {
  const load = [
    set('z0', `(f64x2.replace_lane 1 (f64x2.splat ${state(0)}) ${state(2)})`),
    set('z1', `(f64x2.replace_lane 1 (f64x2.splat ${state(1)}) ${state(3)})`),
    set('held', state(HELD)), set('sum', state(SUM)),
    // pos is a byte address in the ring; the state keeps it as an index (st[POS] | 0 in JS).
    set('pos', `(i32.add ${get('sq')} (i32.shl (i32.trunc_f64_s ${state(POS)}) (i32.const 3)))`),
    set('up', `(f64.ne ${state(UP)} (f64.const 0))`),
    set('r', `(select (i64.reinterpret_f64 ${state(H)}) (i64.reinterpret_f64 ${state(PREV)}) ${get('up')})`),
    set('at', '(i32.const -1)'), set('q0', get('q')),
    set('pEnd', `(i32.add ${get('p')} (i32.shl ${get('n')} (i32.const 2)))`),
  ]
  const save = [
    store(0, `(f64x2.extract_lane 0 ${get('z0')})`), store(1, `(f64x2.extract_lane 0 ${get('z1')})`),
    store(2, `(f64x2.extract_lane 1 ${get('z0')})`), store(3, `(f64x2.extract_lane 1 ${get('z1')})`),
    store(HELD, get('held')), store(SUM, get('sum')),
    store(POS, `(f64.convert_i32_s (i32.shr_u (i32.sub ${get('pos')} ${get('sq')}) (i32.const 3)))`),
    store(UP, `(f64.convert_i32_u ${get('up')})`), store(PREV, get('m')), store(PEAK, `(f64.convert_i32_u ${get('fall')})`),
    // While falling without a fall in this call, the height is the last peak's, as loaded.
    `(if (i32.or ${get('up')} ${get('fall')}) (then ${store(H, `(f64.reinterpret_i64 ${get('r')})`)}))`,
    `(if (i32.ne ${get('at')} (i32.const -1)) (then ${store(AT, `(f64.add ${get('first')} (f64.convert_i32_u (i32.shr_u (i32.sub ${get('at')} ${get('q0')}) (i32.const 3))))`)}))`,
  ]
  return `  (func (export "frontEnd") ${PARAMS}
    ${LOCALS}
    (if (i32.eqz ${get('n')}) (then (return (i32.const -1))))
    ${load.join('\n    ')}
    ;; Prologue: the high-pass alone on sample 0 (lane 1's results are dropped).
    ${[...hold('held'), set('in', `(f64x2.splat ${get('held')})`), ...biquad, set('z0', keep('nz0', 'z0')), set('z1', keep('z1n', 'z1')), bump('p', 4)].join('\n    ')}
    (block $peak
      (if (i32.lt_u ${get('p')} ${get('pEnd')}) (then (loop $next
        ;; The high-pass of the sample at p beside the low-pass of the one before (at q). A peak
        ;; there leaves before the sample at p is taken (its high-pass state and held value are
        ;; not kept; raw holds its held value, which holds the same again), so the next call starts at it.
        ${[...hold('hn'), set('in', `(f64x2.replace_lane 0 ${spread0} ${get('hn')})`), ...biquad,
          set('b', `(f64x2.extract_lane 1 ${get('out')})`), ...fromBandpass, ...pick].join('\n        ')}
        (br_if $peak ${get('fall')})
        ${[set('z0', get('nz0')), set('z1', get('z1n')), set('held', get('hn')), bump('p', 4), bump('q', 8)].join('\n        ')}
        (br_if $next (i32.lt_u ${get('p')} ${get('pEnd')})))))
      ;; Epilogue: the low-pass alone on the last sample (lane 0's results are dropped below).
      ${[set('in', spread0), ...biquad, set('b', `(f64x2.extract_lane 1 ${get('out')})`), ...fromBandpass, ...pick].join('\n      ')})
    ;; The high-pass state of the last sample taken (lane 0) and the low-pass's new one (lane 1).
    ${[set('z0', keep('z0', 'nz0')), set('z1', keep('z1', 'z1n')), ...save].join('\n    ')}
    (i32.shr_u (i32.sub ${get('q')} ${get('q0')}) (i32.const 3)))`
}

export function kernelsWat() {
  return `(module\n  (import "env" "memory" (memory 1))\n${frontEndKernel()}\n)\n`
}

export async function kernelsSource() {
  return generatedModule({
    name: 'qrs-front-end.wat',
    wat: kernelsWat(),
    exportName: 'QRS_FRONT_END_WASM',
    comment: [
      'Generated by scripts/wasm-qrs-kernels.mjs from the WAT text there; do not edit. The kernel of',
      'qrs-front-end-wasm.ts: frontEnd, the front end and peak picker in one loop, the two biquads in the',
      'lanes of f64x2 registers (WebAssembly SIMD).',
    ],
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await writeOrCheck(OUT, await kernelsSource(), 'scripts/wasm-qrs-kernels.mjs')
