//! §7 Proving the mask works, three checks: the head against an independent
//! naive implementation, a finite-difference check of the gradients of Q, K
//! and V, and changing future values (earlier outputs move by exactly 0 with
//! the mask, and by something without it). No dropout exists here.
//!
//! T = time, d = head size (d_k = d_v). Inputs q, k, v ~ N(0, 1) from a seed.

use serde::Serialize;

use super::portable_draws::Rng;
use super::{check_size, LessonError};
use crate::attention::{attend, attend_backward};
use crate::tensor::{causal_or_none, Matrix};

/// Most T and d for these checks (the gradient check is O(T²·d) per element).
pub const MAX_T: usize = 16;
pub const MAX_D: usize = 16;

fn draw_qkv(seed: u64, t_len: usize, d: usize) -> Result<(Matrix, Matrix, Matrix), LessonError> {
    check_size("T", t_len, MAX_T)?;
    check_size("d", d, MAX_D)?;
    let mut rng = Rng::new(seed);
    let q = rng.normal_matrix(t_len, d, 1.0);
    let k = rng.normal_matrix(t_len, d, 1.0);
    let v = rng.normal_matrix(t_len, d, 1.0);
    Ok((q, k, v))
}

/// An independent reference: plain loops over rows, no `Matrix` operation
/// shared with `attention::attend`, and the normalisation deferred to the end
/// (as flash attention does): out[t] = (Σ_{s allowed} e^(q_t·k_s·scale − m) v_s) / Σ e^(…),
/// m = row max. Rounding differs from `attend`'s Σ (e/z) v, so the check is honest.
/// It keeps its own softmax on purpose: `tensor::softmax_row` normalises before the
/// sum, which would give `attend`'s rounding back, and a bug in it would then hide
/// behind the very function it is meant to check.
pub fn naive_attention(
    q: &[Vec<f64>],
    k: &[Vec<f64>],
    v: &[Vec<f64>],
    causal: bool,
    scale: f64,
) -> Vec<Vec<f64>> {
    let mut out = Vec::with_capacity(q.len());
    for (t, q_t) in q.iter().enumerate() {
        let last = if causal { t + 1 } else { k.len() };
        let mut scores = Vec::with_capacity(last);
        for k_s in &k[..last] {
            let mut s = 0.0;
            for i in 0..q_t.len() {
                s += q_t[i] * k_s[i];
            }
            scores.push(s * scale);
        }
        let m = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = scores.iter().map(|s| (s - m).exp()).collect();
        let z: f64 = e.iter().sum();
        let mut o = vec![0.0; v[0].len()];
        for (s, v_s) in v[..last].iter().enumerate() {
            for (oi, vi) in o.iter_mut().zip(v_s) {
                *oi += e[s] * vi;
            }
        }
        out.push(o.into_iter().map(|x| x / z).collect());
    }
    out
}

/// The head against the naive reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ManualVsNaive {
    /// max |attend − naive| (float64 rounding, ≈ 2.22e-16).
    pub max_err: f64,
    pub out: Matrix,
}

/// seed, T ≤ 16, d ≤ 16 -> max |attend(q, k, v) − naive(q, k, v)|, scaled by 1/√d.
pub fn manual_vs_naive(
    seed: u64,
    t_len: usize,
    d: usize,
    causal: bool,
) -> Result<ManualVsNaive, LessonError> {
    let (q, k, v) = draw_qkv(seed, t_len, d)?;
    let scale = 1.0 / (d as f64).sqrt();
    let naive = naive_attention(&q.to_rows(), &k.to_rows(), &v.to_rows(), causal, scale);
    let trace = attend(q, k, v, &causal_or_none(causal, t_len, t_len), scale);
    let naive = Matrix::from_rows(&naive).expect("rectangular");
    Ok(ManualVsNaive {
        max_err: trace.out.max_abs_diff(&naive),
        out: trace.out,
    })
}

/// Analytic gradient against central differences for one of Q, K, V.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradCheckOne {
    pub analytic: Matrix,
    pub numeric: Matrix,
    /// max |a − n| / max(|a|, |n|, 1): relative for gradients above 1, absolute
    /// below (central differences carry ≈ ε·|L|/h ≈ 1e-9 of noise on any entry).
    pub max_rel_err: f64,
    /// max |a − n|.
    pub max_abs_err: f64,
}

/// The three checks and their verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradCheck {
    pub h: f64,
    pub q: GradCheckOne,
    pub k: GradCheckOne,
    pub v: GradCheckOne,
    pub max_rel_err: f64,
    /// max_rel_err < 1e-6.
    pub passed: bool,
}

