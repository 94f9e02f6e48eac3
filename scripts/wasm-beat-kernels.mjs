// Writes src/dsp/beat-kernels-wasm-bytes.ts (loaded by src/dsp/beat-kernels.ts): the WebAssembly
// kernels of src/dsp/template-match.ts (template matching and updates for the beat classifier) and
// src/dsp/beat-window-wasm.ts (the window's smoothing, baseline removal and shape measures), as
// WAT text generated below and assembled by wabt (a devDependency; the assembled bytes are
// committed, so neither a run nor a test needs wabt, and test/dsp/template-match.test.ts checks they
// are these). Same pattern as scripts/wasm-kernels.mjs.
//
// The two lanes of an f64x2 register hold two neighbouring shifts (d, d + 1) of the same sum:
// one unaligned v128.load of the beat at k + d gives both lanes their sample, the template value
// is splatted, and each lane adds in k order, exactly as beat-features.ts's accumulators do
// (WebAssembly neither fuses nor reorders floating-point operations), so every sum, variance and
// correlation is bit-identical to the JavaScript. The 13 shifts take 7 registers; the 14th lane
// (shift +7) is computed and ignored. The k loop is unrolled (constant load offsets, no counter).
// Layout (bytes, f64): the beat's samples from MATCH_FROM - MAX_SHIFT on at BEAT (PAIRS * 2 +
// MATCH_LEN - 1 values), its shift variances at VARIANCES (14), the best correlation at BEST, and
// templates from TEMPLATES on, SLOT bytes apart: each its centred match range (MATCH_LEN values)
// and, RANGE bytes further, the running average it is centred from.
//
//   node scripts/wasm-beat-kernels.mjs [--check]   (--check: exit 1 if the committed file differs)
import { generatedModule, writeOrCheck } from './wasm-assemble.mjs'

const OUT = new URL('../src/dsp/beat-kernels-wasm-bytes.ts', import.meta.url)

/** beat-features.ts's MATCH_LEN and SHIFTS (the test checks they agree). */
export const MATCH_LEN = 70
export const SHIFTS = 13
const PAIRS = Math.ceil(SHIFTS / 2)
/** Memory layout, bytes. */
export const BEAT = 0
export const BEAT_LEN = 2 * PAIRS + MATCH_LEN - 1
export const VARIANCES = 8 * 96
export const BEST = VARIANCES + 16 * PAIRS
export const TEMPLATES = 1024
/** A template's slot: its centred values, then (from RANGE on) its running average. */
export const RANGE = 8 * MATCH_LEN
export const SLOT = 2 * RANGE
/** beat-window.ts's grid (the test checks WINDOW_LEN and the ranges below agree). */
const GRID_HZ = 250
const CENTER = Math.round((250 * GRID_HZ) / 1000)
export const WINDOW_LEN = CENTER + Math.round((450 * GRID_HZ) / 1000) + 1
const at = (ms) => CENTER + Math.round((ms * GRID_HZ) / 1000)
/** beat-window.ts's baseline stretches and beat-features.ts's measureShape ranges, grid indices. */
export const RANGES = {
  BASE_LEN: Math.round((40 * GRID_HZ) / 1000), BASE_FROM: at(-250), BASE_TO: at(-40),
  SPAN_FROM: at(-100), SPAN_TO: at(150), PTP_FROM: at(-80), PTP_TO: at(100),
  PRE_NOISE: [at(-250) + 1, at(-60)], POST_NOISE: [at(200), at(440)],
}
/** shape()'s results (f64 each, from its `out`): baselinePtp, spanMs, ptp, noise. */
export const SHAPE_RESULTS = 4

/** k values per loop iteration (it must divide MATCH_LEN: the loop steps whole iterations). */
const UNROLL = 10
if (MATCH_LEN % UNROLL !== 0) throw new Error(`UNROLL ${UNROLL} does not divide MATCH_LEN ${MATCH_LEN}`)

const pairs = [...Array(PAIRS).keys()]
const ks = [...Array(UNROLL).keys()]
const get = (n) => `(local.get $${n})`
const set = (n, v) => `(local.set $${n} ${v})`
const beatAt = (k, p) => `(v128.load offset=${8 * (k + 2 * p)} (local.get $j))`
const locals = (names) => names.map((n) => `(local $${n} v128)`).join(' ')

