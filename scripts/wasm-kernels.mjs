// Writes src/dsp/filter-kernels-wasm-bytes.ts: the WebAssembly kernels of the clean stage's filters
// (loaded by src/dsp/filter-kernels.ts), as WAT text generated below and assembled by wabt (a
// devDependency; the assembled bytes are committed, so neither a run nor a test needs wabt, and
// test/dsp/filter-kernels.test.ts checks they are these).
//
// pairK (K = 1, 2, 3 second-order sections) filters two streams at once, a forward one (up from
// address f) and a backward one (down from address b), in place, in the two lanes of f64x2
// registers: the backward pass of a zero-phase filter (zero-phase.ts) then costs about what
// the forward pass alone costs. Per lane it does exactly sos-filter.ts's operations in its
// order (transposed direct form II; WebAssembly neither fuses nor reorders floating-point
// operations), so results are bit-identical to the JavaScript kernels.
// Layout: coefficients [b0, b1, b2, 1, a1, a2] per section at c, states [z0, z1] per section
// at sf (forward) and sb (backward), all f64.
//
// maStretch is the one-pass filtfilt of a moving average (moving-average.ts's stretch) over n
// values: the new value k is x[k + m], the one leaving the window x[k] (likewise u), output k
// goes to z[k]; the running sums xa and ua are f64 at s and s+8. It writes the sums back and
// returns 1 when they end finite, else leaves them and returns 0 (the caller then redoes the
// stretch with checks). The same operations in the same order as the JavaScript loop.
//
//   node scripts/wasm-kernels.mjs [--check]   (--check: exit 1 if the committed file differs)
import { generatedModule, writeOrCheck } from './wasm-assemble.mjs'

const OUT = new URL('../src/dsp/filter-kernels-wasm-bytes.ts', import.meta.url)

const get = (n) => `(local.get $${n})`
const mul = (a, b) => `(f64x2.mul ${a} ${b})`
const add = (a, b) => `(f64x2.add ${a} ${b})`
const sub = (a, b) => `(f64x2.sub ${a} ${b})`
const pack = (fwd, bwd) => `(f64x2.replace_lane 1 (f64x2.splat ${fwd}) ${bwd})`

function pairKernel(k) {
  const s = [...Array(k).keys()]
  const coef = s.flatMap((i) => ['b0', 'b1', 'b2', 'a1', 'a2'].map((n) => `${n}_${i}`))
  const state = s.flatMap((i) => [`z0_${i}`, `z1_${i}`])
  const locals = [...coef, ...state, 'v', ...s.map((i) => `o_${i}`)].map((n) => `(local $${n} v128)`).join(' ')
  const at = { b0: 0, b1: 8, b2: 16, a1: 32, a2: 40 }
  const loadCoef = s.flatMap((i) => ['b0', 'b1', 'b2', 'a1', 'a2'].map((n) => `(local.set $${n}_${i} (f64x2.splat (f64.load offset=${48 * i + at[n]} (local.get $c))))`))
  const loadState = s.flatMap((i) => [0, 1].map((z) => `(local.set $z${z}_${i} ${pack(`(f64.load offset=${16 * i + 8 * z} (local.get $sf))`, `(f64.load offset=${16 * i + 8 * z} (local.get $sb))`)})`))
  const storeState = s.flatMap((i) => [0, 1].flatMap((z) => [
    `(f64.store offset=${16 * i + 8 * z} (local.get $sf) (f64x2.extract_lane 0 ${get(`z${z}_${i}`)}))`,
    `(f64.store offset=${16 * i + 8 * z} (local.get $sb) (f64x2.extract_lane 1 ${get(`z${z}_${i}`)}))`,
  ]))
  // u = b0 v + z0; z0 = b1 v - a1 u + z1; z1 = b2 v - a2 u (sos-filter.ts's order of operations).
  const sections = s.flatMap((i) => {
    const v = i === 0 ? get('v') : get(`o_${i - 1}`)
    const u = get(`o_${i}`)
    return [
      `(local.set $o_${i} ${add(mul(get(`b0_${i}`), v), get(`z0_${i}`))})`,
      `(local.set $z0_${i} ${add(sub(mul(get(`b1_${i}`), v), mul(get(`a1_${i}`), u)), get(`z1_${i}`))})`,
      `(local.set $z1_${i} ${sub(mul(get(`b2_${i}`), v), mul(get(`a2_${i}`), u))})`,
    ]
  })
  const out = get(`o_${k - 1}`)
  return `  (func (export "pair${k}") (param $c i32) (param $sf i32) (param $sb i32) (param $f i32) (param $b i32) (param $n i32)
    ${locals}
    ${[...loadCoef, ...loadState].join('\n    ')}
    (block $done (loop $next
      (br_if $done (i32.eqz (local.get $n)))
      (local.set $v ${pack('(f64.load (local.get $f))', '(f64.load (local.get $b))')})
      ${sections.join('\n      ')}
      (f64.store (local.get $f) (f64x2.extract_lane 0 ${out}))
      (f64.store (local.get $b) (f64x2.extract_lane 1 ${out}))
      (local.set $f (i32.add (local.get $f) (i32.const 8)))
      (local.set $b (i32.sub (local.get $b) (i32.const 8)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $next)))
    ${storeState.join('\n    ')})`
}

