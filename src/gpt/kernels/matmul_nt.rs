//! C += A @ Bᵀ with B stored row-major (m×k): the (out, in) layout of a Linear's weight,
//! read as it is stored. The inference pass (`Gpt::forward_last`, GPT-2 in the page) runs
//! its matmuls on it, with no transpose per pass (`matmul_forward` transposes each weight
//! into scratch for `matmul_nn`, which on GPT-2 small took half the pass).
//!
//! R×S dot products at a time: a tile of R rows of A and S rows of B, each pair's k-long
//! sum kept in lanes and folded at the end, so each step loads R + S vectors for R·S
//! multiply-adds. 4×3 (12 accumulators) measured fastest in Chromium for GPT-2's shapes
//! (4×2: 3× slower). The rows and columns left over go one dot product at a time.

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
        let (n_t, m_t) = (n / R * R, m / S * S);
        for j0 in (0..m_t).step_by(S) {
            for i0 in (0..n_t).step_by(R) {
                tile::<FMA>(c, a, b, i0, j0, k, m);
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

/// C[i0..i0+R][j0..j0+S] += A[i0..i0+R] · B[j0..j0+S] (rows of length k).
#[inline(always)]
fn tile<const FMA: bool>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    i0: usize,
    j0: usize,
    k: usize,
    m: usize,
) {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = FMA;
        super::simd128::nt_tile::<R, S>(c, a, b, i0, j0, k, m)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use super::dispatch::fmadd;
        let rows: [&[f32]; R] = std::array::from_fn(|r| &a[(i0 + r) * k..][..k]);
        let cols: [&[f32]; S] = std::array::from_fn(|s| &b[(j0 + s) * k..][..k]);
        let mut acc = [[[0.0f32; 8]; S]; R];
        let k8 = k / 8 * 8;
        for p in (0..k8).step_by(8) {
            let bs: [&[f32; 8]; S] = std::array::from_fn(|s| cols[s][p..p + 8].try_into().unwrap());
            for r in 0..R {
                let ar: &[f32; 8] = rows[r][p..p + 8].try_into().unwrap();
                for s in 0..S {
                    for l in 0..8 {
                        acc[r][s][l] = fmadd::<FMA>(ar[l], bs[s][l], acc[r][s][l]);
                    }
                }
            }
        }
        for r in 0..R {
            for s in 0..S {
                let v = &acc[r][s];
                let mut sum = ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
                for p in k8..k {
                    sum = fmadd::<FMA>(rows[r][p], cols[s][p], sum);
                }
                c[(i0 + r) * m + j0 + s] += sum;
            }
        }
    }
}
