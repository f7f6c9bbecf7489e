//! §2 The ladder's side roads: the matrices that are not yet averages
//! (all ones, lower-triangular sums), why arbitrary scores cannot be
//! normalised by their sum, softmax over a −∞ mask one stage at a time,
//! the direction of normalisation, and the lost-`keepdim` trap.
//!
//! T = time, C = channels. Rows are receivers, columns are sources.

use serde::Serialize;

use super::{
    check_count, check_finite, check_matrix, check_the_matrix, fail, LessonError, MAX_SIDE,
};
use crate::schemes::{
    loop_average, lower_triangular_ones, matrix_average, normalize_rows, softmax_average,
    NormalizeError,
};
use crate::tensor::{softmax_row, Matrix};

/// A weighting matrix and what it does to x: out = weights @ x.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rung {
    /// (T, T)
    pub weights: Matrix,
    /// (T, C)
    pub out: Matrix,
}

/// Every rung of §2 on one x, plus how far the averages disagree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ladder {
    /// Scheme 1: out[t] = mean(x[0..=t]) by loops.
    pub loop_average: Rung,
    /// ones(T, T) @ x: every row is the total (and reads the future).
    pub all_ones: Rung,
    /// tril(ones) @ x: running sums.
    pub tril_sums: Rung,
    /// Scheme 2: tril(ones) / rowsum @ x.
    pub matrix_average: Rung,
    /// Scheme 3: softmax(masked zeros) @ x.
    pub softmax_average: Rung,
    /// max |scheme 2 − scheme 1| (float64 rounding, ≈ 2.22e-16).
    pub max_err_matrix_vs_loop: f64,
    /// max |scheme 3 − scheme 1|.
    pub max_err_softmax_vs_loop: f64,
}

/// x (T, C) -> every rung of the ladder; x must be 1..=64 × 1..=64 and finite.
pub fn ladder(x: &Matrix) -> Result<Ladder, LessonError> {
    check_matrix("x", x)?;
    let t_len = x.rows;
    let rung = |weights: Matrix| Rung {
        out: weights.matmul(x), // (T, T) @ (T, C) -> (T, C)
        weights,
    };
    let loop_avg = loop_average(x);
    let matrix_avg = matrix_average(x);
    let softmax_avg = softmax_average(x);
    Ok(Ladder {
        max_err_matrix_vs_loop: matrix_avg.out.max_abs_diff(&loop_avg.out),
        max_err_softmax_vs_loop: softmax_avg.out.max_abs_diff(&loop_avg.out),
        loop_average: Rung {
            weights: loop_avg.weights,
            out: loop_avg.out,
        },
        all_ones: rung(Matrix::filled(t_len, t_len, 1.0)),
        tril_sums: rung(lower_triangular_ones(t_len)),
        matrix_average: Rung {
            weights: matrix_avg.weights,
            out: matrix_avg.out,
        },
        softmax_average: Rung {
            weights: softmax_avg.weights,
            out: softmax_avg.out,
        },
    })
}

/// B·T: how many times the loop of scheme 1 runs per step (64 · 256 = 16 384).
pub fn loop_iterations(batch: u64, block_size: u64) -> u64 {
    batch.saturating_mul(block_size)
}

/// Arbitrary scores divided by their sum: weights[i] = s[i] / Σ s.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SumNormalised {
    pub scores: Vec<f64>,
    pub sum: f64,
    /// `null` when the sum is 0 (division by zero).
    pub weights: Option<Vec<f64>>,
    /// Positions whose weight came out negative.
    pub negative: Vec<usize>,
    pub divides_by_zero: bool,
}

/// s (n,) -> s / Σ s; [2, −1, 3] gives weight −0.25, [1, −1, 0] has no denominator.
pub fn normalize_by_sum(scores: &[f64]) -> Result<SumNormalised, LessonError> {
    check_count("lesson.size.scores", scores.len(), MAX_SIDE)?;
    check_finite("scores", scores)?;
    let row = Matrix::from_vec(1, scores.len(), scores.to_vec()).expect("1×n");
    let sum = row.row_sums()[0];
    let weights = match normalize_rows(&row) {
        Ok(w) => Some(w.data),
        Err(NormalizeError::ZeroSum { .. }) => None,
    };
    let negative = weights
        .as_ref()
        .map(|w| (0..w.len()).filter(|&i| w[i] < 0.0).collect())
        .unwrap_or_default();
    Ok(SumNormalised {
        scores: scores.to_vec(),
        sum,
        divides_by_zero: weights.is_none(),
        weights,
        negative,
    })
}

/// Softmax over a −∞ mask, every stage kept (all (n,)).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SoftmaxSteps {
    pub scores: Vec<f64>,
    pub allowed: Vec<bool>,
    /// ① scores with −∞ where not allowed.
    pub masked: Vec<f64>,
    /// ② e^masked (e^−∞ = 0); may reach +∞ for scores above 709.
    pub exp: Vec<f64>,
    /// ③ Σ exp.
    pub sum: f64,
    /// ④ exp / sum, computed max-subtracted so it never overflows; NaN when
    /// every position is masked (0 / 0: no denominator).
    pub weights: Vec<f64>,
    pub fully_masked: bool,
    /// True when some e^score overflowed (the weights are still right).
    pub exp_overflow: bool,
    /// The wrong order: softmax of the raw scores, then zero the masked ones.
    pub mask_after_weights: Vec<f64>,
    /// Σ mask_after_weights: below 1 whenever a future score was allowed weight.
    pub mask_after_sum: f64,
}

