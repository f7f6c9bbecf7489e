//! The matmuls: C += A @ B and C += Aᵀ @ B on row-major (strided) views, tiled so that
//! R rows × W columns of C live in registers while the shared dimension streams by, and
//! their naive triple loops.
//!
//! Both products are one body, `gemm`: C (rows×cols) += op(A) (rows×k) @ B (k×cols) with
//! op(A) = A stored (rows×k), or `TA` = Aᵀ with A stored (k×rows). The layout only decides
//! where a tile reads A's R values at step p; `TA` is a const, so each instantiation
//! compiles to the loop written for its layout.
//!
//! Tiles: 8×32 for AVX-512 (16 of its 32 zmm registers), 4×16 for AVX2 (8 of 16 ymm),
//! 4×8 for the portable body and wasm's simd128, whose engines have 16 xmm registers and
//! spill beyond. Column strips are the outer loop so one (k × W) strip of B stays in L1
//! across row tiles. Columns left over after the W-wide strips go in 16-, then 8-wide
//! strips, then one by one.

use super::dispatch::{dispatch, fmadd};
use super::rows::axpy;

/// C (n×m) += A (n×k) @ B (k×m), all row-major. Panics unless the lengths fit.
pub fn matmul_nn(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    let c = StridedMut { data: c, ld: m };
    matmul_nn_strided(
        c,
        Strided { data: a, ld: k },
        Strided { data: b, ld: m },
        n,
        k,
        m,
    )
}

/// C (m×p) += Aᵀ @ B with A (n×m), B (n×p), all row-major. Panics unless the lengths fit.
pub fn matmul_tn(c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize) {
    let c = StridedMut { data: c, ld: p };
    matmul_tn_strided(
        c,
        Strided { data: a, ld: m },
        Strided { data: b, ld: p },
        n,
        m,
        p,
    )
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

/// out (cols×rows) = inp (rows×cols)ᵀ.
pub fn transpose(out: &mut [f32], inp: &[f32], rows: usize, cols: usize) {
    let (out, inp) = (&mut out[..rows * cols], &inp[..rows * cols]);
    for (r, row) in inp.chunks_exact(cols).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            out[c * rows + r] = x;
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
    dispatch!(tiled nn_strided, (c: StridedMut, a: Strided, b: Strided, n: usize, k: usize, m: usize))
}

/// `matmul_tn` on strided views: C (m×p) += Aᵀ @ B, A (n×m), B (n×p). Panics unless they fit.
pub fn matmul_tn_strided(c: StridedMut, a: Strided, b: Strided, n: usize, m: usize, p: usize) {
    dispatch!(tiled tn_strided, (c: StridedMut, a: Strided, b: Strided, n: usize, m: usize, p: usize))
}

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
    gemm::<FMA, R, W, false>(c, a, b, n, k, m);
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
    gemm::<FMA, R, W, true>(c, a, b, m, n, p);
}

/// C (rows×cols) += op(A) (rows×k) @ B (k×cols); op(A) = Aᵀ when `TA`.
#[inline(always)]
fn gemm<const FMA: bool, const R: usize, const W: usize, const TA: bool>(
    c: StridedMut,
    a: Strided,
    b: Strided,
    rows: usize,
    k: usize,
    cols: usize,
) {
    let (a_rows, a_cols) = if TA { (k, rows) } else { (rows, k) };
    assert!(
        c.data.len() >= span(rows, cols, c.ld)
            && a.data.len() >= span(a_rows, a_cols, a.ld)
            && b.data.len() >= span(k, cols, b.ld),
        "{}",
        if TA {
            "matmul_tn shapes"
        } else {
            "matmul_nn shapes"
        }
    );
    if rows == 0 || cols == 0 || k == 0 {
        return;
    }
    let (cd, ldc) = (c.data, c.ld);
    let mut j0 = 0;
    while j0 + W <= cols {
        strip::<FMA, R, W, TA>(cd, ldc, a, b, j0, rows, k);
        j0 += W;
    }
    if W > 16 && j0 + 16 <= cols {
        strip::<FMA, R, 16, TA>(cd, ldc, a, b, j0, rows, k);
        j0 += 16;
    }
    if W > 8 && j0 + 8 <= cols {
        strip::<FMA, R, 8, TA>(cd, ldc, a, b, j0, rows, k);
        j0 += 8;
    }
    if j0 == cols {
        return;
    }
    // the last < 8 columns, in the order that reads A's rows contiguously
    let b_row = |p: usize| &b.data[p * b.ld + j0..p * b.ld + cols];
    if TA {
        for p in 0..k {
            for (i, &av) in a.data[p * a.ld..][..rows].iter().enumerate() {
                axpy::<FMA>(&mut cd[i * ldc + j0..i * ldc + cols], av, b_row(p));
            }
        }
    } else {
        for i in 0..rows {
            let c_row = &mut cd[i * ldc + j0..i * ldc + cols];
            for (p, &av) in a.data[i * a.ld..][..k].iter().enumerate() {
                axpy::<FMA>(c_row, av, b_row(p));
            }
        }
    }
}

