//! The hot loops, fast: matmuls with register tiles, exp and GELU without libm calls.
//!
//! Naive first, clever second, tested equal: `matmul_nn_naive` / `matmul_tn_naive` are the
//! reference loops, `tests/gpt_kernels.rs` holds the tiled ones equal to them.
//! Each kernel is one `#[inline(always)]` Rust body. On x86_64 the same body is also compiled
//! with AVX2+FMA and with AVX-512 and picked at run time (the crate builds for baseline
//! x86-64, SSE2 only); on wasm32 it compiles to simd128 (`.cargo/config.toml`).

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// Which instantiation the x86_64 dispatch picks: 0 = not yet known, 1 = portable,
/// 2 = AVX2+FMA, 3 = AVX-512F+FMA.
#[cfg(target_arch = "x86_64")]
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The widest instruction set in use: "avx512", "avx2+fma" or "portable".
pub fn simd_level() -> &'static str {
    match level() {
        3 => "avx512",
        2 => "avx2+fma",
        _ => "portable",
    }
}

/// The instruction sets this CPU can run, widest first ("portable" always last).
pub fn available_levels() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let names = [(3, "avx512"), (2, "avx2+fma")];
        let best = detect();
        let mut v: Vec<_> = names.iter().filter(|l| l.0 <= best).map(|l| l.1).collect();
        v.push("portable");
        v
    }
    #[cfg(not(target_arch = "x86_64"))]
    vec!["portable"]
}

/// Uses the instruction set `name` (one of `available_levels()`); false (and no change)
/// for any other name. For tests: an AVX-512 machine can still check the AVX2 body.
pub fn force_level(name: &str) -> bool {
    if !available_levels().contains(&name) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    LEVEL.store(
        match name {
            "avx512" => 3,
            "avx2+fma" => 2,
            _ => 1,
        },
        Ordering::Relaxed,
    );
    true
}

/// Forces the portable body (true) or the best one detected (false): for tests and for
/// benchmarking what a wasm build without FMA will do.
pub fn force_portable(on: bool) {
    #[cfg(target_arch = "x86_64")]
    LEVEL.store(if on { 1 } else { detect() }, Ordering::Relaxed);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = on;
}

#[cfg(target_arch = "x86_64")]
fn detect() -> u8 {
    if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("fma") {
        3
    } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        2
    } else {
        1
    }
}

#[inline]
pub(crate) fn level() -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        let l = LEVEL.load(Ordering::Relaxed);
        if l != 0 {
            return l;
        }
        let l = detect();
        LEVEL.store(l, Ordering::Relaxed);
        l
    }
    #[cfg(not(target_arch = "x86_64"))]
    1
}

/// Runs `$body::<FMA, R, W>(args)` compiled for the detected instruction set. The
/// wrappers are plain fns (not closures) so the body inlines into code built with the
/// features; otherwise `mul_add` would become a call to libm's fmaf.
macro_rules! dispatch {
    ($body:ident, ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,avx2,fma")]
            unsafe fn avx512($($arg: $ty),*) $(-> $ret)? {
                $body::<true, 8, 32>($($arg),*)
            }
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2($($arg: $ty),*) $(-> $ret)? {
                $body::<true, 4, 16>($($arg),*)
            }
            match $crate::gpt::kernels::level() {
                // SAFETY: `level()` saw these features on this CPU.
                3 => return unsafe { avx512($($arg),*) },
                2 => return unsafe { avx2($($arg),*) },
                _ => {}
            }
        }
        $body::<false, 4, 8>($($arg),*)
    }};
}

pub(crate) use dispatch;

/// a·b + c, fused when the instantiation has FMA (wasm's simd128 and SSE2 do not).
#[inline(always)]
pub(crate) fn fmadd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// C (n×m) += A (n×k) @ B (k×m), all row-major. Panics unless the lengths fit.
pub fn matmul_nn(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    assert!(
        c.len() >= n * m && a.len() >= n * k && b.len() >= k * m,
        "matmul_nn shapes"
    );
    dispatch!(nn_body, (c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize))
}

/// C (m×p) += Aᵀ @ B with A (n×m), B (n×p), all row-major. Panics unless the lengths fit.
pub fn matmul_tn(c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize) {
    assert!(
        c.len() >= m * p && a.len() >= n * m && b.len() >= n * p,
        "matmul_tn shapes"
    );
    dispatch!(tn_body, (c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize))
}

