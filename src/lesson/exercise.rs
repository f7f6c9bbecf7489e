//! §6 The lesson-1 exercise replayed: NumPy's `default_rng(0)` X and W, and
//! the three blanks (score line, mask, softmax axis) with candidates. Any
//! combination runs; only scaled + strict-upper + last axis gives the
//! expected output.
//!
//! T = 4 tokens, d_model = 8, d_k = d_v = 16. Row-vector convention of the
//! exercise: Q = X W_q with W (d_model, d_k). The mask is NumPy's: `true`
//! marks a future cell, filled with −∞ by `np.where(mask, -inf, scores)`.
//! Softmax is NumPy's (x − max, exp, / sum) along the chosen axis, so a line
//! with every cell −∞ becomes NaN exactly as in NumPy.

use serde::Serialize;

use super::lesson1_data::{OUT, WEIGHTS, W_K, W_Q, W_V, X};
use super::{fail, LessonError};
use crate::tensor::Matrix;

/// Blank 1: the score line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreLine {
    /// Q Kᵀ / √d_k (the answer).
    Scaled,
    /// Q Kᵀ.
    Unscaled,
    /// Q Kᵀ / d_k.
    DividedByDk,
}

/// Blank 2: which cells the mask marks as future.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskLine {
    /// `np.triu(ones, k=1)`: s > t (the answer).
    StrictUpper,
    /// `np.tril(ones)`: s ≤ t, the past and the present are hidden instead.
    Lower,
    /// No cell masked.
    None,
    /// `np.eye`: each token hides only itself.
    Diagonal,
}

/// Blank 3: the axis softmax normalises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftmaxAxis {
    /// axis = −1: over sources, each row sums to 1 (the answer).
    Last,
    /// axis = −2: over receivers, each column sums to 1.
    Receivers,
}

impl ScoreLine {
    /// "scaled" | "unscaled" | "dk".
    pub fn parse(s: &str) -> Result<ScoreLine, LessonError> {
        match s {
            "scaled" => Ok(ScoreLine::Scaled),
            "unscaled" => Ok(ScoreLine::Unscaled),
            "dk" => Ok(ScoreLine::DividedByDk),
            _ => fail!("lesson.exercise.score_line", choice = s),
        }
    }

    /// The NumPy line this choice stands for.
    pub fn code(self) -> &'static str {
        match self {
            ScoreLine::Scaled => "scores = Q @ K.swapaxes(-2, -1) / np.sqrt(d_k)",
            ScoreLine::Unscaled => "scores = Q @ K.swapaxes(-2, -1)",
            ScoreLine::DividedByDk => "scores = Q @ K.swapaxes(-2, -1) / d_k",
        }
    }

    fn divisor(self, d_k: usize) -> f64 {
        match self {
            ScoreLine::Scaled => (d_k as f64).sqrt(),
            ScoreLine::Unscaled => 1.0,
            ScoreLine::DividedByDk => d_k as f64,
        }
    }
}

impl MaskLine {
    /// "upper" | "lower" | "none" | "diagonal".
    pub fn parse(s: &str) -> Result<MaskLine, LessonError> {
        match s {
            "upper" => Ok(MaskLine::StrictUpper),
            "lower" => Ok(MaskLine::Lower),
            "none" => Ok(MaskLine::None),
            "diagonal" => Ok(MaskLine::Diagonal),
            _ => fail!("lesson.exercise.mask", choice = s),
        }
    }

    /// The NumPy line this choice stands for.
    pub fn code(self) -> &'static str {
        match self {
            MaskLine::StrictUpper => "mask = np.triu(np.ones((T, T), dtype=bool), k=1)",
            MaskLine::Lower => "mask = np.tril(np.ones((T, T), dtype=bool))",
            MaskLine::None => "mask = np.zeros((T, T), dtype=bool)",
            MaskLine::Diagonal => "mask = np.eye(T, dtype=bool)",
        }
    }

    /// Is cell (t, s) marked (filled with −∞)?
    pub fn hides(self, t: usize, s: usize) -> bool {
        match self {
            MaskLine::StrictUpper => s > t,
            MaskLine::Lower => s <= t,
            MaskLine::None => false,
            MaskLine::Diagonal => s == t,
        }
    }
}

impl SoftmaxAxis {
    /// "last" | "-1" | "receivers" | "-2".
    pub fn parse(s: &str) -> Result<SoftmaxAxis, LessonError> {
        match s {
            "last" | "-1" => Ok(SoftmaxAxis::Last),
            "receivers" | "-2" => Ok(SoftmaxAxis::Receivers),
            _ => fail!("lesson.exercise.axis", choice = s),
        }
    }