// x, u, z: byte addresses of x[0], u[0], z[0] as above; s: the address of the two sums.
const maStretch = `  (func (export "maStretch") (param $x i32) (param $u i32) (param $z i32) (param $m i32) (param $n i32) (param $inv f64) (param $s i32) (result i32)
    (local $xa f64) (local $ua f64) (local $v f64) (local $w f64) (local $xm i32) (local $um i32)
    (local.set $xa (f64.load (local.get $s)))
    (local.set $ua (f64.load offset=8 (local.get $s)))
    (local.set $xm (i32.add (local.get $x) (i32.shl (local.get $m) (i32.const 3))))
    (local.set $um (i32.add (local.get $u) (i32.shl (local.get $m) (i32.const 3))))
    (block $done (loop $next
      (br_if $done (i32.eqz (local.get $n)))
      ;; v = x[k + m]; w = (v + xa) * inv; u[k + m] = w; z[k] = (w + ua) * inv; xa += v - x[k]; ua += w - u[k]
      (local.set $v (f64.load (local.get $xm)))
      (local.set $w (f64.mul (f64.add (local.get $v) (local.get $xa)) (local.get $inv)))
      (f64.store (local.get $um) (local.get $w))
      (f64.store (local.get $z) (f64.mul (f64.add (local.get $w) (local.get $ua)) (local.get $inv)))
      (local.set $xa (f64.add (local.get $xa) (f64.sub (local.get $v) (f64.load (local.get $x)))))
      (local.set $ua (f64.add (local.get $ua) (f64.sub (local.get $w) (f64.load (local.get $u)))))
      (local.set $x (i32.add (local.get $x) (i32.const 8)))
      (local.set $u (i32.add (local.get $u) (i32.const 8)))
      (local.set $z (i32.add (local.get $z) (i32.const 8)))
      (local.set $xm (i32.add (local.get $xm) (i32.const 8)))
      (local.set $um (i32.add (local.get $um) (i32.const 8)))
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (br $next)))
    ;; finite iff v - v == 0 for both sums
    (if (i32.eqz (i32.and (f64.eq (f64.sub (local.get $xa) (local.get $xa)) (f64.const 0)) (f64.eq (f64.sub (local.get $ua) (local.get $ua)) (f64.const 0))))
      (then (return (i32.const 0))))
    (f64.store (local.get $s) (local.get $xa))
    (f64.store offset=8 (local.get $s) (local.get $ua))
    (i32.const 1))`

export function kernelsWat() {
  return `(module\n  (import "env" "memory" (memory 1))\n${[1, 2, 3].map(pairKernel).join('\n')}\n${maStretch}\n)\n`
}

export async function kernelsSource() {
  return generatedModule({
    name: 'filter-kernels.wat',
    wat: kernelsWat(),
    exportName: 'FILTER_KERNELS_WASM',
    comment: [
      'Generated by scripts/wasm-kernels.mjs from the WAT text there; do not edit. The kernels of',
      'filter-kernels.ts: pair1, pair2 and pair3 filter a forward and a backward stream in the two',
      'lanes of f64x2 registers (WebAssembly SIMD); maStretch runs the moving average\'s one-pass filtfilt.',
    ],
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await writeOrCheck(OUT, await kernelsSource(), 'scripts/wasm-kernels.mjs')
