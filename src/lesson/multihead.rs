//! §6 bonus: batched multi-head attention on (B, H, T, d_k) tensors, the way
//! `@` and `transpose(-2, -1)` treat leading axes as batch: the reference
//! `attention::attend` on each (b, h) slice, checked against the independent loops
//! of §7 (`proofs::naive_attention`) on the same slices.
//!
//! B = batch, H = heads, T = time, d = head size (d_k = d_v). Tensors are
//! flat row-major buffers: element (b, h, t, i) is at ((b·H + h)·T + t)·d + i.

use serde::Serialize;

use super::portable_draws::Rng;
use super::proofs::naive_attention;
use super::{check_size, LessonError};
use crate::attention::{attend, score_scale};
use crate::tensor::{causal_or_none, Matrix};

/// (B, H, T, d) ×3 flat -> (B, H, T, d): softmax(q kᵀ/√d, causal) v with (B, H) as
/// batch axes, as `@` treats leading axes: the reference `attend` on each (b, h) slice,
/// written back in (B, H, T, d) order.
pub fn sdpa_batched(q: &[f64], k: &[f64], v: &[f64], shape: [usize; 4], causal: bool) -> Vec<f64> {
    let [b_len, h_len, t_len, d] = shape;
    let n = b_len * h_len * t_len * d;
    assert!(
        q.len() == n && k.len() == n && v.len() == n,
        "sdpa_batched: shape"
    );
    let mask = causal_or_none(causal, t_len, t_len);
    let scale = score_scale(d, true);
    let mut out = Vec::with_capacity(n);
    for b in 0..b_len {
        for h in 0..h_len {
            let slice = |x: &[f64]| head_slice(x, shape, b, h);
            out.extend(attend(slice(q), slice(k), slice(v), &mask, scale).out.data);
        }
    }
    out
}

/// (B, H, T, d) flat -> the (T, d) slice of head h of batch b.
pub fn head_slice(x: &[f64], shape: [usize; 4], b: usize, h: usize) -> Matrix {
    let [_, h_len, t_len, d] = shape;
    let base = (b * h_len + h) * t_len * d;
    Matrix::from_vec(t_len, d, x[base..base + t_len * d].to_vec()).expect("slice")
}

/// The batched path against the per-head reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MultiHeadCheck {
    /// [B, H, T, d_k]
    pub shape: [usize; 4],
    /// max |batched − reference| over every element (the lesson asks ≤ 1e-6).
    pub max_err: f64,
    pub allclose: bool,
    /// (T, T) weights of head (0, 0), for drawing.
    pub head0_weights: Matrix,
    /// (T, d) output of head (0, 0) from the batched path.
    pub head0_out: Matrix,
}

/// q, k, v, each flat in (B, H, T, d_k) order.
pub type Qkv = (Vec<f64>, Vec<f64>, Vec<f64>);

/// The random (B, H, T, d_k) q, k, v `multihead_check` runs on (B, H ≤ 8, T ≤ 32,
/// d_k ≤ 64), each flat in (B, H, T, d_k) order: explanations rebuild them from the seed.
pub fn multihead_inputs(seed: u64, shape: [usize; 4]) -> Result<Qkv, LessonError> {
    let [b_len, h_len, t_len, d] = shape;
    check_size("B", b_len, 8)?;
    check_size("H", h_len, 8)?;
    check_size("T", t_len, 32)?;
    check_size("d_k", d, 64)?;
    let n = b_len * h_len * t_len * d;
    let mut rng = Rng::new(seed);
    let mut draw = || (0..n).map(|_| rng.normal()).collect::<Vec<f64>>();
    Ok((draw(), draw(), draw()))
}

/// seed, shape (B ≤ 8, H ≤ 8, T ≤ 32, d ≤ 64) -> q, k, v ~ N(0, 1); batched vs the
/// independent loops of `proofs::naive_attention` on every (b, h) slice.
pub fn multihead_check(
    seed: u64,
    shape: [usize; 4],
    causal: bool,
) -> Result<MultiHeadCheck, LessonError> {
    let [b_len, h_len, t_len, d] = shape;
    let (q, k, v) = multihead_inputs(seed, shape)?;
    let batched = sdpa_batched(&q, &k, &v, shape, causal);
    let scale = score_scale(d, true);
    let mut max_err: f64 = 0.0;
    for b in 0..b_len {
        for h in 0..h_len {
            let rows = |x: &[f64]| head_slice(x, shape, b, h).to_rows();
            let naive = naive_attention(&rows(&q), &rows(&k), &rows(&v), causal, scale);
            let naive = Matrix::from_rows(&naive).expect("rectangular");
            let mine = head_slice(&batched, shape, b, h);
            max_err = max_err.max(mine.max_abs_diff(&naive));
        }
    }
    // The weights drawn are the reference's for head (0, 0), the head drawn beside them.
    let slice = |x: &[f64]| head_slice(x, shape, 0, 0);
    let mask = causal_or_none(causal, t_len, t_len);
    let head0 = attend(slice(&q), slice(&k), slice(&v), &mask, scale);
    Ok(MultiHeadCheck {
        shape,
        max_err,
        allclose: max_err <= 1e-6,
        head0_weights: head0.weights,
        head0_out: head_slice(&batched, shape, 0, 0),
    })
}
