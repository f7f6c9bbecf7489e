//! One head composed from the op pairs of `ops`: `attend` runs them forward and keeps
//! every intermediate in a `HeadTrace`; `attend_backward` runs their backwards in
//! reverse on that trace.
//!
//! T_out = queries, T_in = keys, C = channels, d = head size, d_v = value size.

use super::ops::{
    linear_backward, linear_forward, mask_backward, mask_forward, scores_backward, scores_forward,
    softmax_backward, softmax_forward, weighted_sum_backward, weighted_sum_forward,
};
use super::{HeadGrads, HeadTrace, HeadWeights};
use crate::tensor::{causal_or_none, shape_err, Mask, Matrix, ShapeError};

/// Self-attention of one head. x: (T, C); weights (d, C); `causal` masks s > t;
/// `scaled` multiplies scores by 1/√d. Errors on shapes that do not fit.
pub fn head_forward(
    x: &Matrix,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
) -> Result<HeadTrace, ShapeError> {
    let mask = causal_or_none(causal, x.rows, x.rows);
    cross_forward(x, x, w, &mask, scaled)
}

/// Cross-attention: queries from x_q (T_out, C), keys and values from x_kv
/// (T_in, C); mask (T_out, T_in). Scores are (T_out, T_in), not square.
pub fn cross_forward(
    x_q: &Matrix,
    x_kv: &Matrix,
    w: &HeadWeights,
    mask: &Mask,
    scaled: bool,
) -> Result<HeadTrace, ShapeError> {
    if x_q.cols != x_kv.cols {
        return shape_err!("shape.head.channels", q = x_q.cols, kv = x_kv.cols);
    }
    w.check(x_q.cols)?;
    if (mask.rows, mask.cols) != (x_q.rows, x_kv.rows) {
        let (rows, cols, t_out, t_in) = (mask.rows, mask.cols, x_q.rows, x_kv.rows);
        return shape_err!("shape.head.mask", rows, cols, t_out, t_in);
    }
    let q = linear_forward(x_q, &w.w_q); // (T_out, C) @ (C, d) -> (T_out, d)
    let k = linear_forward(x_kv, &w.w_k); // (T_in, C) @ (C, d) -> (T_in, d)
    let v = linear_forward(x_kv, &w.w_v); // (T_in, C) @ (C, d_v) -> (T_in, d_v)
    let scale = score_scale(q.cols, scaled);
    Ok(attend(q, k, v, mask, scale))
}

/// 1/√d_k when `scaled`, else 1: the factor every head's scores are multiplied by.
pub fn score_scale(d_k: usize, scaled: bool) -> f64 {
    if scaled {
        1.0 / (d_k as f64).sqrt()
    } else {
        1.0
    }
}

/// The attention step on given q (T_out, d), k (T_in, d), v (T_in, d_v):
/// scores = q kᵀ · scale; masked; softmax by rows; out = weights @ v.
pub fn attend(q: Matrix, k: Matrix, v: Matrix, mask: &Mask, scale: f64) -> HeadTrace {
    // A scale of 1 multiplies every score exactly: the bits are those of q kᵀ.
    let scores = scores_forward(&q, &k, scale); // (T_out, d) @ (d, T_in) -> (T_out, T_in)
    let masked_scores = mask_forward(&scores, mask);
    let (weights, failed) = softmax_forward(&masked_scores);
    // softmax fails for two reasons the learner must tell apart: the mask left
    // no key (no denominator), or a score overflowed to ±∞/NaN.
    let fully_masked_rows = mask.fully_masked_rows();
    let overflow_rows = failed
        .into_iter()
        .filter(|t| !fully_masked_rows.contains(t))
        .collect();
    let out = weighted_sum_forward(&weights, &v); // (T_out, T_in) @ (T_in, d_v) -> (T_out, d_v)
    HeadTrace {
        q,
        k,
        v,
        scale,
        scores,
        masked_scores,
        weights,
        out,
        fully_masked_rows,
        overflow_rows,
    }
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