// Runs `body` (UNROLL steps of k, reading at $j and $at) MATCH_LEN / UNROLL times, advancing both.
const loop = (body) => `(local.set $j (i32.const ${BEAT}))
    (loop $next
      ${body.join('\n      ')}
      (local.set $at (i32.add (local.get $at) (i32.const ${8 * UNROLL})))
      (local.set $j (i32.add (local.get $j) (i32.const ${8 * UNROLL})))
      (br_if $next (i32.lt_u (local.get $j) (i32.const ${BEAT + 8 * MATCH_LEN}))))`

// variances(): per shift d, the sum and the sum of squares of the beat over the match range moved
// by d, then sum2 - sum * sum / MATCH_LEN (shiftVariances's operations and order).
function variancesKernel() {
  const body = ks.flatMap((k) => pairs.flatMap((p) => [
    set(`x`, beatAt(k, p)),
    set(`s${p}`, `(f64x2.add ${get(`s${p}`)} ${get('x')})`),
    set(`q${p}`, `(f64x2.add ${get(`q${p}`)} (f64x2.mul ${get('x')} ${get('x')}))`),
  ]))
  const store = pairs.map((p) => `(v128.store offset=${VARIANCES + 16 * p} (i32.const 0) (f64x2.sub ${get(`q${p}`)} (f64x2.div (f64x2.mul ${get(`s${p}`)} ${get(`s${p}`)}) (f64x2.splat (f64.const ${MATCH_LEN})))))`)
  return `  (func (export "variances")
    ${locals(['x', ...pairs.flatMap((p) => [`s${p}`, `q${p}`])])} (local $j i32) (local $at i32)
    ${loop(body)}
    ${store.join('\n    ')})`
}

// match(t, tVar): the covariance of the beat with the centred template at address t for every
// shift, each a sum in k order; then matchCentred's consider(): corr = cov / sqrt(tVar * bVar)
// where both variances are positive (else 0), the first strictly best from shift -MAX_SHIFT up.
// Stores the best correlation at BEST and returns its shift index (shift + MAX_SHIFT; shift 0 and
// correlation -1 when none exceeds -1, as there).
function matchKernel() {
  const body = ks.flatMap((k) => [
    set('t', `(v128.load64_splat offset=${8 * k} (local.get $at))`),
    ...pairs.map((p) => set(`c${p}`, `(f64x2.add ${get(`c${p}`)} (f64x2.mul ${beatAt(k, p)} ${get('t')}))`)),
  ])
  const corr = pairs.flatMap((p) => {
    const bVar = `(v128.load offset=${VARIANCES + 16 * p} (i32.const 0))`
    return [
      set('x', bVar),
      set(`c${p}`, `(v128.bitselect (f64x2.div ${get(`c${p}`)} (f64x2.sqrt (f64x2.mul ${get('tv')} ${get('x')}))) (v128.const i64x2 0 0) (v128.and ${get('tpos')} (f64x2.gt ${get('x')} (v128.const i64x2 0 0))))`),
    ]
  })
  const choose = [...Array(SHIFTS).keys()].flatMap((e) => [
    `(local.set $corr (f64x2.extract_lane ${e % 2} ${get(`c${e >> 1}`)}))`,
    `(if (f64.gt (local.get $corr) (local.get $best)) (then (local.set $best (local.get $corr)) (local.set $shift (i32.const ${e}))))`,
  ])
  return `  (func (export "match") (param $at i32) (param $tVar f64) (result i32)
    ${locals(['t', 'x', 'tv', 'tpos', ...pairs.map((p) => `c${p}`)])} (local $corr f64) (local $best f64) (local $shift i32) (local $j i32)
    ${loop(body)}
    ${set('tv', '(f64x2.splat (local.get $tVar))')}
    ${set('tpos', `(f64x2.gt ${get('tv')} (v128.const i64x2 0 0))`)}
    ${corr.join('\n    ')}
    (local.set $best (f64.const -1))
    (local.set $shift (i32.const ${SHIFTS >> 1}))
    ${choose.join('\n    ')}
    (f64.store offset=${BEST} (i32.const 0) (local.get $best))
    (local.get $shift))`
}