/// C (n×m) += A (n×k) @ B (k×m), the plain triple loop.
pub fn matmul_nn_naive(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    for i in 0..n {
        for p in 0..k {
            for j in 0..m {
                c[i * m + j] += a[i * k + p] * b[p * m + j];
            }
        }
    }
}

/// C (m×p) += Aᵀ @ B with A (n×m), B (n×p), the plain triple loop.
pub fn matmul_tn_naive(c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize) {
    for t in 0..n {
        for i in 0..m {
            for j in 0..p {
                c[i * p + j] += a[t * m + i] * b[t * p + j];
            }
        }
    }
}

/// A row-major matrix view inside a larger buffer: element (i, j) at `data[i * ld + j]`.
/// Lets attention multiply one head's columns of qkv in place.
#[derive(Clone, Copy)]
pub struct Strided<'a> {
    pub data: &'a [f32],
    pub ld: usize,
}

/// The mutable `Strided`.
pub struct StridedMut<'a> {
    pub data: &'a mut [f32],
    pub ld: usize,
}

/// Floats a rows×cols view with row stride ld needs.
fn span(rows: usize, cols: usize, ld: usize) -> usize {
    if rows == 0 || cols == 0 {
        0
    } else {
        (rows - 1) * ld + cols
    }
}

/// `matmul_nn` on strided views: C (n×m) += A (n×k) @ B (k×m). Panics unless they fit.
pub fn matmul_nn_strided(c: StridedMut, a: Strided, b: Strided, n: usize, k: usize, m: usize) {
    dispatch!(nn_strided, (c: StridedMut, a: Strided, b: Strided, n: usize, k: usize, m: usize))
}

/// `matmul_tn` on strided views: C (m×p) += Aᵀ @ B, A (n×m), B (n×p). Panics unless they fit.
pub fn matmul_tn_strided(c: StridedMut, a: Strided, b: Strided, n: usize, m: usize, p: usize) {
    dispatch!(tn_strided, (c: StridedMut, a: Strided, b: Strided, n: usize, m: usize, p: usize))
}

#[inline(always)]
fn nn_body<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    n: usize,
    k: usize,
    m: usize,
) {
    let c = StridedMut { data: c, ld: m };
    let (a, b) = (Strided { data: a, ld: k }, Strided { data: b, ld: m });
    nn_strided::<FMA, R, W>(c, a, b, n, k, m);
}

#[inline(always)]
fn tn_body<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    n: usize,
    m: usize,
    p: usize,
) {
    let c = StridedMut { data: c, ld: p };
    let (a, b) = (Strided { data: a, ld: m }, Strided { data: b, ld: p });
    tn_strided::<FMA, R, W>(c, a, b, n, m, p);
}

// Tiles: R rows × W columns of C live in registers while the shared dimension streams by
// (8×32 for AVX-512: 16 of its 32 zmm registers; 4×16 for AVX2: 8 of 16 ymm; 4×8 for the
// portable body and wasm's simd128, whose engines have 16 xmm registers and spill beyond).
// Column strips are the outer loop so one (k × W) strip of B stays in L1 across row tiles.
// Columns left over after the W-wide strips go in 16-, then 8-wide strips, then one by one.

/// C (n×m) += A (n×k) @ B (k×m) on strided views, compiled for one instruction set.
#[inline(always)]
pub(crate) fn nn_strided<const FMA: bool, const R: usize, const W: usize>(
    c: StridedMut,
    a: Strided,
    b: Strided,
    n: usize,
    k: usize,
    m: usize,
) {
    assert!(
        c.data.len() >= span(n, m, c.ld)
            && a.data.len() >= span(n, k, a.ld)
            && b.data.len() >= span(k, m, b.ld),
        "matmul_nn shapes"
    );
    if n == 0 || m == 0 || k == 0 {
        return;
    }
    let (cd, ldc) = (c.data, c.ld);
    let mut j0 = 0;
    while j0 + W <= m {
        nn_strip::<FMA, R, W>(cd, ldc, a, b, j0, n, k);
        j0 += W;
    }
    if W > 16 && j0 + 16 <= m {
        nn_strip::<FMA, R, 16>(cd, ldc, a, b, j0, n, k);
        j0 += 16;
    }
    if W > 8 && j0 + 8 <= m {
        nn_strip::<FMA, R, 8>(cd, ldc, a, b, j0, n, k);
        j0 += 8;
    }
    if j0 < m {
        for i in 0..n {
            let a_row = &a.data[i * a.ld..][..k];
            let c_row = &mut cd[i * ldc + j0..i * ldc + m];
            for (p, &av) in a_row.iter().enumerate() {
                let b_row = &b.data[p * b.ld + j0..p * b.ld + m];
                for (cv, &bv) in c_row.iter_mut().zip(b_row) {
                    *cv = fmadd::<FMA>(av, bv, *cv);
                }
            }
        }
    }
}

