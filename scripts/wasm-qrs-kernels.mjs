// Writes src/dsp/qrs-front-end.wasm.ts: the WebAssembly kernel of the QRS front end
// (src/dsp/qrs-front-end-wasm.ts), as WAT text generated below and assembled by wabt (a
// devDependency; the assembled bytes are committed, so neither a run nor a test needs wabt, and
// test/dsp/qrs-front-end.test.ts checks they are these). Same pattern as scripts/wasm-kernels.mjs.
//
// frontEnd does per sample exactly what frontEndKernel in src/dsp/qrs-front-end-kernel.ts does,
// in its order (WebAssembly neither fuses nor reorders floating-point operations), so results
// are bit-identical: hold invalid samples, two biquads (transposed direct form II), five-point
// derivative, squaring, moving-window integration. Every state value is a local (a register),
// with no bounds or type checks, and the two biquads run in the two lanes of f64x2 registers,
// the high-pass at sample k beside the low-pass at sample k-1 (software pipelining: half the
// filter instructions; a prologue and an epilogue run one lane alone). Each biquad's own
// recurrence (4 dependent operations per sample) stays, so this is near the floor for one
// stream. A plain scalar version of the same loop was ~10 % slower (bench/results/qrs-speed.md).
// Layout (byte addresses, f64 unless said): c = [b0 b1 b2 1 a1 a2] x 2 sections; st = the
// kernel's state as qrs-front-end-kernel.ts lays it out; sq = energy ring (width values);
// x, raw: f32; bp, mwi: f64.
//
//   node scripts/wasm-qrs-kernels.mjs [--check]   (--check: exit 1 if the committed file differs)
import { generatedModule, writeOrCheck } from './wasm-assemble.mjs'

const OUT = new URL('../src/dsp/qrs-front-end.wasm.ts', import.meta.url)

// State indices (qrs-front-end-kernel.ts): z0, z1 of both sections, held, d1-d4, sum, pos.
const HELD = 4, D1 = 5, D2 = 6, D3 = 7, D4 = 8, SUM = 9, POS = 10

const get = (n) => `(local.get $${n})`
const set = (n, v) => `(local.set $${n} ${v})`
const ld = (at, i) => `(f64.load offset=${8 * i} ${get(at)})`
const st = (at, i, v) => `(f64.store offset=${8 * i} ${get(at)} ${v})`
const bump = (p, by) => set(p, `(i32.add ${get(p)} (i32.const ${by}))`)
const f64s = (names) => names.map((n) => `(local $${n} f64)`).join(' ')

const PARAMS = '(param $c i32) (param $st i32) (param $sq i32) (param $width i32) (param $dScale f64) (param $x i32) (param $raw i32) (param $bp i32) (param $mwi i32) (param $n i32)'
const SCALARS = ['held', 'd1', 'd2', 'd3', 'd4', 'sum', 'v', 'b', 'd', 'e', 'w']

// Loading and storing the state shared by both kernels (everything but the filter states).
const loadCommon = [
  set('held', ld('st', HELD)), set('d1', ld('st', D1)), set('d2', ld('st', D2)), set('d3', ld('st', D3)), set('d4', ld('st', D4)),
  set('sum', ld('st', SUM)), set('w', `(f64.convert_i32_s ${get('width')})`),
  // pos is a byte address in the ring; the state keeps it as an index (st[POS] | 0 in JS).
  set('pos', `(i32.add ${get('sq')} (i32.shl (i32.trunc_f64_s ${ld('st', POS)}) (i32.const 3)))`),
  set('end', `(i32.add ${get('sq')} (i32.shl ${get('width')} (i32.const 3)))`),
]
const storeCommon = [
  st('st', HELD, get('held')), st('st', D1, get('d1')), st('st', D2, get('d2')), st('st', D3, get('d3')), st('st', D4, get('d4')),
  st('st', SUM, get('sum')), st('st', POS, `(f64.convert_i32_s (i32.shr_u (i32.sub ${get('pos')} ${get('sq')}) (i32.const 3)))`),
]

// Reads x at $x into $held (invalid samples hold the last valid value) and writes it to raw.
const hold = [
  set('v', '(f64.promote_f32 (f32.load (local.get $x)))'),
  // Number.isFinite(v): |v| < Infinity is false for NaN and for +-Infinity.
  set('held', `(select ${get('v')} ${get('held')} (f64.lt (f64.abs ${get('v')}) (f64.const inf)))`),
  '(f32.store (local.get $raw) (f32.demote_f64 (local.get $held)))',
  bump('x', 4), bump('raw', 4),
]