    /// The NumPy line this choice stands for.
    pub fn code(self) -> &'static str {
        match self {
            SoftmaxAxis::Last => "weights = softmax(scores, axis=-1)",
            SoftmaxAxis::Receivers => "weights = softmax(scores, axis=-2)",
        }
    }
}

/// The exercise's inputs as matrices: X (4, 8), W_q, W_k, W_v (8, 16).
pub fn lesson1_inputs() -> (Matrix, Matrix, Matrix, Matrix) {
    (
        Matrix::from_rows(&X).unwrap(),
        Matrix::from_rows(&W_Q).unwrap(),
        Matrix::from_rows(&W_K).unwrap(),
        Matrix::from_rows(&W_V).unwrap(),
    )
}

/// The expected (weights (4, 4), out (4, 16)) printed by the exercise.
pub fn lesson1_expected() -> (Matrix, Matrix) {
    (
        Matrix::from_rows(&WEIGHTS).unwrap(),
        Matrix::from_rows(&OUT).unwrap(),
    )
}

/// (R, C) -> (R, C): NumPy's softmax along rows: e^(x − max) / Σ e^(x − max);
/// an all-−∞ row gives NaN (−∞ − (−∞)), as NumPy does.
pub fn numpy_softmax_rows(x: &Matrix) -> Matrix {
    let mut out = x.clone();
    for r in 0..x.rows {
        let max = x.row(r).iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = x.row(r).iter().map(|v| (v - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        for (o, e) in out.row_mut(r).iter_mut().zip(&exps) {
            *o = e / sum;
        }
    }
    out
}

/// Everything one choice of the three blanks produces.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExerciseRun {
    /// The three chosen lines of code.
    pub code: [&'static str; 3],
    pub q: Matrix,
    pub k: Matrix,
    pub v: Matrix,
    /// (T, T) after the score line.
    pub scores: Matrix,
    /// (T, T) after the mask line (−∞ in marked cells).
    pub masked_scores: Matrix,
    /// (T, T) after the softmax line (NaN where a line was fully masked).
    pub weights: Matrix,
    /// (T, d_v) weights @ V.
    pub out: Matrix,
    pub row_sums: Vec<f64>,
    pub col_sums: Vec<f64>,
    pub has_nan: bool,
    /// max |weights − expected| and max |out − expected| (∞ when NaN).
    pub weights_max_err: f64,
    pub out_max_err: f64,
    /// Both within 1e-12 of the expected numbers.
    pub matches_expected: bool,
    pub expected_weights: Matrix,
    pub expected_out: Matrix,
}

/// One pass of the exercise's `attention(Q, K, V, causal=True)` with the chosen lines.
pub fn exercise_run(score: ScoreLine, mask: MaskLine, axis: SoftmaxAxis) -> ExerciseRun {
    let (x, w_q, w_k, w_v) = lesson1_inputs();
    let q = x.matmul(&w_q); // (T, d_model) @ (d_model, d_k) -> (T, d_k)
    let k = x.matmul(&w_k);
    let v = x.matmul(&w_v); // (T, d_v)
    let d_k = q.cols;
    let divisor = score.divisor(d_k);
    let scores = q.matmul_t(&k).map(|s| s / divisor); // (T, d_k) @ (d_k, T) -> (T, T)
    let t_len = scores.rows;
    let masked_scores = Matrix::from_fn(t_len, t_len, |t, s| {
        if mask.hides(t, s) {
            f64::NEG_INFINITY
        } else {
            scores.get(t, s)
        }
    });
    let weights = match axis {
        SoftmaxAxis::Last => numpy_softmax_rows(&masked_scores),
        SoftmaxAxis::Receivers => numpy_softmax_rows(&masked_scores.transpose()).transpose(),
    };
    let out = weights.matmul(&v); // (T, T) @ (T, d_v) -> (T, d_v)
    let (expected_weights, expected_out) = lesson1_expected();
    let weights_max_err = weights.max_abs_diff(&expected_weights);
    let out_max_err = out.max_abs_diff(&expected_out);
    ExerciseRun {
        code: [score.code(), mask.code(), axis.code()],
        row_sums: weights.row_sums(),
        col_sums: weights.transpose().row_sums(),
        has_nan: weights.data.iter().any(|w| w.is_nan()),
        matches_expected: weights_max_err <= 1e-12 && out_max_err <= 1e-12,
        weights_max_err,
        out_max_err,
        q,
        k,
        v,
        scores,
        masked_scores,
        weights,
        out,
        expected_weights,
        expected_out,
    }
}