/// scores (n,), allowed (n,) -> masked, e^x, Σ, softmax, and mask-after-softmax.
pub fn masked_softmax_steps(scores: &[f64], allowed: &[bool]) -> Result<SoftmaxSteps, LessonError> {
    check_count("lesson.size.scores", scores.len(), MAX_SIDE)?;
    check_finite("scores", scores)?;
    if allowed.len() != scores.len() {
        let (scores, flags) = (scores.len(), allowed.len());
        return fail!("lesson.ladder.flags", scores, flags);
    }
    let masked: Vec<f64> = scores
        .iter()
        .zip(allowed)
        .map(|(&s, &a)| if a { s } else { f64::NEG_INFINITY })
        .collect();
    let exp: Vec<f64> = masked.iter().map(|m| m.exp()).collect();
    let sum: f64 = exp.iter().sum();
    let fully_masked = !allowed.iter().any(|&a| a);
    let weights = softmax_row(&masked).unwrap_or_else(|| vec![f64::NAN; scores.len()]);
    let raw = softmax_row(scores).expect("finite scores always normalise");
    let mask_after_weights: Vec<f64> = raw
        .iter()
        .zip(allowed)
        .map(|(&p, &a)| if a { p } else { 0.0 })
        .collect();
    Ok(SoftmaxSteps {
        scores: scores.to_vec(),
        allowed: allowed.to_vec(),
        exp_overflow: exp.iter().any(|e| e.is_infinite()),
        masked,
        exp,
        sum,
        weights,
        fully_masked,
        mask_after_sum: mask_after_weights.iter().sum(),
        mask_after_weights,
    })
}

/// One matrix normalised three ways; `null` where a sum is 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Directions {
    pub row_sums: Vec<f64>,
    pub col_sums: Vec<f64>,
    pub total: f64,
    /// a[r][c] / row_sums[r]: each row sums to 1 (attention, LayerNorm's axis).
    pub by_rows: Option<Matrix>,
    /// a[r][c] / col_sums[c]: each column sums to 1 (BatchNorm's axis).
    pub by_columns: Option<Matrix>,
    /// a[r][c] / total: the whole matrix sums to 1.
    pub whole: Option<Matrix>,
}

/// a (R, C) -> row-, column- and whole-normalised; [[1,1,0],[2,1,1],[3,3,2]] → row 3 [0.38, 0.38, 0.25].
pub fn normalize_directions(a: &Matrix) -> Result<Directions, LessonError> {
    check_the_matrix(a)?;
    let row_sums = a.row_sums();
    let col_sums = a.transpose().row_sums();
    let total: f64 = a.data.iter().sum();
    let divide = |sums: &[f64], by_row: bool| {
        if sums.contains(&0.0) {
            return None;
        }
        Some(Matrix::from_fn(a.rows, a.cols, |r, c| {
            a.get(r, c) / sums[if by_row { r } else { c }]
        }))
    };
    Ok(Directions {
        by_rows: divide(&row_sums, true),
        by_columns: divide(&col_sums, false),
        whole: (total != 0.0).then(|| a.map(|v| v / total)),
        row_sums,
        col_sums,
        total,
    })
}

/// `wei / wei.sum(1, keepdim=True)` against the trap `wei / wei.sum(1)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeepdimTrap {
    /// (T,) the row sums.
    pub sums: Vec<f64>,
    /// (T, T) a[r][c] / sums[r]: sums kept as (T, 1), broadcast along columns.
    pub right: Matrix,
    /// (T, T) a[r][c] / sums[c]: a (T,) vector broadcasts as (1, T), along rows.
    pub wrong: Matrix,
    pub right_row_sums: Vec<f64>,
    pub wrong_row_sums: Vec<f64>,
    /// max |wrong − right|: silently non-zero, no error raised.
    pub max_err: f64,
}

/// a (T, T) -> a / sums[:, None] vs a / sums[None, :]; default a = tril(ones(T, T)).
pub fn keepdim_trap(a: &Matrix) -> Result<KeepdimTrap, LessonError> {
    check_the_matrix(a)?;
    if a.rows != a.cols {
        return fail!("lesson.ladder.trap_square", rows = a.rows, cols = a.cols);
    }
    let sums = a.row_sums();
    if let Some(r) = sums.iter().position(|&s| s == 0.0) {
        return fail!("lesson.ladder.zero_row", row = r);
    }
    let right = Matrix::from_fn(a.rows, a.cols, |r, c| a.get(r, c) / sums[r]);
    let wrong = Matrix::from_fn(a.rows, a.cols, |r, c| a.get(r, c) / sums[c]);
    Ok(KeepdimTrap {
        right_row_sums: right.row_sums(),
        wrong_row_sums: wrong.row_sums(),
        max_err: wrong.max_abs_diff(&right),
        sums,
        right,
        wrong,
    })
}
