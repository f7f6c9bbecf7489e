//! The ops of one attention head, each a `*_forward` / `*_backward` pair (llm.c
//! style): shapes first, each backward quotes the forward line it differentiates and
//! accumulates into its d-buffers with `+=`, so a caller zeroes them once.
//!
//! T_out = queries, T_in = keys, C = channels, d = head size, d_v = value size.
//! Weights are `nn.Linear` (d, C): y = x Wᵀ.

use crate::tensor::{masked_fill, softmax_rows, Mask, Matrix};

/// dst += src (same shape).
pub(crate) fn acc(dst: &mut Matrix, src: &Matrix) {
    assert_eq!(
        (dst.rows, dst.cols),
        (src.rows, src.cols),
        "acc: shapes differ"
    );
    dst.data
        .iter_mut()
        .zip(&src.data)
        .for_each(|(d, s)| *d += s);
}

/// (T, C), (d, C) -> (T, d): y = x Wᵀ.
pub fn linear_forward(x: &Matrix, w: &Matrix) -> Matrix {
    x.matmul_t(w)
}

/// Backward of `y = x Wᵀ`: dx += dy W (T, d)@(d, C); dW += dyᵀ x (d, T)@(T, C).
pub fn linear_backward(dy: &Matrix, x: &Matrix, w: &Matrix, dx: &mut Matrix, dw: &mut Matrix) {
    acc(dx, &dy.matmul(w));
    acc(dw, &dy.transpose().matmul(x));
}

/// (T_out, d), (T_in, d) -> (T_out, T_in): scores = q kᵀ · scale.
pub fn scores_forward(q: &Matrix, k: &Matrix, scale: f64) -> Matrix {
    q.matmul_t(k).scale(scale)
}

/// Backward of `scores = q kᵀ · scale`: dq += dscores k · scale; dk += dscoresᵀ q · scale.
pub fn scores_backward(
    dscores: &Matrix,
    q: &Matrix,
    k: &Matrix,
    scale: f64,
    dq: &mut Matrix,
    dk: &mut Matrix,
) {
    acc(dq, &dscores.matmul(k).scale(scale)); // (T_out, T_in) @ (T_in, d)
    acc(dk, &dscores.transpose().matmul(q).scale(scale)); // (T_in, T_out) @ (T_out, d)
}

/// (T_out, T_in) -> (T_out, T_in): masked = scores where allowed, −∞ elsewhere.
pub fn mask_forward(scores: &Matrix, mask: &Mask) -> Matrix {
    masked_fill(scores, mask, f64::NEG_INFINITY)
}

/// Backward of `masked_fill`: dscores += dmasked where allowed (a constant elsewhere).
pub fn mask_backward(dmasked: &Matrix, mask: &Mask, dscores: &mut Matrix) {
    acc(dscores, &masked_fill(dmasked, mask, 0.0));
}

/// (T_out, T_in) -> (T_out, T_in): weights = softmax by rows, and the rows it could not
/// normalise (fully masked, or a score ±∞/NaN), which stay 0.
pub fn softmax_forward(masked: &Matrix) -> (Matrix, Vec<usize>) {
    softmax_rows(masked)
}

/// Backward of `weights = softmax(masked)` by rows:
/// dmasked[t][s] += w[t][s] · (dw[t][s] − Σ_j dw[t][j] w[t][j]).
pub fn softmax_backward(dweights: &Matrix, weights: &Matrix, dmasked: &mut Matrix) {
    for t in 0..weights.rows {
        let (w, dw) = (weights.row(t), dweights.row(t));
        let inner: f64 = w.iter().zip(dw).map(|(a, b)| a * b).sum();
        for (s, dm) in dmasked.row_mut(t).iter_mut().enumerate() {
            *dm += w[s] * (dw[s] - inner);
        }
    }
}

/// (T_out, T_in), (T_in, d_v) -> (T_out, d_v): out = weights v.
pub fn weighted_sum_forward(weights: &Matrix, v: &Matrix) -> Matrix {
    weights.matmul(v)
}

/// Backward of `out = weights v`: dweights += dout vᵀ; dv += weightsᵀ dout.
pub fn weighted_sum_backward(
    dout: &Matrix,
    weights: &Matrix,
    v: &Matrix,
    dweights: &mut Matrix,
    dv: &mut Matrix,
) {
    acc(dweights, &dout.matmul_t(v)); // (T_out, d_v) @ (d_v, T_in)
    acc(dv, &weights.transpose().matmul(dout)); // (T_in, T_out) @ (T_out, d_v)
}