/// L = Σ out ⊙ G with G ~ N(0, 1); ∂L/∂x ≈ (L(x + h) − L(x − h)) / 2h, h = 1e-6, for
/// every entry of q, k, v; passes when every relative error is below 1e-6.
pub fn grad_check(
    seed: u64,
    t_len: usize,
    d: usize,
    causal: bool,
) -> Result<GradCheck, LessonError> {
    let (q, k, v) = draw_qkv(seed, t_len, d)?;
    let g = Rng::new(seed ^ 0x5EED).normal_matrix(t_len, d, 1.0); // dL/dout
    let mask = causal_or_none(causal, t_len, t_len);
    let scale = 1.0 / (d as f64).sqrt();
    let loss = |q: &Matrix, k: &Matrix, v: &Matrix| -> f64 {
        let out = attend(q.clone(), k.clone(), v.clone(), &mask, scale).out;
        out.data.iter().zip(&g.data).map(|(o, g)| o * g).sum()
    };
    let trace = attend(q.clone(), k.clone(), v.clone(), &mask, scale);
    let grads = attend_backward(&trace, &mask, &g);
    let h = 1e-6;
    let numeric = |which: usize| {
        let mut n = Matrix::zeros(t_len, d);
        for i in 0..t_len * d {
            let mut inputs = [q.clone(), k.clone(), v.clone()];
            inputs[which].data[i] += h;
            let plus = loss(&inputs[0], &inputs[1], &inputs[2]);
            inputs[which].data[i] -= 2.0 * h;
            let minus = loss(&inputs[0], &inputs[1], &inputs[2]);
            n.data[i] = (plus - minus) / (2.0 * h);
        }
        n
    };
    let one = |analytic: Matrix, numeric: Matrix| {
        let max_rel_err = analytic
            .data
            .iter()
            .zip(&numeric.data)
            .map(|(a, n)| (a - n).abs() / a.abs().max(n.abs()).max(1.0))
            .fold(0.0, f64::max);
        GradCheckOne {
            max_abs_err: super::max_abs_diff(&analytic.data, &numeric.data),
            analytic,
            numeric,
            max_rel_err,
        }
    };
    let (cq, ck, cv) = (
        one(grads.dq, numeric(0)),
        one(grads.dk, numeric(1)),
        one(grads.dv, numeric(2)),
    );
    let max_rel_err = cq.max_rel_err.max(ck.max_rel_err).max(cv.max_rel_err);
    Ok(GradCheck {
        h,
        q: cq,
        k: ck,
        v: cv,
        max_rel_err,
        passed: max_rel_err < 1e-6,
    })
}

/// Outputs before and after the future values changed, with and without the mask.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FutureChange {
    /// First position whose value was redrawn: rows from..T of v changed.
    pub from: usize,
    /// max over t < from of |out′[t] − out[t]| with the causal mask: exactly 0.
    pub with_mask: f64,
    /// The same without the mask: not 0.
    pub without_mask: f64,
    pub masked_before: Matrix,
    pub masked_after: Matrix,
    pub unmasked_before: Matrix,
    pub unmasked_after: Matrix,
}

/// What `future_change` runs on: q, k, v (T, d) from the seed, and v2 = v with
/// the rows from `from` on replaced (1 ≤ from < T ≤ 16, d ≤ 16).
pub fn future_inputs(
    seed: u64,
    t_len: usize,
    d: usize,
    from: usize,
) -> Result<[Matrix; 4], LessonError> {
    let (q, k, v) = draw_qkv(seed, t_len, d)?;
    if from == 0 || from >= t_len {
        return super::fail!("lesson.proofs.from_range", max = t_len - 1);
    }
    let mut v2 = v.clone();
    let mut rng = Rng::new(seed ^ 0xF07E);
    for i in from * d..t_len * d {
        v2.data[i] = rng.normal() * 3.0;
    }
    Ok([q, k, v, v2])
}

/// seed, T ≤ 16, d ≤ 16, from in 1..T -> redraw v[from..], measure the earlier outputs.
pub fn future_change(
    seed: u64,
    t_len: usize,
    d: usize,
    from: usize,
) -> Result<FutureChange, LessonError> {
    let [q, k, v, v2] = future_inputs(seed, t_len, d, from)?;
    let scale = 1.0 / (d as f64).sqrt();
    let run = |v: &Matrix, causal: bool| {
        attend(
            q.clone(),
            k.clone(),
            v.clone(),
            &causal_or_none(causal, t_len, t_len),
            scale,
        )
        .out
    };
    let earlier =
        |a: &Matrix, b: &Matrix| super::max_abs_diff(&a.data[..from * d], &b.data[..from * d]);
    let (mb, ma) = (run(&v, true), run(&v2, true));
    let (ub, ua) = (run(&v, false), run(&v2, false));
    Ok(FutureChange {
        from,
        with_mask: earlier(&mb, &ma),
        without_mask: earlier(&ub, &ua),
        masked_before: mb,
        masked_after: ma,
        unmasked_before: ub,
        unmasked_after: ua,
    })
}