// centre(t): beat-features.ts's centreTemplate of the running average at t + RANGE into the
// centred values at t; returns the variance. blend(t, e, weight): first its blendInto with the
// beat at BEAT moved by shift e - MAX_SHIFT (range[k] += weight (beat - range[k]), elementwise,
// so two at a time in the lanes), then centre(t). The mean and the variance are sums in k order
// (lane 0, then lane 1), as in JavaScript; c ** 2 there is c * c (V8 gives the same bits).
function centreKernels() {
  const r = (k) => `(v128.load offset=${RANGE + 8 * k} (local.get $t))`
  const centre = [
    '(local.set $mean (f64.const 0))',
    ...[...Array(MATCH_LEN).keys()].map((k) => `(local.set $mean (f64.add (local.get $mean) (f64.load offset=${RANGE + 8 * k} (local.get $t))))`),
    `(local.set $mean (f64.div (local.get $mean) (f64.const ${MATCH_LEN})))`,
    '(local.set $m (f64x2.splat (local.get $mean)))',
    '(local.set $var (f64.const 0))',
    ...[...Array(MATCH_LEN / 2).keys()].flatMap((i) => [
      `(local.set $c (f64x2.sub ${r(2 * i)} (local.get $m)))`,
      `(v128.store offset=${16 * i} (local.get $t) (local.get $c))`,
      '(local.set $c (f64x2.mul (local.get $c) (local.get $c)))',
      '(local.set $var (f64.add (local.get $var) (f64x2.extract_lane 0 (local.get $c))))',
      '(local.set $var (f64.add (local.get $var) (f64x2.extract_lane 1 (local.get $c))))',
    ]),
    '(local.get $var)',
  ]
  const blend = [
    '(local.set $w (f64x2.splat (local.get $weight)))',
    `(local.set $b (i32.add (i32.const ${BEAT}) (i32.shl (local.get $e) (i32.const 3))))`,
    ...[...Array(MATCH_LEN / 2).keys()].flatMap((i) => [
      `(local.set $c ${r(2 * i)})`,
      `(v128.store offset=${RANGE + 16 * i} (local.get $t) (f64x2.add (local.get $c) (f64x2.mul (local.get $w) (f64x2.sub (v128.load offset=${16 * i} (local.get $b)) (local.get $c)))))`,
    ]),
    '(call $centre (local.get $t))',
  ]
  return `  (func $centre (export "centre") (param $t i32) (result f64)
    (local $mean f64) (local $var f64) (local $m v128) (local $c v128)
    ${centre.join('\n    ')})
  (func (export "blend") (param $t i32) (param $e i32) (param $weight f64) (result f64)
    (local $w v128) (local $c v128) (local $b i32)
    ${blend.join('\n    ')})`
}