/// Columns j0..j0+W of C: R-row tiles, then single rows.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn nn_strip<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    ldc: usize,
    a: Strided,
    b: Strided,
    j0: usize,
    n: usize,
    k: usize,
) {
    let n_full = n / R * R;
    for i0 in (0..n_full).step_by(R) {
        nn_tile::<FMA, R, W>(c, ldc, a, b, i0, j0, k);
    }
    for i0 in n_full..n {
        nn_tile::<FMA, 1, W>(c, ldc, a, b, i0, j0, k);
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn nn_tile<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    ldc: usize,
    a: Strided,
    b: Strided,
    i0: usize,
    j0: usize,
    k: usize,
) {
    #[cfg(target_arch = "wasm32")]
    if W == 8 {
        return simd128::nn_tile::<R>(c, ldc, a, b, i0, j0, k);
    }
    match R {
        8 => nn_tile8::<FMA, W>(c, ldc, a, b, i0, j0, k),
        4 => nn_tile4::<FMA, W>(c, ldc, a, b, i0, j0, k),
        _ => {
            for i in i0..i0 + R {
                nn_tile1::<FMA, W>(c, ldc, a, b, i, j0, k)
            }
        }
    }
}

// The rows of a tile are written out by a macro, one named accumulator each: a
// `for r in 0..R` loop over an array of accumulators stays a loop in LLVM (it vectorises
// the inner loop before unrolling) and sends the accumulators to the stack.
macro_rules! nn_tile_rows {
    ($name:ident, $(($r:literal, $row:ident, $acc:ident)),+) => {
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn $name<const FMA: bool, const W: usize>(
            c: &mut [f32],
            ldc: usize,
            a: Strided,
            b: Strided,
            i0: usize,
            j0: usize,
            k: usize,
        ) {
            $(
                let $row = &a.data[(i0 + $r) * a.ld..][..k];
                let mut $acc = [0.0f32; W];
            )+
            for p in 0..k {
                let bv: &[f32; W] = b.data[p * b.ld + j0..][..W].try_into().unwrap();
                $(
                    let av = $row[p];
                    for j in 0..W {
                        $acc[j] = fmadd::<FMA>(av, bv[j], $acc[j]);
                    }
                )+
            }
            $(add_row(c, i0 + $r, ldc, j0, &$acc);)+
        }
    };
}

macro_rules! tn_tile_rows {
    ($name:ident, $(($r:literal, $acc:ident)),+) => {
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn $name<const FMA: bool, const W: usize>(
            c: &mut [f32],
            ldc: usize,
            a: Strided,
            b: Strided,
            i0: usize,
            j0: usize,
            n: usize,
        ) {
            $(let mut $acc = [0.0f32; W];)+
            const R: usize = [$($r),+].len();
            for t in 0..n {
                let av: &[f32; R] = a.data[t * a.ld + i0..][..R].try_into().unwrap();
                let bv: &[f32; W] = b.data[t * b.ld + j0..][..W].try_into().unwrap();
                $(
                    for j in 0..W {
                        $acc[j] = fmadd::<FMA>(av[$r], bv[j], $acc[j]);
                    }
                )+
            }
            $(add_row(c, i0 + $r, ldc, j0, &$acc);)+
        }
    };
}

nn_tile_rows!(nn_tile1, (0, r0, c0));
nn_tile_rows!(nn_tile4, (0, r0, c0), (1, r1, c1), (2, r2, c2), (3, r3, c3));
nn_tile_rows!(
    nn_tile8,
    (0, r0, c0),
    (1, r1, c1),
    (2, r2, c2),
    (3, r3, c3),
    (4, r4, c4),
    (5, r5, c5),
    (6, r6, c6),
    (7, r7, c7)
);
tn_tile_rows!(tn_tile1, (0, c0));
tn_tile_rows!(tn_tile4, (0, c0), (1, c1), (2, c2), (3, c3));
tn_tile_rows!(
    tn_tile8,
    (0, c0),
    (1, c1),
    (2, c2),
    (3, c3),
    (4, c4),
    (5, c5),
    (6, c6),
    (7, c7)
);

/// c[row][j0..j0+W] += acc.
#[inline(always)]
fn add_row<const W: usize>(c: &mut [f32], row: usize, stride: usize, j0: usize, acc: &[f32; W]) {
    let c_row: &mut [f32; W] = (&mut c[row * stride + j0..][..W]).try_into().unwrap();
    for j in 0..W {
        c_row[j] += acc[j];
    }
}

/// C (m×p) += Aᵀ @ B, A (n×m), B (n×p) on strided views, compiled for one instruction set.
#[inline(always)]
pub(crate) fn tn_strided<const FMA: bool, const R: usize, const W: usize>(
    c: StridedMut,
    a: Strided,
    b: Strided,
    n: usize,
    m: usize,
    p: usize,
) {
    assert!(
        c.data.len() >= span(m, p, c.ld)
            && a.data.len() >= span(n, m, a.ld)
            && b.data.len() >= span(n, p, b.ld),
        "matmul_tn shapes"
    );
    if n == 0 || m == 0 || p == 0 {
        return;
    }
    let (cd, ldc) = (c.data, c.ld);
    let mut j0 = 0;
    while j0 + W <= p {
        tn_strip::<FMA, R, W>(cd, ldc, a, b, j0, n, m);
        j0 += W;
    }
    if W > 16 && j0 + 16 <= p {
        tn_strip::<FMA, R, 16>(cd, ldc, a, b, j0, n, m);
        j0 += 16;
    }
    if W > 8 && j0 + 8 <= p {
        tn_strip::<FMA, R, 8>(cd, ldc, a, b, j0, n, m);
        j0 += 8;
    }
    if j0 < p {
        for t in 0..n {
            let (a_row, b_row) = (
                &a.data[t * a.ld..][..m],
                &b.data[t * b.ld + j0..t * b.ld + p],
            );
            for (i, &av) in a_row.iter().enumerate() {
                let c_row = &mut cd[i * ldc + j0..i * ldc + p];
                for (cv, &bv) in c_row.iter_mut().zip(b_row) {
                    *cv = fmadd::<FMA>(av, bv, *cv);
                }
            }
        }
    }
}

/// Columns j0..j0+W of C: R-row tiles, then single rows.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn tn_strip<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    ldc: usize,
    a: Strided,
    b: Strided,
    j0: usize,
    n: usize,
    m: usize,
) {
    let m_full = m / R * R;
    for i0 in (0..m_full).step_by(R) {
        tn_tile::<FMA, R, W>(c, ldc, a, b, i0, j0, n);
    }
    for i0 in m_full..m {
        tn_tile::<FMA, 1, W>(c, ldc, a, b, i0, j0, n);
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn tn_tile<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    ldc: usize,
    a: Strided,
    b: Strided,
    i0: usize,
    j0: usize,
    n: usize,
) {
    #[cfg(target_arch = "wasm32")]
    if W == 8 {
        return simd128::tn_tile::<R>(c, ldc, a, b, i0, j0, n);
    }
    match R {
        8 => tn_tile8::<FMA, W>(c, ldc, a, b, i0, j0, n),
        4 => tn_tile4::<FMA, W>(c, ldc, a, b, i0, j0, n),
        _ => {
            for i in i0..i0 + R {
                tn_tile1::<FMA, W>(c, ldc, a, b, i, j0, n)
            }
        }
    }
}

/// wasm's simd128 tiles, written out in `core::arch::wasm32` f32x4 ops: R rows × 8 columns
/// in 2·R v128 accumulators. simd128 has no FMA, so each step is a multiply then an add,
/// rounded exactly as the portable body's `a * b + c`.
#[cfg(target_arch = "wasm32")]
mod simd128 {
    use super::Strided;
    use core::arch::wasm32::*;

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

    /// C[i0..i0+R][j0..j0+8] += A[i0..i0+R][..k] @ B[..k][j0..j0+8].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn nn_tile<const R: usize>(
        c: &mut [f32],
        ldc: usize,
        a: Strided,
        b: Strided,
        i0: usize,
        j0: usize,
        k: usize,
    ) {
        let mut acc = [[f32x4_splat(0.0); 2]; R];
        let rows: [&[f32]; R] = std::array::from_fn(|r| &a.data[(i0 + r) * a.ld..][..k]);
        for p in 0..k {
            let [b0, b1] = load8(&b.data[p * b.ld + j0..]);
            for (acc, row) in acc.iter_mut().zip(&rows) {
                let av = f32x4_splat(row[p]);
                acc[0] = f32x4_add(acc[0], f32x4_mul(av, b0));
                acc[1] = f32x4_add(acc[1], f32x4_mul(av, b1));
            }
        }
        for (r, &acc) in acc.iter().enumerate() {
            add8(&mut c[(i0 + r) * ldc + j0..], acc);
        }
    }

    /// C[i0..i0+R][j0..j0+8] += A[..n][i0..i0+R]ᵀ @ B[..n][j0..j0+8].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tn_tile<const R: usize>(
        c: &mut [f32],
        ldc: usize,
        a: Strided,
        b: Strided,
        i0: usize,
        j0: usize,
        n: usize,
    ) {
        let mut acc = [[f32x4_splat(0.0); 2]; R];
        for t in 0..n {
            let av: &[f32; R] = a.data[t * a.ld + i0..][..R].try_into().unwrap();
            let [b0, b1] = load8(&b.data[t * b.ld + j0..]);
            for (acc, &ar) in acc.iter_mut().zip(av) {
                let ar = f32x4_splat(ar);
                acc[0] = f32x4_add(acc[0], f32x4_mul(ar, b0));
                acc[1] = f32x4_add(acc[1], f32x4_mul(ar, b1));
            }
        }
        for (r, &acc) in acc.iter().enumerate() {
            add8(&mut c[(i0 + r) * ldc + j0..], acc);
        }
    }
}

