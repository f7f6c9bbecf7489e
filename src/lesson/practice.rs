//! §8 Practice: the chapter's exercises as numbers (scores [0, ln 2, 0],
//! values 2, 4, 10; softmax on the wrong axis of a (B, T, T) tensor; adding
//! c to every value). Checking typed answers is `answers`.
//!
//! B = batch, T = time, d = head size.

use serde::Serialize;

use super::portable_draws::Rng;
use super::{check_count, check_finite, check_size, fail, LessonError, MAX_SIDE};
use crate::tensor::{causal_mask, dot, masked_fill, softmax_row, Matrix};

/// Weights from scores and the output they give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeightedOutput {
    pub scores: Vec<f64>,
    /// softmax(scores): [1/4, 1/2, 1/4] for [0, ln 2, 0].
    pub weights: Vec<f64>,
    pub values: Vec<f64>,
    /// Σ weights · values: 5 for values 2, 4, 10.
    pub output: f64,
}

/// scores (n,), scalar values (n,) -> softmax(scores) and Σ w·v.
pub fn weighted_output(scores: &[f64], values: &[f64]) -> Result<WeightedOutput, LessonError> {
    check_count("lesson.size.scores", scores.len(), MAX_SIDE)?;
    check_finite("scores", scores)?;
    check_finite("values", values)?;
    if values.len() != scores.len() {
        let (scores, values) = (scores.len(), values.len());
        return fail!("lesson.practice.values", scores, values);
    }
    let Some(weights) = softmax_row(scores) else {
        return fail!("lesson.practice.overflow");
    };
    Ok(WeightedOutput {
        output: dot(&weights, values),
        scores: scores.to_vec(),
        weights,
        values: values.to_vec(),
    })
}

/// softmax over the right and the wrong axis of a (B, T, T) score tensor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WrongAxis {
    /// B masked score matrices (T, T).
    pub scores: Vec<Matrix>,
    /// softmax(dim=-1): over sources, each row sums to 1.
    pub right: Vec<Matrix>,
    /// softmax(dim=1): over receivers, each column sums to 1 instead.
    pub wrong: Vec<Matrix>,
    /// Row sums of `wrong`, per batch element: not 1.
    pub wrong_row_sums: Vec<Vec<f64>>,
    /// Column sums of `wrong`: 1.
    pub wrong_col_sums: Vec<Vec<f64>>,
    pub max_err: f64,
}

/// seed, B ≤ 4, T ≤ 16 -> causal N(0, 1) scores and softmax over dim −1 vs dim 1.
pub fn wrong_axis(seed: u64, b_len: usize, t_len: usize) -> Result<WrongAxis, LessonError> {
    check_size("B", b_len, 4)?;
    check_size("T", t_len, 16)?;
    let mut rng = Rng::new(seed);
    let mask = causal_mask(t_len, t_len);
    let soft = |m: &Matrix| {
        let mut out = m.clone();
        for r in 0..m.rows {
            let p = softmax_row(m.row(r)).expect("each row or column keeps one cell");
            out.row_mut(r).copy_from_slice(&p);
        }
        out
    };
    let scores: Vec<Matrix> = (0..b_len)
        .map(|_| {
            masked_fill(
                &rng.normal_matrix(t_len, t_len, 1.0),
                &mask,
                f64::NEG_INFINITY,
            )
        })
        .collect();
    let right: Vec<Matrix> = scores.iter().map(soft).collect();
    let wrong: Vec<Matrix> = scores
        .iter()
        .map(|s| soft(&s.transpose()).transpose())
        .collect();
    let max_err = right
        .iter()
        .zip(&wrong)
        .map(|(r, w)| r.max_abs_diff(w))
        .fold(0.0, f64::max);
    Ok(WrongAxis {
        wrong_row_sums: wrong.iter().map(|w| w.row_sums()).collect(),
        wrong_col_sums: wrong.iter().map(|w| w.transpose().row_sums()).collect(),
        max_err,
        scores,
        right,
        wrong,
    })
}

/// Adding c to every value adds c to every output (rows of weights sum to 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShiftValues {
    pub c: f64,
    pub out: Matrix,
    pub out_shifted: Matrix,
    /// max |out_shifted − (out + c)|: rounding only.
    pub max_err: f64,
}

/// seed, T ≤ 16, d ≤ 16, c -> causal head on N(0, 1) q, k, v with v and v + c.
pub fn shift_values(seed: u64, t_len: usize, d: usize, c: f64) -> Result<ShiftValues, LessonError> {
    check_size("T", t_len, 16)?;
    check_size("d", d, 16)?;
    check_finite("c", &[c])?;
    if c.abs() > 1e6 {
        return fail!("lesson.practice.c_range");
    }
    let mut rng = Rng::new(seed);
    let (q, k, v) = (
        rng.normal_matrix(t_len, d, 1.0),
        rng.normal_matrix(t_len, d, 1.0),
        rng.normal_matrix(t_len, d, 1.0),
    );
    let mask = causal_mask(t_len, t_len);
    let scale = 1.0 / (d as f64).sqrt();
    let out = crate::attention::attend(q.clone(), k.clone(), v.clone(), &mask, scale).out;
    let out_shifted = crate::attention::attend(q, k, v.map(|x| x + c), &mask, scale).out;
    Ok(ShiftValues {
        c,
        max_err: out_shifted.max_abs_diff(&out.map(|x| x + c)),
        out,
        out_shifted,
    })
}
