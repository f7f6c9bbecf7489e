//! wasm's f32x4 twins of `elementwise`'s GELU loops: the same exp and Φ, step by step and
//! with the same constants, four lanes at a time. LLVM leaves those loops scalar on wasm32
//! (about 9 ns an element for a `small` step's GELU); here each lane is a few f32x4 ops.
//! In the FMA build the multiply-adds are relaxed (`simd128::madd`): one rounding fewer,
//! never more. Each function does the whole groups of four and hands back the tails
//! (< 4 elements) for the scalar loop.

use super::elementwise::{ERFC_POLY, EXP_POLY, INV_SQRT_2PI, LN2_HI, LN2_LO, LOG2E, ROUND};
use super::simd128::madd;
use core::arch::wasm32::*;

#[inline(always)]
fn splat(x: f32) -> v128 {
    f32x4_splat(x)
}

#[inline(always)]
fn load(s: &[f32]) -> v128 {
    let s: &[f32; 4] = s[..4].try_into().unwrap();
    // SAFETY: `s` is 4 readable f32s (16 bytes); v128_load needs no alignment.
    unsafe { v128_load(s.as_ptr() as *const v128) }
}

#[inline(always)]
fn store(s: &mut [f32], v: v128) {
    let s: &mut [f32; 4] = (&mut s[..4]).try_into().unwrap();
    // SAFETY: `s` is 4 writable f32s borrowed exclusively; no alignment needed.
    unsafe { v128_store(s.as_mut_ptr() as *mut v128, v) }
}

/// `elementwise::exp` on four lanes: x = n·ln2 + r, Cephes' polynomial in r, 2ⁿ from the
/// exponent bits; 0 below −87.
#[inline(always)]
fn exp4(x: v128) -> v128 {
    // pmin/pmax: one minps/maxps each (min/max spend several on NaN rules); NaN stays NaN
    let xc = f32x4_pmax(f32x4_pmin(x, splat(88.0)), splat(-87.0));
    let shifted = madd(xc, splat(LOG2E), splat(ROUND)); // 1.5·2²³ + n
    let n = f32x4_sub(shifted, splat(ROUND));
    let r = madd(n, splat(-LN2_HI), xc);
    let r = madd(n, splat(-LN2_LO), r);
    let mut y = splat(EXP_POLY[0]);
    for &p in &EXP_POLY[1..] {
        y = madd(y, r, splat(p));
    }
    y = f32x4_add(madd(y, f32x4_mul(r, r), r), splat(1.0));
    let n_int = i32x4_sub(shifted, splat(ROUND)); // integer lanes: the bits' difference is n
    let two_n = i32x4_shl(i32x4_add(n_int, i32x4_splat(127)), 23);
    let e = f32x4_mul(y, two_n);
    v128_andnot(e, f32x4_lt(x, splat(-87.0)))
}

/// `elementwise::normal_cdf` on four lanes: ½·erfc(|x|/√2) by Numerical Recipes' erfc,
/// then 1 − that for x ≥ 0.
#[inline(always)]
fn normal_cdf4(x: v128) -> v128 {
    let z = f32x4_mul(f32x4_abs(x), splat(std::f32::consts::FRAC_1_SQRT_2));
    let t = f32x4_div(splat(1.0), madd(splat(0.5), z, splat(1.0)));
    let mut q = splat(ERFC_POLY[0]);
    for &p in &ERFC_POLY[1..] {
        q = madd(q, t, splat(p));
    }
    let e = exp4(f32x4_sub(q, f32x4_mul(z, z)));
    let half_erfc = f32x4_mul(f32x4_mul(splat(0.5), t), e); // Φ(−|x|)
    let upper = f32x4_sub(splat(1.0), half_erfc);
    v128_bitselect(upper, half_erfc, f32x4_ge(x, splat(0.0)))
}

/// `elementwise::normal_pdf` on four lanes: e^(−x²/2) / √(2π).
#[inline(always)]
fn normal_pdf4(x: v128) -> v128 {
    let e = exp4(f32x4_mul(f32x4_mul(splat(-0.5), x), x));
    f32x4_mul(splat(INV_SQRT_2PI), e)
}

/// out = x·Φ(x) for the whole groups of four; returns the tails of (out, inp).
#[inline(always)]
pub(super) fn gelu<'a, 'b>(out: &'a mut [f32], inp: &'b [f32]) -> (&'a mut [f32], &'b [f32]) {
    let n = out.len().min(inp.len()) / 4 * 4;
    let (out, out_tail) = out.split_at_mut(n);
    let (inp, inp_tail) = inp.split_at(n);
    for (o, x) in out.chunks_exact_mut(4).zip(inp.chunks_exact(4)) {
        let x = load(x);
        store(o, f32x4_mul(x, normal_cdf4(x)));
    }
    (out_tail, inp_tail)
}

/// dinp += (Φ(x) + x·φ(x))·dout for the whole groups of four; returns the tails.
#[inline(always)]
pub(super) fn gelu_grad<'a, 'b>(
    dinp: &'a mut [f32],
    inp: &'b [f32],
    dout: &'b [f32],
) -> (&'a mut [f32], &'b [f32], &'b [f32]) {
    let n = dinp.len().min(inp.len()).min(dout.len()) / 4 * 4;
    let (dinp, dinp_tail) = dinp.split_at_mut(n);
    let ((inp, inp_tail), (dout, dout_tail)) = (inp.split_at(n), dout.split_at(n));
    let groups = dinp.chunks_exact_mut(4).zip(inp.chunks_exact(4));
    for ((d, x), g) in groups.zip(dout.chunks_exact(4)) {
        let x = load(x);
        let slope = madd(x, normal_pdf4(x), normal_cdf4(x));
        store(d, madd(slope, load(g), load(d)));
    }
    (dinp_tail, inp_tail, dout_tail)
}
