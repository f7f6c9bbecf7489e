//! The formula softmax(mask(QKᵀ/√d_k))·V walked through in five steps, each
//! naming the LaTeX term to highlight and the matrix it produces.

use serde::Serialize;

use crate::attention::HeadTrace;
use crate::tensor::{Mask, Matrix};

/// The formula as the page typesets it; every `Step::term` occurs in it once.
pub const FORMULA: &str =
    r"\mathrm{softmax}\left(\mathrm{mask}\left(\frac{QK^\top}{\sqrt{d_k}}\right)\right)V";

/// One step of the formula and the numbers it produces.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// "qk", "scale", "mask", "softmax" or "weighted_sum".
    pub name: &'static str,
    /// The part of `FORMULA` this step computes, and its byte range there.
    pub term: &'static str,
    pub span: (usize, usize),
    /// The matrices it reads: trace field names, or "qk" for step 1's output.
    pub reads: &'static [&'static str],
    /// The matrix it produces: a trace field name, or "qk" for the unscaled
    /// q kᵀ (the trace keeps it only as `scores` when unscaled).
    pub produces: &'static str,
    /// False when the step leaves the numbers as they were (no scaling, nothing masked).
    pub active: bool,
    /// The scale step's 1/√d_k.
    pub factor: Option<f64>,
    /// The mask step's number of forbidden (query, key) pairs.
    pub masked_cells: Option<usize>,
    /// The produced matrix, as `{ rows, cols, data }`.
    pub output: Matrix,
}

fn span(term: &str) -> (usize, usize) {
    // A plain byte search: `str::find` with a `&str` links the Two-Way searcher (~2 KB).
    let start = FORMULA
        .as_bytes()
        .windows(term.len())
        .position(|w| w == term.as_bytes())
        .expect("every term is in the formula");
    (start, start + term.len())
}

fn step(
    name: &'static str,
    term: &'static str,
    reads: &'static [&'static str],
    produces: &'static str,
    output: Matrix,
) -> Step {
    Step {
        name,
        term,
        span: span(term),
        reads,
        produces,
        active: true,
        factor: None,
        masked_cells: None,
        output,
    }
}

/// QKᵀ → ·1/√d_k → mask → softmax → ·V for a trace made with `mask`.
/// (T_out, d) (d, T_in) -> (T_out, T_in) -> … -> (T_out, d_v).
pub fn formula_steps(trace: &HeadTrace, mask: &Mask) -> Vec<Step> {
    let qk = trace.q.matmul_t(&trace.k); // (T_out, d) @ (d, T_in): scores before the scale
    let masked_cells = mask.allowed.iter().filter(|a| !**a).count();
    let mut scale = step(
        "scale",
        r"\sqrt{d_k}",
        &["qk"],
        "scores",
        trace.scores.clone(),
    );
    scale.active = trace.scale != 1.0;
    scale.factor = Some(trace.scale);
    let mut masking = step(
        "mask",
        r"\mathrm{mask}",
        &["scores"],
        "masked_scores",
        trace.masked_scores.clone(),
    );
    masking.active = masked_cells > 0;
    masking.masked_cells = Some(masked_cells);
    vec![
        step("qk", r"QK^\top", &["q", "k"], "qk", qk),
        scale,
        masking,
        step(
            "softmax",
            r"\mathrm{softmax}",
            &["masked_scores"],
            "weights",
            trace.weights.clone(),
        ),
        step(
            "weighted_sum",
            "V",
            &["weights", "v"],
            "out",
            trace.out.clone(),
        ),
    ]
}