// window(in, n, box, half, smooth, index, near, far, direct, wave): beat-window.ts's box smoothing
// of the n f32 samples at `in` (a running sum in the plain order: add the newest, drop the oldest,
// divide by box) and its linear interpolation onto the grid (wave[g] = smooth[index[g]] near[g] +
// smooth[index[g] + 1] far[g]), or, when direct >= 0, the smoothed samples from input direct on
// written as the grid. Scalar: the running sum is one dependent chain, so lanes cannot help; the
// gain is the loop without JavaScript's bounds checks. Returns 1 when the final sum is finite.
function windowKernel() {
  const x = (k) => `(f64.promote_f32 (f32.load (i32.add (local.get $in) (i32.shl ${k} (i32.const 2)))))`
  const step = `(local.set $sum (f64.sub (f64.add (local.get $sum) ${x('(local.get $k)')}) ${x('(i32.sub (local.get $k) (local.get $box))')}))`
  const f64at = (base, i) => `(i32.add (local.get $${base}) (i32.shl ${i} (i32.const 3)))`
  const inc = (n) => `(local.set $${n} (i32.add (local.get $${n}) (i32.const 1)))`
  return `  (func (export "window") (param $in i32) (param $n i32) (param $box i32) (param $half i32) (param $smooth i32) (param $index i32) (param $near i32) (param $far i32) (param $direct i32) (param $wave i32) (result i32)
    (local $k i32) (local $g i32) (local $i i32) (local $to i32) (local $sum f64) (local $bx f64)
    (local.set $bx (f64.convert_i32_s (local.get $box)))
    (block $done (loop $first
      (br_if $done (i32.ge_s (local.get $k) (local.get $box)))
      (local.set $sum (f64.add (local.get $sum) ${x('(local.get $k)')}))
      ${inc('k')}
      (br $first)))
    (if (i32.ge_s (local.get $direct) (i32.const 0))
      (then
        (local.set $to (i32.sub (i32.add (local.get $direct) (i32.sub (local.get $box) (i32.const 1))) (local.get $half)))
        (block $done (loop $skip
          (br_if $done (i32.gt_s (local.get $k) (local.get $to)))
          ${step}
          ${inc('k')}
          (br $skip)))
        (block $done (loop $grid
          (br_if $done (i32.ge_s (local.get $g) (i32.const ${WINDOW_LEN})))
          (f64.store ${f64at('wave', '(local.get $g)')} (f64.div (local.get $sum) (local.get $bx)))
          ${step}
          ${inc('g')}
          ${inc('k')}
          (br $grid))))
      (else
        (f64.store ${f64at('smooth', '(local.get $half)')} (f64.div (local.get $sum) (local.get $bx)))))
    (block $done (loop $rest
      (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
      ${step}
      (if (i32.lt_s (local.get $direct) (i32.const 0))
        (then (f64.store ${f64at('smooth', '(i32.add (i32.sub (local.get $k) (local.get $box)) (i32.add (i32.const 1) (local.get $half)))')} (f64.div (local.get $sum) (local.get $bx)))))
      ${inc('k')}
      (br $rest)))
    (if (i32.lt_s (local.get $direct) (i32.const 0))
      (then (block $done (loop $interp
        (br_if $done (i32.ge_s (local.get $g) (i32.const ${WINDOW_LEN})))
        (local.set $i (i32.load (i32.add (local.get $index) (i32.shl (local.get $g) (i32.const 2)))))
        (f64.store ${f64at('wave', '(local.get $g)')} (f64.add
          (f64.mul (f64.load ${f64at('smooth', '(local.get $i)')}) (f64.load ${f64at('near', '(local.get $g)')}))
          (f64.mul (f64.load offset=8 ${f64at('smooth', '(local.get $i)')}) (f64.load ${f64at('far', '(local.get $g)')}))))
        ${inc('g')}
        (br $interp)))))
    (f64.eq (f64.sub (local.get $sum) (local.get $sum)) (f64.const 0)))`
}

