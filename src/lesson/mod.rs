//! Every demonstration of the lesson (LESSON.md §1–§8) as plain Rust: one
//! concept per file, each returning a struct holding every number the page
//! draws, so the page only maps numbers to pixels.
//!
//! T = time (sequence length), C = channels, d = head size (d_k = d_v unless
//! said), V = vocabulary size, B = batch, H = heads.
//! Results derive `Serialize`: matrices serialise as `{ rows, cols, data }`
//! (row-major, −∞ and NaN kept as numbers by the boundary's tape, src/serialize/), which is the
//! contract of the wasm boundary. Functions that take learner input return
//! `Result<_, LessonError>` whose message says what to change.

pub mod answers;
pub mod backward;
pub mod bigram;
pub mod content;
pub mod error;
pub mod exercise;
pub mod head_experiments;
pub mod init_loss;
pub mod ladder;
mod lesson1_data;
pub mod multihead;
pub mod notes;
pub mod portable_draws;
pub mod position;
pub mod practice;
pub mod proofs;
pub mod scaling;

use serde::Serialize;

use crate::attention::HeadTrace;
use crate::tensor::Matrix;

/// Largest side of a matrix a learner may hand in (keeps a hostile URL small).
pub const MAX_SIDE: usize = 64;

pub(crate) use error::fail;
pub use error::LessonError;

/// Checks 1 ≤ n ≤ max for a size the learner chose, named by a symbol (T, d, n_embd).
pub(crate) fn check_size(name: &str, n: usize, max: usize) -> Result<(), LessonError> {
    if n == 0 || n > max {
        return fail!("lesson.size", name, max, n);
    }
    Ok(())
}

/// Checks 1 ≤ n ≤ max for a count whose sentence is its own code ("the number of
/// scores must be …"): a `lesson.size.*` code, so the page can say the whole sentence.
pub(crate) fn check_count(code: &'static str, n: usize, max: usize) -> Result<(), LessonError> {
    if n == 0 || n > max {
        return Err(LessonError::new(
            code,
            vec![("max", max.into()), ("n", n.into())],
        ));
    }
    Ok(())
}

/// Checks a learner's matrix: 1..=MAX_SIDE rows and columns, every entry finite.
pub fn check_matrix(name: &str, m: &Matrix) -> Result<(), LessonError> {
    if !fits(m) {
        let (max, rows, cols) = (MAX_SIDE, m.rows, m.cols);
        return fail!("lesson.matrix.size", name, max, rows, cols);
    }
    check_finite(name, &m.data)
}

/// `check_matrix` for a matrix the sentence calls "the matrix".
pub(crate) fn check_the_matrix(m: &Matrix) -> Result<(), LessonError> {
    if !fits(m) {
        let (max, rows, cols) = (MAX_SIDE, m.rows, m.cols);
        return fail!("lesson.the_matrix.size", max, rows, cols);
    }
    match m.data.iter().position(|v| !v.is_finite()) {
        Some(i) => fail!("lesson.the_matrix.not_finite", i),
        None => Ok(()),
    }
}

fn fits(m: &Matrix) -> bool {
    (1..=MAX_SIDE).contains(&m.rows) && (1..=MAX_SIDE).contains(&m.cols)
}

/// Checks that every entry of a learner's list is a finite number.
pub fn check_finite(name: &str, values: &[f64]) -> Result<(), LessonError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => fail!("lesson.not_finite", name, i),
        None => Ok(()),
    }
}

/// `HeadLab.state()`, the inputs of the head the page edits: `{ tokens, x, W_q, W_k,
/// W_v, causal, scaled }`.
#[derive(Serialize)]
pub struct HeadState<'a> {
    pub tokens: &'a [String],
    pub x: &'a Matrix,
    #[serde(rename = "W_q")]
    pub w_q: &'a Matrix,
    #[serde(rename = "W_k")]
    pub w_k: &'a Matrix,
    #[serde(rename = "W_v")]
    pub w_v: &'a Matrix,
    pub causal: bool,
    pub scaled: bool,
}

/// One head's forward pass as the page draws it (every intermediate).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceView {
    pub q: Matrix,
    pub k: Matrix,
    pub v: Matrix,
    pub scale: f64,
    pub scores: Matrix,
    pub masked_scores: Matrix,
    pub weights: Matrix,
    pub out: Matrix,
    pub fully_masked_rows: Vec<usize>,
}

impl From<HeadTrace> for TraceView {
    fn from(t: HeadTrace) -> TraceView {
        TraceView {
            q: t.q,
            k: t.k,
            v: t.v,
            scale: t.scale,
            scores: t.scores,
            masked_scores: t.masked_scores,
            weights: t.weights,
            out: t.out,
            fully_masked_rows: t.fully_masked_rows,
        }
    }
}

/// Checks a head's trace for overflow so the learner hears why, not NaN.
pub(crate) fn clean_trace(t: HeadTrace) -> Result<TraceView, LessonError> {
    let finite = [&t.q, &t.k, &t.v, &t.scores, &t.weights, &t.out]
        .iter()
        .all(|m| m.is_finite());
    if !t.overflow_rows.is_empty() || !finite {
        return fail!("lesson.head.overflow");
    }
    Ok(TraceView::from(t))
}

pub use crate::tensor::max_abs_diff;