// From the band-passed $b on: bp, derivative, energy, integration (JS: left to right).
const fromBandpass = [
  '(f64.store (local.get $bp) (local.get $b))',
  set('d', `(f64.mul (f64.sub (f64.sub (f64.add (f64.mul (f64.const 2) ${get('b')}) ${get('d1')}) ${get('d3')}) (f64.mul (f64.const 2) ${get('d4')})) ${get('dScale')})`),
  set('d4', get('d3')), set('d3', get('d2')), set('d2', get('d1')), set('d1', get('b')),
  set('e', `(f64.mul ${get('d')} ${get('d')})`),
  set('sum', `(f64.add ${get('sum')} (f64.sub ${get('e')} (f64.load ${get('pos')})))`),
  `(f64.store ${get('pos')} ${get('e')})`,
  bump('pos', 8),
  set('pos', `(select ${get('sq')} ${get('pos')} (i32.eq ${get('pos')} ${get('end')}))`),
  `(f64.store (local.get $mwi) (select (f64.div ${get('sum')} ${get('w')}) (f64.const 0) (f64.gt ${get('sum')} (f64.const 0))))`,
  bump('bp', 8), bump('mwi', 8),
]

const countdown = (body) => `(block $done (loop $next
      (br_if $done (i32.eqz (local.get $n)))
      ${body.join('\n      ')}
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $next)))`

function frontEndKernel() {
  // Lane 0: high-pass at sample k; lane 1: low-pass at sample k-1 (input: lane 0's last output).
  const pair = (i) => `(f64x2.replace_lane 1 (f64x2.splat (f64.load offset=${8 * i} (local.get $c))) (f64.load offset=${8 * (6 + i)} (local.get $c)))`
  const coef = { c0: 0, c1: 1, c2: 2, a1: 4, a2: 5 }
  const vmul = (a, b) => `(f64x2.mul ${get(a)} ${get(b)})`
  // Both lanes' biquad on $in into $out and the states (sos-filter.ts's order of operations).
  const biquad = [
    set('out', `(f64x2.add ${vmul('c0', 'in')} ${get('z0')})`),
    set('nz0', `(f64x2.add (f64x2.sub ${vmul('c1', 'in')} ${vmul('a1', 'out')}) ${get('z1')})`),
    set('z1n', `(f64x2.sub ${vmul('c2', 'in')} ${vmul('a2', 'out')})`),
  ]
  const lane0 = '0 1 2 3 4 5 6 7'
  const lane1 = '8 9 10 11 12 13 14 15'
  // Lanes from two vectors: `keep` takes lane 0 from a and lane 1 from b.
  const keep = (a, b) => `(i8x16.shuffle ${lane0} 24 25 26 27 28 29 30 31 ${get(a)} ${get(b)})`
  const spread0 = `(i8x16.shuffle ${lane0} ${lane0} ${get('out')} ${get('out')})`
  return `  (func (export "frontEnd") ${PARAMS}
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $a1 v128) (local $a2 v128)
    (local $z0 v128) (local $z1 v128) (local $nz0 v128) (local $z1n v128) (local $in v128) (local $out v128)
    ${f64s(SCALARS)} (local $pos i32) (local $end i32)
    ${Object.entries(coef).map(([n, i]) => set(n, pair(i))).join('\n    ')}
    ${set('z0', `(f64x2.replace_lane 1 (f64x2.splat ${ld('st', 0)}) ${ld('st', 2)})`)}
    ${set('z1', `(f64x2.replace_lane 1 (f64x2.splat ${ld('st', 1)}) ${ld('st', 3)})`)}
    ${loadCommon.join('\n    ')}
    (if (i32.eqz (local.get $n)) (then (return)))
    ;; Prologue: the high-pass alone on sample 0 (lane 1's results are dropped).
    ${[...hold, set('in', `(f64x2.splat ${get('held')})`), ...biquad, set('z0', keep('nz0', 'z0')), set('z1', keep('z1n', 'z1'))].join('\n    ')}
    ${set('n', `(i32.sub ${get('n')} (i32.const 1))`)}
    ${countdown([...hold, set('in', `(f64x2.replace_lane 0 ${spread0} ${get('held')})`), ...biquad, set('z0', get('nz0')), set('z1', get('z1n')),
      set('b', `(f64x2.extract_lane 1 ${get('out')})`), ...fromBandpass])}
    ;; Epilogue: the low-pass alone on the last sample (lane 0's results are dropped).
    ${[set('in', spread0), ...biquad, set('z0', keep('z0', 'nz0')), set('z1', keep('z1', 'z1n')), set('b', `(f64x2.extract_lane 1 ${get('out')})`), ...fromBandpass].join('\n    ')}
    ${[st('st', 0, `(f64x2.extract_lane 0 ${get('z0')})`), st('st', 1, `(f64x2.extract_lane 0 ${get('z1')})`), st('st', 2, `(f64x2.extract_lane 1 ${get('z0')})`), st('st', 3, `(f64x2.extract_lane 1 ${get('z1')})`), ...storeCommon].join('\n    ')})`
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
      'qrs-front-end-wasm.ts: frontEnd, the two biquads in the lanes of f64x2 registers (WebAssembly SIMD).',
    ],
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await writeOrCheck(OUT, await kernelsSource(), 'scripts/wasm-qrs-kernels.mjs')