// shape(wave, out): beat-window.ts's removeBaseline on the WINDOW_LEN values at `wave`, in place,
// then beat-features.ts's measureShape of the result; stores baselinePtp, spanMs, ptp and noise
// at `out`. Every sum is the JavaScript's, in its order. Extremes are taken with f64x2.pmin/pmax
// (`b < a ? b : a`, the JavaScript's `if (v < lo) lo = v`), two stretches or two halves at a time:
// the extreme of a set is the same value whatever the order, and on a wave (no NaN, no -0: see
// removeBaseline) Math.min/max give that value too. Every stretch is measured (no skipping by its
// end values, which mispredicts) and the first strictly flattest taken, which is what the skipping
// scan finds. Independent sums share a loop (slope energy with the roughness before the QRS, the
// 10/90 % points with the roughness after it), so the CPU overlaps their dependent chains.
function shapeKernel() {
  const { BASE_LEN, BASE_FROM, BASE_TO, SPAN_FROM, SPAN_TO, PTP_FROM, PTP_TO, PRE_NOISE, POST_NOISE } = RANGES
  const w = (k, p = 'p') => `(f64.load offset=${8 * k} (local.get $${p}))`
  const v = (k, p = 'p') => `(v128.load offset=${8 * k} (local.get $${p}))`
  const setp = (i) => `(local.set $p (i32.add (local.get $wave) (i32.shl ${i} (i32.const 3))))`
  const inc = (n) => `(local.set $${n} (i32.add (local.get $${n}) (i32.const 1)))`
  // A counted loop over $i from `from` to `to` (exclusive), with $p = wave + 8 i unless the body
  // sets its own pointer.
  const loop = (from, to, body, pointer = true) => to <= from ? [] : [`(local.set $i (i32.const ${from}))`, `(loop $l`,
    ...(pointer ? [`  ${setp('(local.get $i)')}`] : []), ...body.map((l) => '  ' + l), `  ${inc('i')}`, `  (br_if $l (i32.lt_s (local.get $i) (i32.const ${to}))))`]
  const code = []
  const emit = (...lines) => code.push(...lines)
  // The stretches a and a + 1 in the lanes; then the first strictly flattest of the two, in order.
  const last = BASE_TO - BASE_LEN // the last stretch's start
  const pairBody = (lanes) => [
    `(local.set $lo ${v(0)})`, '(local.set $hi (local.get $lo))',
    ...[...Array(BASE_LEN - 1).keys()].flatMap((j) => [`(local.set $x ${v(j + 1)})`,
      '(local.set $lo (f64x2.pmin (local.get $lo) (local.get $x)))', '(local.set $hi (f64x2.pmax (local.get $hi) (local.get $x)))']),
    '(local.set $x (f64x2.sub (local.get $hi) (local.get $lo)))',
    ...lanes.flatMap((lane) => [`(local.set $r (f64x2.extract_lane ${lane} (local.get $x)))`,
      '(if (f64.lt (local.get $r) (local.get $best)) (then (local.set $best (local.get $r))', `  (local.set $at (i32.add (local.get $i) (i32.const ${lane})))))`]),
  ]
  const pairs = Math.floor((last - BASE_FROM + 1) / 2)
  emit('(local.set $best (f64.const inf))')
  // Pairs step i by 2: the loop's own increment adds 1 more.
  emit(...loop(BASE_FROM, BASE_FROM + 2 * pairs, [...pairBody([0, 1]), inc('i')]))
  if ((last - BASE_FROM + 1) % 2) emit(`(local.set $i (i32.const ${last}))`, setp('(local.get $i)'), ...pairBody([0]))
  // Its level (a sum from 0 in k order), subtracted from every value, two at a time.
  emit(setp('(local.get $at)'), '(local.set $sum (f64.const 0))')
  for (let k = 0; k < BASE_LEN; k++) emit(`(local.set $sum (f64.add (local.get $sum) ${w(k)}))`)
  emit(`(local.set $level (f64.div (local.get $sum) (f64.const ${BASE_LEN})))`, '(local.set $lv (f64x2.splat (local.get $level)))')
  const even = WINDOW_LEN - (WINDOW_LEN % 8)
  emit(...loop(0, even / 8, [`(local.set $p (i32.add (local.get $wave) (i32.shl (local.get $i) (i32.const 6))))`,
    ...[0, 2, 4, 6].map((k) => `(v128.store offset=${8 * k} (local.get $p) (f64x2.sub ${v(k)} (local.get $lv)))`)], false))
  for (let k = even; k < WINDOW_LEN; k++) emit(`(f64.store offset=${8 * k} (local.get $wave) (f64.sub ${w(k, 'wave')} (local.get $level)))`)
  // measureShape. d(k): the slope at k; rough(acc, k): the roughness term at k, added to $acc.
  const slope2 = (k) => `(local.set $d (f64.sub ${w(k + 1)} ${w(k - 1)}))`
  const rough = (acc, k) => `(local.set $${acc} (f64.add (local.get $${acc}) (f64.abs (f64.add (f64.sub ${w(k + 1)} (f64.mul (f64.const 2) ${w(k)})) ${w(k - 1)}))))`
  const addTotal = (k) => [slope2(k), '(local.set $total (f64.add (local.get $total) (f64.mul (local.get $d) (local.get $d))))']
  const addCum = (k) => [slope2(k), '(local.set $cum (f64.add (local.get $cum) (f64.mul (local.get $d) (local.get $d))))',
    `(local.set $k10 (select (i32.add (local.get $i) (i32.const ${k})) (local.get $k10) (f64.lt (local.get $cum) (local.get $t10))))`,
    `(local.set $k90 (select (i32.add (local.get $i) (i32.const ${k})) (local.get $k90) (f64.lt (local.get $cum) (local.get $t90))))`]
  // Index i runs from 0; the terms sit at constant offsets SPAN_FROM + i, PRE_NOISE[0] + i, ...
  const spanN = SPAN_TO - SPAN_FROM
  const preN = PRE_NOISE[1] - PRE_NOISE[0]
  const postN = POST_NOISE[1] - POST_NOISE[0]
  emit('(local.set $total (f64.const 0))', '(local.set $pre (f64.const 0))', '(local.set $post (f64.const 0))')
  emit(...loop(0, Math.min(spanN, preN), [...addTotal(SPAN_FROM), rough('pre', PRE_NOISE[0])]))
  emit(...loop(Math.min(spanN, preN), spanN, addTotal(SPAN_FROM)), ...loop(Math.min(spanN, preN), preN, [rough('pre', PRE_NOISE[0])]))
  emit('(local.set $t10 (f64.mul (f64.const 0.1) (local.get $total)))', '(local.set $t90 (f64.mul (f64.const 0.9) (local.get $total)))',
    '(local.set $cum (f64.const 0))', `(local.set $k10 (i32.const ${SPAN_FROM}))`, `(local.set $k90 (i32.const ${SPAN_FROM}))`)
  emit(...loop(0, Math.min(spanN, postN), [...addCum(SPAN_FROM), rough('post', POST_NOISE[0])]))
  emit(...loop(Math.min(spanN, postN), spanN, addCum(SPAN_FROM)), ...loop(Math.min(spanN, postN), postN, [rough('post', POST_NOISE[0])]))
  // The extremes from PTP_FROM to PTP_TO (inclusive), the even and the odd ones in the two lanes.
  const ptpN = PTP_TO - PTP_FROM + 1
  emit(`(local.set $lo ${v(PTP_FROM, 'wave')})`, '(local.set $hi (local.get $lo))')
  for (let k = PTP_FROM + 2; k + 1 <= PTP_TO; k += 2) emit(`(local.set $x ${v(k, 'wave')})`, '(local.set $lo (f64x2.pmin (local.get $lo) (local.get $x)))', '(local.set $hi (f64x2.pmax (local.get $hi) (local.get $x)))')
  if (ptpN % 2) emit(`(local.set $x (f64x2.splat ${w(PTP_TO, 'wave')}))`, '(local.set $lo (f64x2.pmin (local.get $lo) (local.get $x)))', '(local.set $hi (f64x2.pmax (local.get $hi) (local.get $x)))')
  emit('(local.set $r (f64.sub (f64.max (f64x2.extract_lane 0 (local.get $hi)) (f64x2.extract_lane 1 (local.get $hi))) (f64.min (f64x2.extract_lane 0 (local.get $lo)) (f64x2.extract_lane 1 (local.get $lo)))))',
    `(local.set $noise (f64.min (f64.div (local.get $pre) (f64.const ${preN})) (f64.div (local.get $post) (f64.const ${postN}))))`,
    '(f64.store offset=0 (local.get $out) (local.get $best))',
    `(f64.store offset=8 (local.get $out) (f64.div (f64.convert_i32_s (i32.mul (i32.sub (local.get $k90) (local.get $k10)) (i32.const 1000))) (f64.const ${GRID_HZ})))`,
    '(f64.store offset=16 (local.get $out) (local.get $r))',
    '(f64.store offset=24 (local.get $out) (select (f64.div (local.get $noise) (local.get $r)) (f64.const inf) (f64.gt (local.get $r) (f64.const 0))))')
  const f64s = ['best', 'r', 'sum', 'level', 'd', 'total', 'pre', 'post', 't10', 't90', 'cum', 'noise']
  return `  (func (export "shape") (param $wave i32) (param $out i32)
    ${f64s.map((n) => `(local $${n} f64)`).join(' ')} ${locals(['lo', 'hi', 'x', 'lv'])} (local $i i32) (local $at i32) (local $p i32) (local $k10 i32) (local $k90 i32)
    ${code.join('\n    ')})`
}

