//! The four ways to average the past (LESSON §2), a ladder in which each
//! rung changes one line of the previous one and all give the same numbers.
//!
//! T = time, C = channels, d = head size. Every scheme returns the weights it
//! used (T, T) as well as its outputs (T, C), because the page draws both.

use crate::tensor::{causal_mask, masked_fill, softmax_rows, Matrix};

/// What an averaging scheme produced: `out = weights @ values`.
#[derive(Clone, Debug, PartialEq)]
pub struct Averaged {
    /// (T, T): row t says how much position t takes from each position s.
    pub weights: Matrix,
    /// (T, C) for schemes 1–3, (T, d) for scheme 4.
    pub out: Matrix,
}

/// Scheme 1, the loop (bag of words): out[t] = mean(x[0..=t]).
/// (T, C) -> (T, C). The weights are the implied 1/(t+1) on s ≤ t.
pub fn loop_average(x: &Matrix) -> Averaged {
    let (t_len, c_len) = (x.rows, x.cols);
    let mut out = Matrix::zeros(t_len, c_len);
    for t in 0..t_len {
        for c in 0..c_len {
            let mut sum = 0.0;
            for s in 0..=t {
                sum += x.get(s, c);
            }
            out.set(t, c, sum / (t + 1) as f64);
        }
    }
    let weights = Matrix::from_fn(t_len, t_len, |t, s| {
        if s <= t {
            1.0 / (t + 1) as f64
        } else {
            0.0
        }
    });
    Averaged { weights, out }
}

/// Scheme 2, the matrix: wei = tril(ones) / rowsum(tril(ones)); out = wei @ x.
/// (T, T) @ (T, C) -> (T, C).
pub fn matrix_average(x: &Matrix) -> Averaged {
    let tril = lower_triangular_ones(x.rows);
    let weights = normalize_rows(&tril).expect("tril(ones) has no zero row");
    let out = weights.matmul(x);
    Averaged { weights, out }
}

/// Scheme 3, softmax over a −∞ mask: wei = zeros; wei[s > t] = −∞; softmax rows.
/// (T, T) @ (T, C) -> (T, C).
pub fn softmax_average(x: &Matrix) -> Averaged {
    let t_len = x.rows;
    let wei = Matrix::zeros(t_len, t_len);
    let wei = masked_fill(&wei, &causal_mask(t_len, t_len), f64::NEG_INFINITY);
    let (weights, _) = softmax_rows(&wei); // never fully masked: the diagonal stays
    let out = weights.matmul(x);
    Averaged { weights, out }
}

/// Scheme 4, content scores: the one changed line is `wei = q @ kᵀ` (and `x` → `v`).
/// q = x W_qᵀ (T, d), k = x W_kᵀ (T, d), v = x W_vᵀ (T, d_v); weights in `nn.Linear`
/// layout (d, C). Unscaled, as in the lesson's step 4.
pub fn content_average(x: &Matrix, w_q: &Matrix, w_k: &Matrix, w_v: &Matrix) -> Averaged {
    let q = x.matmul_t(w_q); // (T, C) @ (C, d) -> (T, d)
    let k = x.matmul_t(w_k); // (T, d)
    let v = x.matmul_t(w_v); // (T, d_v)
    let wei = q.matmul_t(&k); // (T, d) @ (d, T) -> (T, T)
    let wei = masked_fill(&wei, &causal_mask(x.rows, x.rows), f64::NEG_INFINITY);
    let (weights, _) = softmax_rows(&wei);
    let out = weights.matmul(&v); // (T, T) @ (T, d_v) -> (T, d_v)
    Averaged { weights, out }
}

/// (T, T) lower-triangular ones: the summing (not averaging) matrix.
pub fn lower_triangular_ones(t_len: usize) -> Matrix {
    Matrix::from_fn(t_len, t_len, |t, s| if s <= t { 1.0 } else { 0.0 })
}

/// Why a normalisation could not be done.
#[derive(Clone, Debug, PartialEq)]
pub enum NormalizeError {
    /// Row `row` sums to zero: dividing by it is a division by zero.
    ZeroSum { row: usize },
}

/// (R, C) -> (R, C): a[r][c] / Σ_c a[r][c]. Errors when a row sums to 0.
pub fn normalize_rows(a: &Matrix) -> Result<Matrix, NormalizeError> {
    let sums = a.row_sums();
    if let Some(row) = sums.iter().position(|&s| s == 0.0) {
        return Err(NormalizeError::ZeroSum { row });
    }
    Ok(Matrix::from_fn(a.rows, a.cols, |r, c| {
        a.get(r, c) / sums[r]
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hou() -> Matrix {
        Matrix::from_rows(&[[2.0, 7.0], [6.0, 4.0], [6.0, 5.0]]).unwrap()
    }

    fn round2(m: &Matrix) -> Vec<f64> {
        m.data.iter().map(|v| (v * 100.0).round() / 100.0).collect()
    }

    #[test]
    fn loop_average_gives_lesson_numbers() {
        let a = loop_average(&hou());
        assert_eq!(round2(&a.out), vec![2.0, 7.0, 4.0, 5.5, 4.67, 5.33]);
    }

    #[test]
    fn all_ones_reads_the_future_and_tril_sums() {
        let ones = Matrix::filled(3, 3, 1.0);
        assert_eq!(
            ones.matmul(&hou()).data,
            vec![14.0, 16.0, 14.0, 16.0, 14.0, 16.0]
        );
        let sums = lower_triangular_ones(3).matmul(&hou());
        assert_eq!(sums.data, vec![2.0, 7.0, 8.0, 11.0, 14.0, 16.0]);
    }

    #[test]
    fn second_data_set_agrees_to_float64_rounding() {
        let x = Matrix::from_rows(&[[2.0, 0.0], [0.0, 4.0], [4.0, 2.0]]).unwrap();
        let a = loop_average(&x);
        let b = matrix_average(&x);
        assert_eq!(round2(&a.out), vec![2.0, 0.0, 1.0, 2.0, 2.0, 2.0]);
        assert!(a.out.max_abs_diff(&b.out) <= 2.3e-16);
    }

    #[test]
    fn arbitrary_scores_that_sum_to_zero_are_an_error() {
        let a = Matrix::from_rows(&[[1.0, -1.0, 0.0]]).unwrap();
        assert_eq!(normalize_rows(&a), Err(NormalizeError::ZeroSum { row: 0 }));
        let b = Matrix::from_rows(&[[2.0, -1.0, 3.0]]).unwrap();
        assert_eq!(normalize_rows(&b).unwrap().data[1], -0.25);
    }
}