/// Columns j0..j0+W of C: R-row tiles, then single rows.
#[inline(always)]
fn strip<const FMA: bool, const R: usize, const W: usize, const TA: bool>(
    c: &mut [f32],
    ldc: usize,
    a: Strided,
    b: Strided,
    j0: usize,
    rows: usize,
    k: usize,
) {
    let full = rows / R * R;
    for i0 in (0..full).step_by(R) {
        tile::<FMA, R, W, TA>(c, ldc, a, b, i0, j0, k);
    }
    for i0 in full..rows {
        tile::<FMA, 1, W, TA>(c, ldc, a, b, i0, j0, k);
    }
}

/// C[i0..i0+R][j0..j0+W] += op(A)[i0..i0+R][..k] @ B[..k][j0..j0+W].
#[inline(always)]
fn tile<const FMA: bool, const R: usize, const W: usize, const TA: bool>(
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
        return super::simd128::tile::<R, TA>(c, ldc, a, b, i0, j0, k);
    }
    match R {
        8 => tile8::<FMA, W, TA>(c, ldc, a, b, i0, j0, k),
        4 => tile4::<FMA, W, TA>(c, ldc, a, b, i0, j0, k),
        _ => {
            for i in i0..i0 + R {
                tile1::<FMA, W, TA>(c, ldc, a, b, i, j0, k)
            }
        }
    }
}

// The rows of a tile are written out by a macro, one named accumulator each: a
// `for r in 0..R` loop over an array of accumulators stays a loop in LLVM (it vectorises
// the inner loop before unrolling) and sends the accumulators to the stack.
macro_rules! tile_rows {
    ($name:ident, $(($r:literal, $row:ident, $acc:ident)),+) => {
        #[inline(always)]
        fn $name<const FMA: bool, const W: usize, const TA: bool>(
            c: &mut [f32],
            ldc: usize,
            a: Strided,
            b: Strided,
            i0: usize,
            j0: usize,
            k: usize,
        ) {
            const R: usize = [$($r),+].len();
            // A untransposed: row i0 + r is one slice, bounds checked once here
            $(let $row: &[f32] = if TA { &[] } else { &a.data[(i0 + $r) * a.ld..][..k] };)+
            $(let mut $acc = [0.0f32; W];)+
            for p in 0..k {
                let bv: &[f32; W] = b.data[p * b.ld + j0..][..W].try_into().unwrap();
                // Aᵀ: the tile's R values of step p sit side by side in A's row p
                let at: &[f32] = if TA { &a.data[p * a.ld + i0..][..R] } else { &[] };
                $(
                    let av = if TA { at[$r] } else { $row[p] };
                    for j in 0..W {
                        $acc[j] = fmadd::<FMA>(av, bv[j], $acc[j]);
                    }
                )+
            }
            $(add_row(c, i0 + $r, ldc, j0, &$acc);)+
        }
    };
}

tile_rows!(tile1, (0, r0, c0));
tile_rows!(tile4, (0, r0, c0), (1, r1, c1), (2, r2, c2), (3, r3, c3));
tile_rows!(
    tile8,
    (0, r0, c0),
    (1, r1, c1),
    (2, r2, c2),
    (3, r3, c3),
    (4, r4, c4),
    (5, r5, c5),
    (6, r6, c6),
    (7, r7, c7)
);

/// c[row][j0..j0+W] += acc.
#[inline(always)]
fn add_row<const W: usize>(c: &mut [f32], row: usize, stride: usize, j0: usize, acc: &[f32; W]) {
    let c_row: &mut [f32; W] = (&mut c[row * stride + j0..][..W]).try_into().unwrap();
    for j in 0..W {
        c_row[j] += acc[j];
    }
}
