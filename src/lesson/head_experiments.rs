//! §3 Around the hand-computed h/o/u head: the compatibility matrix M, the
//! output as a sum of weighted values, W_v moving `out` but never `wei`, and
//! k-bias versus q-bias. (Another sequence with the same weights: `content`.)
//!
//! T = time, C = channels, d = head size. Weights are in `nn.Linear` layout
//! (d, C), so q_t = W_q x_t and q_t · k_s = x_t (W_qᵀ W_k) x_sᵀ: in this
//! layout M = W_qᵀ W_k, which is the lesson's M = W_q W_kᵀ written with
//! (C, d) weights. Both are the same (C, C) table.

use serde::Serialize;

use super::{check_matrix, clean_trace, fail, LessonError, TraceView};
use crate::attention::{attend, head_forward, HeadTrace, HeadWeights};
use crate::tensor::{causal_or_none, dot, Matrix};

/// Checks x and the three weights a learner typed, then runs the head.
pub fn run_head(
    x: &Matrix,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
) -> Result<HeadTrace, LessonError> {
    check_matrix("x", x)?;
    check_matrix("W_q", &w.w_q)?;
    check_matrix("W_k", &w.w_k)?;
    check_matrix("W_v", &w.w_v)?;
    head_forward(x, w, causal, scaled).map_err(LessonError::from)
}

/// (C, C) M = W_qᵀ W_k for weights (d, C): score(t, s) = x_t M x_sᵀ.
pub fn compatibility(w: &HeadWeights) -> Matrix {
    w.w_q.transpose().matmul(&w.w_k) // (C, d) @ (d, C) -> (C, C)
}

/// A score computed via q, k and via M, and its mirror image.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreTwoWays {
    /// (C, C) compatibility matrix.
    pub m: Matrix,
    pub m_symmetric: bool,
    /// (T, T) q kᵀ (unscaled).
    pub scores_qk: Matrix,
    /// (T, T) x M xᵀ.
    pub scores_m: Matrix,
    /// max |scores_qk − scores_m| (0 up to rounding).
    pub max_err: f64,
    pub receiver: usize,
    pub source: usize,
    /// q_receiver · k_source (u→h = 4.0 in the lesson).
    pub score: f64,
    /// x_receiver M x_sourceᵀ, the same number computed the other way.
    pub score_via_m: f64,
    /// q_source · k_receiver (h→u = 1.0): not the same, attention is not symmetric.
    pub score_reversed: f64,
}

/// x (T, C), weights (d, C), receiver t, source s -> both ways of computing q_t · k_s.
pub fn score_two_ways(
    x: &Matrix,
    w: &HeadWeights,
    receiver: usize,
    source: usize,
) -> Result<ScoreTwoWays, LessonError> {
    let trace = run_head(x, w, false, false)?;
    if receiver >= x.rows || source >= x.rows {
        return fail!("lesson.head.pair_range", rows = x.rows, last = x.rows - 1);
    }
    let m = compatibility(w);
    let scores_m = x.matmul(&m).matmul_t(x); // (T, C) @ (C, C) @ (C, T) -> (T, T)
    Ok(ScoreTwoWays {
        m_symmetric: m == m.transpose(),
        max_err: scores_m.max_abs_diff(&trace.scores),
        score: trace.scores.get(receiver, source),
        score_via_m: scores_m.get(receiver, source),
        score_reversed: trace.scores.get(source, receiver),
        scores_qk: trace.scores,
        scores_m,
        m,
        receiver,
        source,
    })
}

/// One term weight · v_s of out[t].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Term {
    pub source: usize,
    pub weight: f64,
    /// (d_v,) v_s
    pub value: Vec<f64>,
    /// (d_v,) weight · v_s
    pub contribution: Vec<f64>,
}

/// out[t] = Σ_s wei[t][s] · v_s, term by term.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutputTerms {
    pub receiver: usize,
    pub terms: Vec<Term>,
    /// (d_v,) the sum of the contributions = out[t].
    pub out: Vec<f64>,
}