/// Σ a·b with 8 independent lanes (then a tail), so the loop vectorises; a plain
/// `.sum()` is a serial chain in IEEE order and does not.
#[inline(always)]
pub fn dot<const FMA: bool>(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    for (ac, bc) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for j in 0..8 {
            acc[j] = fmadd::<FMA>(ac[j], bc[j], acc[j]);
        }
    }
    let tail = n / 8 * 8;
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in a[tail..].iter().zip(&b[tail..]) {
        sum = fmadd::<FMA>(x, y, sum);
    }
    sum
}

/// Σ x with 8 independent lanes (then a tail).
#[inline(always)]
pub fn sum(x: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    for c in x.chunks_exact(8) {
        for j in 0..8 {
            acc[j] += c[j];
        }
    }
    let tail = x.len() / 8 * 8;
    let s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    x[tail..].iter().fold(s, |s, &v| s + v)
}

/// max x (−∞ for an empty slice) with 8 independent lanes.
#[inline(always)]
pub fn max(x: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; 8];
    for c in x.chunks_exact(8) {
        for j in 0..8 {
            acc[j] = if c[j] > acc[j] { c[j] } else { acc[j] };
        }
    }
    let tail = x.len() / 8 * 8;
    let m = acc.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    x[tail..].iter().fold(m, |m, &v| m.max(v))
}

