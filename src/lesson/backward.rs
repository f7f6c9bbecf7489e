//! §7 The single head's backward pass, written as forward/backward pairs per
//! op (llm.c style) so a GPT can reuse each pair: linear, scores, mask,
//! softmax, weighted sum. Each backward quotes the forward line it
//! differentiates and accumulates into its d-buffers with `+=`.
//!
//! T_out = queries, T_in = keys, C = channels, d = head size, d_v = value size.
//! Weights are `nn.Linear` (d, C): y = x Wᵀ.

use serde::Serialize;

use super::head_extras::run_head;
use super::{check_matrix, fail, ser, LessonError};
use crate::attention::{HeadTrace, HeadWeights};
use crate::tensor::{causal_or_none, masked_fill, softmax_rows, Mask, Matrix};

/// dst += src (same shape).
fn acc(dst: &mut Matrix, src: &Matrix) {
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

/// (T_out, T_in) -> (T_out, T_in): weights = softmax by rows (fully masked rows stay 0).
pub fn softmax_forward(masked: &Matrix) -> Matrix {
    softmax_rows(masked).0
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

/// Gradients of one head.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadGrads {
    /// (T_out, T_in) ∂L/∂weights and ∂L/∂scores (after the mask's backward).
    #[serde(serialize_with = "ser::matrix")]
    pub dweights: Matrix,
    #[serde(serialize_with = "ser::matrix")]
    pub dscores: Matrix,
    /// (T_out, d), (T_in, d), (T_in, d_v)
    #[serde(serialize_with = "ser::matrix")]
    pub dq: Matrix,
    #[serde(serialize_with = "ser::matrix")]
    pub dk: Matrix,
    #[serde(serialize_with = "ser::matrix")]
    pub dv: Matrix,
    /// (d, C) each, and (T, C) for x (self-attention: x feeds q, k and v).
    #[serde(serialize_with = "ser::opt_matrix")]
    pub d_w_q: Option<Matrix>,
    #[serde(serialize_with = "ser::opt_matrix")]
    pub d_w_k: Option<Matrix>,
    #[serde(serialize_with = "ser::opt_matrix")]
    pub d_w_v: Option<Matrix>,
    #[serde(serialize_with = "ser::opt_matrix")]
    pub dx: Option<Matrix>,
}

/// Given the forward trace and dout (T_out, d_v): dq, dk, dv by the op pairs in reverse.
pub fn attend_backward(trace: &HeadTrace, mask: &Mask, dout: &Matrix) -> HeadGrads {
    let (t_out, t_in) = (trace.weights.rows, trace.weights.cols);
    let mut dweights = Matrix::zeros(t_out, t_in);
    let mut dv = Matrix::zeros(trace.v.rows, trace.v.cols);
    weighted_sum_backward(dout, &trace.weights, &trace.v, &mut dweights, &mut dv);
    let mut dmasked = Matrix::zeros(t_out, t_in);
    softmax_backward(&dweights, &trace.weights, &mut dmasked);
    let mut dscores = Matrix::zeros(t_out, t_in);
    mask_backward(&dmasked, mask, &mut dscores);
    let mut dq = Matrix::zeros(trace.q.rows, trace.q.cols);
    let mut dk = Matrix::zeros(trace.k.rows, trace.k.cols);
    scores_backward(&dscores, &trace.q, &trace.k, trace.scale, &mut dq, &mut dk);
    HeadGrads {
        dweights,
        dscores,
        dq,
        dk,
        dv,
        d_w_q: None,
        d_w_k: None,
        d_w_v: None,
        dx: None,
    }
}

/// Self-attention backward: adds dW_q, dW_k, dW_v (d, C) and dx (T, C) to `attend_backward`.
pub fn head_backward(
    x: &Matrix,
    w: &HeadWeights,
    trace: &HeadTrace,
    mask: &Mask,
    dout: &Matrix,
) -> HeadGrads {
    let mut g = attend_backward(trace, mask, dout);
    let mut dx = Matrix::zeros(x.rows, x.cols);
    let d_w = |dy: &Matrix, w: &Matrix, dx: &mut Matrix| {
        let mut dw = Matrix::zeros(w.rows, w.cols);
        linear_backward(dy, x, w, dx, &mut dw);
        dw
    };
    g.d_w_q = Some(d_w(&g.dq, &w.w_q, &mut dx)); // q = x W_qᵀ
    g.d_w_k = Some(d_w(&g.dk, &w.w_k, &mut dx)); // k = x W_kᵀ
    g.d_w_v = Some(d_w(&g.dv, &w.w_v, &mut dx)); // v = x W_vᵀ
    g.dx = Some(dx);
    g
}

/// Checks the learner's x, weights and dout (T, d_v), runs forward then backward.
pub fn head_grads(
    x: &Matrix,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
    dout: &Matrix,
) -> Result<HeadGrads, LessonError> {
    let trace = run_head(x, w, causal, scaled)?;
    check_matrix("dout", dout)?;
    if (dout.rows, dout.cols) != (trace.out.rows, trace.out.cols) {
        let (rows, cols, dout_rows, dout_cols) =
            (trace.out.rows, trace.out.cols, dout.rows, dout.cols);
        return fail!(
            "lesson.backward.dout_shape",
            rows,
            cols,
            dout_rows,
            dout_cols
        );
    }
    if !trace.overflow_rows.is_empty() {
        return fail!("lesson.head.score_overflow");
    }
    let mask = causal_or_none(causal, x.rows, x.rows);
    Ok(head_backward(x, w, &trace, &mask, dout))
}
