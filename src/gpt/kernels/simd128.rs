//! wasm's simd128 tiles, written out in `core::arch::wasm32` f32x4 ops: R rows × 8 columns
//! in 2·R v128 accumulators. `TA` as in `matmul::gemm`.
//!
//! simd128 has no FMA: each step is a multiply then an add, rounded exactly as the portable
//! body's `a * b + c`. The FMA build (`+relaxed-simd`, www/pkg-fma/) uses
//! `f32x4_relaxed_madd` instead, which the engine may run fused (one rounding) or not (two):
//! either way each product-sum is within one extra rounding of the simd128 one, so a sum of
//! k terms stays within the ~k·ulp that the tests allow for a different summation order.

use super::Strided;
use core::arch::wasm32::*;

/// a·b + c on four lanes: relaxed (fused where the CPU has FMA) in the FMA build, a
/// multiply then an add otherwise. Only the GPT's f32 kernels call it; the lesson's f64
/// numbers never see a relaxed op.
#[inline(always)]
pub(super) fn madd(a: v128, b: v128, c: v128) -> v128 {
    #[cfg(target_feature = "relaxed-simd")]
    {
        f32x4_relaxed_madd(a, b, c)
    }
    #[cfg(not(target_feature = "relaxed-simd"))]
    {
        f32x4_add(f32x4_mul(a, b), c)
    }
}

/// The 8 floats at s[..8] as two f32x4.
#[inline(always)]
fn load8(s: &[f32]) -> [v128; 2] {
    let s: &[f32; 8] = s[..8].try_into().unwrap();
    let p = s.as_ptr() as *const v128;
    // SAFETY: `s` is 8 readable f32s (32 bytes); v128_load needs no alignment.
    unsafe { [v128_load(p), v128_load(p.add(1))] }
}

/// c[..8] += acc.
#[inline(always)]
fn add8(c: &mut [f32], acc: [v128; 2]) {
    let c: &mut [f32; 8] = (&mut c[..8]).try_into().unwrap();
    let [c0, c1] = load8(c);
    let p = c.as_mut_ptr() as *mut v128;
    // SAFETY: `c` is 8 writable f32s (32 bytes) borrowed exclusively; no alignment needed.
    unsafe {
        v128_store(p, f32x4_add(c0, acc[0]));
        v128_store(p.add(1), f32x4_add(c1, acc[1]));
    }
}

/// C[i0..i0+R][j0..j0+8] += op(A)[i0..i0+R][..k] @ B[..k][j0..j0+8].
#[inline(always)]
pub(super) fn tile<const R: usize, const TA: bool>(
    c: &mut [f32],
    ldc: usize,
    a: Strided,
    b: Strided,
    i0: usize,
    j0: usize,
    k: usize,
) {
    let mut acc = [[f32x4_splat(0.0); 2]; R];
    let rows: [&[f32]; R] = std::array::from_fn(|r| {
        if TA {
            &[][..]
        } else {
            &a.data[(i0 + r) * a.ld..][..k]
        }
    });
    for p in 0..k {
        let [b0, b1] = load8(&b.data[p * b.ld + j0..]);
        let at: &[f32] = if TA {
            &a.data[p * a.ld + i0..][..R]
        } else {
            &[]
        };
        for (r, (acc, row)) in acc.iter_mut().zip(&rows).enumerate() {
            let av = f32x4_splat(if TA { at[r] } else { row[p] });
            acc[0] = madd(av, b0, acc[0]);
            acc[1] = madd(av, b1, acc[1]);
        }
    }
    for (r, &acc) in acc.iter().enumerate() {
        add8(&mut c[(i0 + r) * ldc + j0..], acc);
    }
}

/// C[i0..i0+R][j0..j0+S] += A[i0..i0+R] · B[j0..j0+S], rows of length k (`matmul_nt`): each
/// pair's sum in four lanes, folded at the end; k's last k % 4 terms one by one.
#[inline(always)]
pub(super) fn nt_tile<const R: usize, const S: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    i0: usize,
    j0: usize,
    k: usize,
    m: usize,
) {
    let rows: [&[f32]; R] = std::array::from_fn(|r| &a[(i0 + r) * k..][..k]);
    let cols: [&[f32]; S] = std::array::from_fn(|s| &b[(j0 + s) * k..][..k]);
    let load4 = |s: &[f32], p: usize| {
        let s: &[f32; 4] = s[p..p + 4].try_into().unwrap();
        // SAFETY: `s` is 4 readable f32s (16 bytes); v128_load needs no alignment.
        unsafe { v128_load(s.as_ptr() as *const v128) }
    };
    let mut acc = [[f32x4_splat(0.0); S]; R];
    let k4 = k / 4 * 4;
    for p in (0..k4).step_by(4) {
        let bv: [v128; S] = std::array::from_fn(|s| load4(cols[s], p));
        for r in 0..R {
            let av = load4(rows[r], p);
            for s in 0..S {
                acc[r][s] = madd(av, bv[s], acc[r][s]);
            }
        }
    }
    for r in 0..R {
        for s in 0..S {
            let v = acc[r][s];
            let mut sum = (f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<2>(v))
                + (f32x4_extract_lane::<1>(v) + f32x4_extract_lane::<3>(v));
            for p in k4..k {
                sum += rows[r][p] * cols[s][p];
            }
            c[(i0 + r) * m + j0 + s] += sum;
        }
    }
}