/// out = e^(x − shift) element-wise; returns Σ out. Two loops: the exp loop has no
/// running sum in it, so it vectorises.
#[inline(always)]
pub fn exp_shifted(out: &mut [f32], x: &[f32], shift: f32) -> f32 {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = exp(v - shift);
    }
    sum(&out[..x.len().min(out.len())])
}

/// y += alpha·x, in chunks of 8 (then a tail).
#[inline(always)]
pub fn axpy<const FMA: bool>(y: &mut [f32], alpha: f32, x: &[f32]) {
    let n = y.len().min(x.len());
    let (y, x) = (&mut y[..n], &x[..n]);
    let tail = n / 8 * 8;
    for (yc, xc) in y.chunks_exact_mut(8).zip(x.chunks_exact(8)) {
        for j in 0..8 {
            yc[j] = fmadd::<FMA>(alpha, xc[j], yc[j]);
        }
    }
    for (yv, &xv) in y[tail..].iter_mut().zip(&x[tail..]) {
        *yv = fmadd::<FMA>(alpha, xv, *yv);
    }
}

/// out (cols×rows) = inp (rows×cols)ᵀ.
pub fn transpose(out: &mut [f32], inp: &[f32], rows: usize, cols: usize) {
    let (out, inp) = (&mut out[..rows * cols], &inp[..rows * cols]);
    for (r, row) in inp.chunks_exact(cols).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            out[c * rows + r] = x;
        }
    }
}