/// out[t] = Σ_s wei[t][s] v_s (u: 0.80·[10,0] + 0.02·[0,10] + 0.18·[5,5] = [8.87, 1.13]).
pub fn output_terms(trace: &HeadTrace, receiver: usize) -> Result<OutputTerms, LessonError> {
    if !trace.overflow_rows.is_empty() {
        return fail!("lesson.head.score_overflow");
    }
    if receiver >= trace.weights.rows {
        let n = trace.weights.rows;
        return fail!("lesson.head.receiver_range", n, last = n - 1);
    }
    let terms = (0..trace.v.rows)
        .map(|s| {
            let weight = trace.weights.get(receiver, s);
            let value = trace.v.row(s).to_vec();
            let contribution = value.iter().map(|v| weight * v).collect();
            Term {
                source: s,
                weight,
                value,
                contribution,
            }
        })
        .collect();
    Ok(OutputTerms {
        receiver,
        terms,
        out: trace.out.row(receiver).to_vec(),
    })
}

/// Same scores, new W_v: weights bit-identical, out moved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueChange {
    pub before: TraceView,
    pub after: TraceView,
    pub weights_identical: bool,
    pub out_max_change: f64,
}

/// Runs the head with W_v and with `new_w_v`: wei never depends on W_v.
pub fn value_change(
    x: &Matrix,
    w: &HeadWeights,
    new_w_v: &Matrix,
    causal: bool,
    scaled: bool,
) -> Result<ValueChange, LessonError> {
    let before = clean_trace(run_head(x, w, causal, scaled)?)?;
    let w2 = HeadWeights {
        w_v: new_w_v.clone(),
        ..w.clone()
    };
    let after = clean_trace(run_head(x, &w2, causal, scaled)?)?;
    Ok(ValueChange {
        weights_identical: bits(&before.weights) == bits(&after.weights),
        out_max_change: after.out.max_abs_diff(&before.out),
        before,
        after,
    })
}

fn bits(m: &Matrix) -> Vec<u64> {
    m.data.iter().map(|v| v.to_bits()).collect()
}

/// A head run with one bias added.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BiasRun {
    pub trace: TraceView,
    /// max |weights − weights without bias|.
    pub max_weight_change: f64,
}

/// k-bias (no effect after softmax) against q-bias (an effect).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BiasEffect {
    pub base: TraceView,
    /// k_s + b_k: row t gains the same (q_t · b_k)·scale everywhere.
    pub k_bias: BiasRun,
    /// (T,) the constant added to each row of scores by b_k.
    pub k_row_shift: Vec<f64>,
    /// q_t + b_q: score(t, s) gains (b_q · k_s)·scale, which depends on s.
    pub q_bias: BiasRun,
}

/// x (T, C), weights (d, C), b_q, b_k (d,) -> weights with each bias.
pub fn bias_effect(
    x: &Matrix,
    w: &HeadWeights,
    b_q: &[f64],
    b_k: &[f64],
    causal: bool,
    scaled: bool,
) -> Result<BiasEffect, LessonError> {
    let base = run_head(x, w, causal, scaled)?;
    let d = base.q.cols;
    if b_q.len() != d || b_k.len() != d {
        return fail!("lesson.head.bias_len", d, q = b_q.len(), k = b_k.len());
    }
    super::check_finite("b_q", b_q)?;
    super::check_finite("b_k", b_k)?;
    let mask = causal_or_none(causal, x.rows, x.rows);
    let add = |m: &Matrix, b: &[f64]| Matrix::from_fn(m.rows, m.cols, |r, c| m.get(r, c) + b[c]);
    let with_k = attend(
        base.q.clone(),
        add(&base.k, b_k),
        base.v.clone(),
        &mask,
        base.scale,
    );
    let with_q = attend(
        add(&base.q, b_q),
        base.k.clone(),
        base.v.clone(),
        &mask,
        base.scale,
    );
    let k_row_shift = (0..x.rows)
        .map(|t| dot(base.q.row(t), b_k) * base.scale)
        .collect();
    let run = |t: HeadTrace| -> Result<BiasRun, LessonError> {
        let max_weight_change = t.weights.max_abs_diff(&base.weights);
        Ok(BiasRun {
            trace: clean_trace(t)?,
            max_weight_change,
        })
    };
    Ok(BiasEffect {
        k_bias: run(with_k)?,
        q_bias: run(with_q)?,
        k_row_shift,
        base: clean_trace(base)?,
    })
}
