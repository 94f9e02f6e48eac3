// Writes src/render/text-kernels-wasm-bytes.ts: the WebAssembly kernel behind render-text's common case
// (loaded by src/render/format-mv-wasm.ts), as WAT text assembled by wabt (a devDependency; the
// bytes are committed, and test/render/format-mv-wasm.test.ts checks they are these).
//
// run3 does what formatRun3 of src/render/format-mv.ts does, with the same bytes: from the f32 at
// address p up to end, while a value rounds below 10 at 3 decimals, it writes the separator and
// the value ("-q.fff" or "q.fff"), and counts the negative ones. The text of every rounded value
// m (-9999 to 9999) comes from a table the caller fills (format-mv-wasm.ts): 8 bytes at
// TABLES + 8 * (m + 9999), the separator and the value's 6 or 7 bytes, stored as one i64; the
// write position then moves by 6, or 7 for a negative m. So the caller leaves 2 bytes free past
// the text (maxMvBytes leaves far more), and the sign costs no branch (an ECG crosses zero all
// the time, and a branch on it mispredicts).
// Rounding as the JavaScript: v * 1000 is exact in f64 (format-mv.ts), and adding +-0.5 and
// truncating is toFixed's rule on the magnitude; a value that rounds to zero from below gives
// m = 0 and prints without a sign, as formatMvInto prints it. A value of 10 or more once
// rounded, NaN (|s| < 9999.5 is false for it) or an infinity stops the run unwritten.
// Four values a step (WebAssembly SIMD: scaled, checked and rounded as two f64x2), then their
// four table words one by one; values one at a time at the end and around a value that stops.
// A window of record 100 takes 3.0-4.7 ns a value to format this way against 9.1-17.9 with
// formatRun3, heads and token counting included (`npx tsx bench/text-format.ts`, 2.1 GHz Xeon).
// Returns the write end; stores where it stopped (an address) at 0 and the negatives at 4.
//
//   node scripts/wasm-text-kernels.mjs [--check]   (--check: exit 1 if the committed file differs)
import { generatedModule, writeOrCheck } from './wasm-assemble.mjs'

const OUT = new URL('../src/render/text-kernels-wasm-bytes.ts', import.meta.url)

/** Where the table starts: the first 16 bytes hold the results. */
export const TABLES = 16

const run3 = `  (func (export "run3") (param $p i32) (param $end i32) (param $at i32) (result i32)
    (local $s f64) (local $m i32) (local $negs i32) (local $lo v128) (local $hi v128) (local $m4 v128) (local $keys v128) (local $neg v128) (local $negAcc v128)
    (block $done (loop $value
      (if (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)) (then
        (local.set $lo (v128.load (local.get $p)))
        (local.set $hi (f64x2.mul (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $lo) (local.get $lo))) (f64x2.splat (f64.const 1000))))
        (local.set $lo (f64x2.mul (f64x2.promote_low_f32x4 (local.get $lo)) (f64x2.splat (f64.const 1000))))
        (if (i64x2.all_true (v128.and (f64x2.lt (f64x2.abs (local.get $lo)) (f64x2.splat (f64.const 9999.5))) (f64x2.lt (f64x2.abs (local.get $hi)) (f64x2.splat (f64.const 9999.5))))) (then
          (local.set $m4 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (local.get $lo) (v128.or (f64x2.splat (f64.const 0.5)) (v128.and (local.get $lo) (i64x2.splat (i64.const 0x8000000000000000))))))
            (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (local.get $hi) (v128.or (f64x2.splat (f64.const 0.5)) (v128.and (local.get $hi) (i64x2.splat (i64.const 0x8000000000000000))))))))
          (local.set $keys (i32x4.shl (i32x4.add (local.get $m4) (i32x4.splat (i32.const 9999))) (i32.const 3)))
          (local.set $neg (i32x4.lt_s (local.get $m4) (v128.const i32x4 0 0 0 0)))
          (local.set $negAcc (i32x4.sub (local.get $negAcc) (local.get $neg)))
      (i64.store (local.get $at) (i64.load offset=${TABLES} (i32x4.extract_lane 0 (local.get $keys))))
      (local.set $at (i32.sub (i32.add (local.get $at) (i32.const 6)) (i32x4.extract_lane 0 (local.get $neg))))
      (i64.store (local.get $at) (i64.load offset=${TABLES} (i32x4.extract_lane 1 (local.get $keys))))
      (local.set $at (i32.sub (i32.add (local.get $at) (i32.const 6)) (i32x4.extract_lane 1 (local.get $neg))))
      (i64.store (local.get $at) (i64.load offset=${TABLES} (i32x4.extract_lane 2 (local.get $keys))))
      (local.set $at (i32.sub (i32.add (local.get $at) (i32.const 6)) (i32x4.extract_lane 2 (local.get $neg))))
      (i64.store (local.get $at) (i64.load offset=${TABLES} (i32x4.extract_lane 3 (local.get $keys))))
      (local.set $at (i32.sub (i32.add (local.get $at) (i32.const 6)) (i32x4.extract_lane 3 (local.get $neg))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $value)))))
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $s (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.const 1000)))
      (br_if $done (i32.eqz (f64.lt (f64.abs (local.get $s)) (f64.const 9999.5))))
      (local.set $m (i32.trunc_f64_s (f64.add (local.get $s) (f64.copysign (f64.const 0.5) (local.get $s)))))
      (i64.store (local.get $at) (i64.load offset=${TABLES} (i32.shl (i32.add (local.get $m) (i32.const 9999)) (i32.const 3))))
      (local.set $at (i32.add (local.get $at) (i32.add (i32.const 6) (i32.lt_s (local.get $m) (i32.const 0)))))
      (local.set $negs (i32.add (local.get $negs) (i32.lt_s (local.get $m) (i32.const 0))))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br $value)))
    (i32.store (i32.const 0) (local.get $p))
    (i32.store (i32.const 4) (i32.add (local.get $negs) (i32.add (i32.add (i32x4.extract_lane 0 (local.get $negAcc)) (i32x4.extract_lane 1 (local.get $negAcc))) (i32.add (i32x4.extract_lane 2 (local.get $negAcc)) (i32x4.extract_lane 3 (local.get $negAcc))))))
    (local.get $at)
  )`

export function textKernelsWat() {
  return `(module\n  (import "env" "memory" (memory 1))\n${run3}\n)\n`
}

export async function textKernelsSource() {
  return generatedModule({
    name: 'text-kernels.wat',
    wat: textKernelsWat(),
    exportName: 'TEXT_KERNELS_WASM',
    comment: [
      'Generated by scripts/wasm-text-kernels.mjs from the WAT text there; do not edit. The kernel of',
      'format-mv-wasm.ts: run3 writes values below 10 mV at 3 decimals with their separators from a',
      'table, four at a time (WebAssembly SIMD), with the same bytes as formatRun3.',
    ],
    extra: [`/** Address of the table of the values' text in the kernel's memory (8 bytes for each m from -9999 to 9999). */`, `export const TEXT_TABLES = ${TABLES}`],
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await writeOrCheck(OUT, await textKernelsSource(), 'scripts/wasm-text-kernels.mjs')
