//! C += A @ Bᵀ with B stored row-major (m×k): the (out, in) layout of a Linear's weight,
//! read as it is stored. The inference pass (`Gpt::forward_last`, GPT-2 in the page) runs
//! its matmuls on it, with no transpose per pass (`matmul_forward` transposes each weight
//! into scratch for `matmul_nn`, which on GPT-2 small took half the pass).
//!
//! R×S dot products at a time: a tile of R rows of A and S rows of B, each pair's k-long
//! sum kept in lanes and folded at the end, so each step loads R + S vectors for R·S
//! multiply-adds, written in f32x4 ops for wasm (`simd128::nt_tile`). 4×3 (12
//! accumulators) measured fastest in Chromium for GPT-2's shapes (4×2: 3× slower). The
//! rows and columns left over, and every element natively, go one dot product at a time.

use super::dispatch::kernel;
use super::rows::dot;

/// Rows of A and rows of B per tile.
const R: usize = 4;
const S: usize = 3;

/// C (n×m) += A (n×k) @ Bᵀ with B (m×k), all row-major. Panics unless the lengths fit.
pub fn matmul_nt(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    assert!(
        c.len() >= n * m && a.len() >= n * k && b.len() >= m * k,
        "matmul_nt: lengths"
    );
    nt(c, a, b, n, k, m);
}

/// C (n×m) += A (n×k) @ Bᵀ, the plain loops (the reference the tiles are held to).
pub fn matmul_nt_naive(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    for i in 0..n {
        for j in 0..m {
            let mut s = 0.0f32;
            for p in 0..k {
                s += a[i * k + p] * b[j * k + p];
            }
            c[i * m + j] += s;
        }
    }
}

kernel! {
    fn nt<const FMA: bool>(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
        // wasm tiles what it can; natively (where the inference pass keeps matmul_nn's AVX
        // tiles: `ops::matmul_forward_nt`) every element is one dot product
        let (n_t, m_t) = if cfg!(target_arch = "wasm32") { (n / R * R, m / S * S) } else { (0, 0) };
        #[cfg(target_arch = "wasm32")]
        for j0 in (0..m_t).step_by(S) {
            for i0 in (0..n_t).step_by(R) {
                super::simd128::nt_tile::<R, S>(c, a, b, i0, j0, k, m);
            }
        }
        // what the tiles leave: the last columns of the tiled rows, then the last rows
        for i in 0..n {
            let cols = if i < n_t { m_t..m } else { 0..m };
            for j in cols {
                c[i * m + j] += dot::<FMA>(&a[i * k..][..k], &b[j * k..][..k]);
            }
        }
    }
}