export function kernelsWat() {
  return `(module\n  (import "env" "memory" (memory 1))\n${variancesKernel()}\n${matchKernel()}\n${centreKernels()}\n${windowKernel()}\n${shapeKernel()}\n)\n`
}

export async function kernelsSource() {
  return generatedModule({
    name: 'beat-kernels.wat',
    wat: kernelsWat(),
    exportName: 'BEAT_KERNELS_WASM',
    comment: [
      'Generated by scripts/wasm-beat-kernels.mjs from the WAT text there; do not edit. Loaded by beat-kernels.ts.',
      'For beat-match.ts: variances (the beat\'s per-shift variances) and match (its best correlation with',
      'a centred template), two shifts per f64x2 register (WebAssembly SIMD), centre and blend (a template',
      'centred, or moved towards the beat and centred); and of beat-window-wasm.ts:',
      'window (box smoothing and interpolation onto the grid) and shape (baseline removal and measureShape).',
    ], extra: [`export const BEAT_KERNELS_LAYOUT = ${JSON.stringify({ MATCH_LEN, SHIFTS, WINDOW_LEN, BEAT, BEAT_LEN, VARIANCES, BEST, TEMPLATES, RANGE, SLOT, SHAPE_RESULTS, ...RANGES })}`],
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await writeOrCheck(OUT, await kernelsSource(), 'scripts/wasm-beat-kernels.mjs')
