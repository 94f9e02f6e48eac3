// Writes src/formats/sample-kernels-wasm-bytes.ts: the WebAssembly kernels that turn a recording's
// stored samples into mV (loaded by src/formats/sample-kernels.ts), as WAT text generated below
// and assembled by wabt (a devDependency; the bytes are committed, and
// test/formats/sample-kernels.test.ts checks they are these).
//
// decode16 reads `records` data records from address src, `stride` bytes apart, each holding
// `spr` little-endian int16 samples of the signal from its first byte, and writes
// f32(f64(d) * gain + offset) for each to dst, packed: the operations of decodeEdfSignal
// (edf-decode.ts) in its order (an int16 is exact in f64; f64 multiply, f64 add, rounded to
// f32 once, to nearest even as a Float32Array store does), so the results are bit-identical.
// Four samples per step: 8 bytes widened to i32x4, converted to two f64x2, scaled, narrowed to
// f32 and stored as one v128; the last spr % 4 samples of a record one by one.
//
// physical turns n WFDB digital values (i32 at src) into mV (f32 at dst): f32(((f64(d) -
// baseline) / gain) * toMv), or NaN where d is the format's invalid value, the operations of
// toPhysicalMv (wfdb-signal.ts) in its order (its mV loop leaves out the multiplication by
// toMv = 1, which changes no value). NaN is written as the quiet NaN 0x7fc00000, as a
// Float32Array store of NaN writes it. Four values per step, the rest one by one.
//
//   node scripts/wasm-sample-kernels.mjs [--check]   (--check: exit 1 if the committed file differs)
import { generatedModule, writeOrCheck } from './wasm-assemble.mjs'

const OUT = new URL('../src/formats/sample-kernels-wasm-bytes.ts', import.meta.url)

// f32x4 of lanes 0-1 of a and lanes 0-1 of b (each from f32x4.demote_f64x2_zero).
const LOW_HALVES = '0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23'
// i32x4 lanes 2-3 moved to lanes 0-1 (for the second f64x2.convert_low_i32x4_s).
const HIGH_TO_LOW = '8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15'

const scale = (v) => `(f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (f64x2.convert_low_i32x4_s ${v}) (local.get $g)) (local.get $o)))`

const decode16 = `  (func (export "decode16") (param $src i32) (param $dst i32) (param $records i32) (param $stride i32) (param $spr i32) (param $gain f64) (param $offset f64)
    (local $g v128) (local $o v128) (local $w v128) (local $p i32) (local $end i32) (local $quads i32)
    (local.set $g (f64x2.splat (local.get $gain)))
    (local.set $o (f64x2.splat (local.get $offset)))
    (block $done (loop $record
      (br_if $done (i32.eqz (local.get $records)))
      (local.set $p (local.get $src))
      (local.set $end (i32.add (local.get $src) (i32.shl (local.get $spr) (i32.const 1))))
      (local.set $quads (i32.add (local.get $src) (i32.shl (i32.and (local.get $spr) (i32.const -4)) (i32.const 1))))
      (block $quadsDone (loop $quad
        (br_if $quadsDone (i32.ge_u (local.get $p) (local.get $quads)))
        (local.set $w (i32x4.extend_low_i16x8_s (v128.load64_zero (local.get $p))))
        (v128.store (local.get $dst) (i8x16.shuffle ${LOW_HALVES} ${scale('(local.get $w)')} ${scale(`(i8x16.shuffle ${HIGH_TO_LOW} (local.get $w) (local.get $w))`)}))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (br $quad)))
      (block $tailDone (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $p) (local.get $end)))
        (f32.store (local.get $dst) (f32.demote_f64 (f64.add (f64.mul (f64.convert_i32_s (i32.load16_s (local.get $p))) (local.get $gain)) (local.get $offset))))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
        (br $tail)))
      (local.set $src (i32.add (local.get $src) (local.get $stride)))
      (local.set $records (i32.sub (local.get $records) (i32.const 1)))
      (br $record)))
  )`

const NAN4 = 'v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000'
const mv = (v) => `(f32x4.demote_f64x2_zero (f64x2.mul (f64x2.div (f64x2.sub (f64x2.convert_low_i32x4_s ${v}) (local.get $b)) (local.get $g)) (local.get $m)))`

const physical = `  (func (export "physical") (param $src i32) (param $dst i32) (param $n i32) (param $baseline f64) (param $gain f64) (param $toMv f64) (param $invalid i32)
    (local $b v128) (local $g v128) (local $m v128) (local $bad v128) (local $w v128) (local $d i32) (local $quads i32)
    (local.set $b (f64x2.splat (local.get $baseline)))
    (local.set $g (f64x2.splat (local.get $gain)))
    (local.set $m (f64x2.splat (local.get $toMv)))
    (local.set $bad (i32x4.splat (local.get $invalid)))
    (local.set $quads (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $n (i32.add (local.get $src) (i32.shl (local.get $n) (i32.const 2))))
    (block $quadsDone (loop $quad
      (br_if $quadsDone (i32.ge_u (local.get $src) (local.get $quads)))
      (local.set $w (v128.load (local.get $src)))
      (v128.store (local.get $dst) (v128.bitselect (${NAN4}) (i8x16.shuffle ${LOW_HALVES} ${mv('(local.get $w)')} ${mv(`(i8x16.shuffle ${HIGH_TO_LOW} (local.get $w) (local.get $w))`)}) (i32x4.eq (local.get $w) (local.get $bad))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (br $quad)))
    (block $done (loop $one
      (br_if $done (i32.ge_u (local.get $src) (local.get $n)))
      (local.set $d (i32.load (local.get $src)))
      (if (i32.eq (local.get $d) (local.get $invalid))
        (then (i32.store (local.get $dst) (i32.const 0x7fc00000)))
        (else (f32.store (local.get $dst) (f32.demote_f64 (f64.mul (f64.div (f64.sub (f64.convert_i32_s (local.get $d)) (local.get $baseline)) (local.get $gain)) (local.get $toMv))))))
      (local.set $src (i32.add (local.get $src) (i32.const 4)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
      (br $one)))
  )`

export function sampleKernelsWat() {
  return `(module\n  (import "env" "memory" (memory 1))\n${decode16}\n${physical}\n)\n`
}

export async function sampleKernelsSource() {
  return generatedModule({
    name: 'sample-kernels.wat',
    wat: sampleKernelsWat(),
    exportName: 'SAMPLE_KERNELS_WASM',
    comment: [
      'Generated by scripts/wasm-sample-kernels.mjs from the WAT text there; do not edit. The kernels',
      'of sample-kernels.ts: decode16 turns one signal\'s 16-bit EDF samples into mV and physical',
      'WFDB digital values into mV, four at a time (WebAssembly SIMD), with the same bits as',
      'decodeEdfSignal and toPhysicalMv.',
    ],
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await writeOrCheck(OUT, await sampleKernelsSource(), 'scripts/wasm-sample-kernels.mjs')