/// eˣ for x ≤ 88 within about 2 ulp, 0 below −87 (Cephes expf: x = n·ln2 + r, a degree-6
/// polynomial in r, then 2ⁿ from the exponent bits). No branches and no libm call, so loops
/// over it vectorise; libm's expf does neither.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4; // 355/512: n·LN2_HI is exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    const ROUND: f32 = 12_582_912.0; // 1.5·2²³: adding it rounds to an integer
    let xc = x.clamp(-87.0, 88.0);
    let n = (xc * LOG2E + ROUND) - ROUND;
    let r = (xc - n * LN2_HI) - n * LN2_LO;
    let mut y = 1.987_569_1e-4f32;
    y = y * r + 1.398_199_9e-3;
    y = y * r + 8.333_452e-3;
    y = y * r + 4.166_579_6e-2;
    y = y * r + 1.666_666_5e-1;
    y = y * r + 0.5;
    y = y * (r * r) + r + 1.0;
    // z's low mantissa bits hold n (z = 1.5·2²³ + n): integer ops only, so it vectorises
    let n_int = (xc * LOG2E + ROUND).to_bits().wrapping_sub(ROUND.to_bits());
    let two_n = f32::from_bits(n_int.wrapping_add(127) << 23);
    if x < -87.0 {
        0.0
    } else {
        y * two_n
    }
}

/// Φ(x) = ½·erfc(−x/√2), the standard normal CDF, within about 2e-7 relative
/// (Numerical Recipes' erfc: fractional error < 1.2e-7, evaluated in f32).
#[inline(always)]
pub fn normal_cdf(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let mut q = 0.170_872_77f32;
    q = q * t - 0.822_152_23;
    q = q * t + 1.488_515_9;
    q = q * t - 1.135_204;
    q = q * t + 0.278_868_07;
    q = q * t - 0.186_288_06;
    q = q * t + 0.096_784_18;
    q = q * t + 0.374_091_96;
    q = q * t + 1.000_023_7;
    q = q * t - 1.265_512_2;
    let half_erfc = 0.5 * t * exp(q - z * z); // ½·erfc(|x|/√2) = Φ(−|x|)
    if x >= 0.0 {
        1.0 - half_erfc
    } else {
        half_erfc
    }
}

/// φ(x) = e^(−x²/2) / √(2π), the standard normal density.
#[inline(always)]
pub fn normal_pdf(x: f32) -> f32 {
    const INV_SQRT_2PI: f32 = 0.398_942_3;
    INV_SQRT_2PI * exp(-0.5 * x * x)
}

/// out = x·Φ(x) element-wise (exact-erf GELU).
pub fn gelu(out: &mut [f32], inp: &[f32]) {
    dispatch!(gelu_body, (out: &mut [f32], inp: &[f32]))
}

#[inline(always)]
fn gelu_body<const FMA: bool, const R: usize, const W: usize>(out: &mut [f32], inp: &[f32]) {
    for (o, &x) in out.iter_mut().zip(inp) {
        *o = x * normal_cdf(x);
    }
}

/// dinp += (Φ(x) + x·φ(x))·dout element-wise: d/dx of x·Φ(x).
pub fn gelu_grad(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
    dispatch!(gelu_grad_body, (dinp: &mut [f32], inp: &[f32], dout: &[f32]))
}

#[inline(always)]
fn gelu_grad_body<const FMA: bool, const R: usize, const W: usize>(
    dinp: &mut [f32],
    inp: &[f32],
    dout: &[f32],
) {
    for ((d, &x), &g) in dinp.iter_mut().zip(inp).zip(dout) {
        *d += (normal_cdf(x) + x * normal_pdf(x)) * g;
    }
}
