//! The lesson's other grids explained, each from the inputs its widget draws
//! with and by the same arithmetic as the lesson function that drew it:
//! M = W_qᵀW_k and x M xᵀ (`score_two_ways`), normalising by rows / columns /
//! the whole and the keepdim trap (`normalize_directions`, `keepdim_trap`), the
//! sinusoidal table (`sinusoidal`), the exercise's weights (`exercise_run`) and
//! softmax on the right and the wrong axis (`wrong_axis`). The heads the lesson
//! draws from a seed are in `seeded`.

use super::body::{Axis, Bilinear, Body, NoValueReason, Over, Sinusoid, SourceCell};
use super::build::{self, Operand};
use super::error::shape_error;
use super::head::{explain_head, HeadInputs};
use super::{Cell, ExplainError, Explanation, Kind};
use crate::attention::HeadWeights;
use crate::lesson::exercise::{exercise_run, MaskLine, ScoreLine, SoftmaxAxis};
use crate::lesson::head_experiments::{compatibility, run_head};
use crate::lesson::practice::wrong_axis;
use crate::lesson::{LessonError, MAX_SIDE};
use crate::tensor::{Mask, Matrix};

type Parts = (f64, Body, Vec<SourceCell>);

fn src(matrix: &'static str, row: usize, col: usize) -> SourceCell {
    SourceCell { matrix, row, col }
}

fn lesson_err(e: LessonError) -> ExplainError {
    ExplainError::Lesson(e)
}

fn not_here(kind: Kind, what: &'static str) -> ExplainError {
    ExplainError::NotHere { kind, what }
}

fn row_of(m: &Matrix, name: &'static str, r: usize) -> Vec<Operand> {
    (0..m.cols)
        .map(|c| (m.get(r, c), src(name, r, c)))
        .collect()
}

fn col_of(m: &Matrix, name: &'static str, c: usize) -> Vec<Operand> {
    (0..m.rows)
        .map(|r| (m.get(r, c), src(name, r, c)))
        .collect()
}

/// The head probe (§3): "M" (C, C) = W_qᵀ W_k, a dot product over d of column a
/// of W_q and column b of W_k; "x M xᵀ" (T, T), the row x_t M and then its dot
/// product with x_s; "scores" (T, T) = q kᵀ, unscaled and unmasked, as drawn.
pub fn explain_compat(
    x: &Matrix,
    w: &HeadWeights,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let trace = run_head(x, w, false, false).map_err(lesson_err)?;
    let (t_len, c) = (x.rows, x.cols);
    let m = compatibility(w); // (C, d) @ (d, C), checked by run_head
    let (value, body, sources) = match cell.kind {
        Kind::Score => {
            let mask = Mask::none(t_len, t_len);
            let inputs = HeadInputs {
                x_q: x,
                x_kv: x,
                w,
                mask: &mask,
            };
            let e = explain_head(&trace, inputs, cell, max_terms)?;
            return Ok(e.not_drawn(&[("q", "head_q"), ("k", "head_k")]));
        }
        Kind::M => {
            cell.check((c, c))?;
            let (a, b) = (cell.row, cell.col);
            let (dot, sources) = build::dot(
                &col_of(&w.w_q, "W_q", a),
                &col_of(&w.w_k, "W_k", b),
                max_terms,
            );
            (dot.sum, Body::Dot(dot), sources)
        }
        Kind::ViaM => {
            cell.check((t_len, t_len))?;
            via_m(x, &m, cell.row, cell.col, max_terms)
        }
        kind => return Err(not_here(kind, "probe")),
    };
    let elsewhere = [
        ("W_q", "head_weights"),
        ("W_k", "head_weights"),
        ("x", "head_input"),
    ];
    Ok(Explanation::new(cell, value, body, sources).not_drawn(&elsewhere))
}

/// (x M xᵀ)[t][s] = Σ_j (Σ_c x[t][c]·M[c][j])·x[s][j], as `x.matmul(M).matmul_t(x)`.
fn via_m(x: &Matrix, m: &Matrix, t: usize, s: usize, max_terms: usize) -> Parts {
    let x_t = row_of(x, "x", t);
    let first: Vec<_> = (0..m.cols)
        .map(|j| build::dot(&x_t, &col_of(m, "M", j), max_terms).0)
        .collect();
    let xm: Vec<Operand> = first
        .iter()
        .enumerate()
        .map(|(j, d)| (d.sum, src("x M", t, j)))
        .collect();
    let (then, _) = build::dot(&xm, &row_of(x, "x", s), max_terms);
    let mut sources: Vec<SourceCell> = x_t.iter().map(|o| o.1).collect();
    sources.extend((0..m.rows).flat_map(|r| (0..m.cols).map(move |c| src("M", r, c))));
    sources.extend((0..x.cols).map(|c| src("x", s, c)));
    let value = then.sum;
    (value, Body::Bilinear(Bilinear { first, then }), sources)
}

/// The normalising widget (§2) on A: "by_rows", "by_columns", "whole" divide an
/// entry by its row's, column's or the matrix's sum; "right" is `A / A.sum(1,
/// keepdim=True)` (by rows) and "wrong" `A / A.sum(1)`, which divides column c by
/// row c's sum. Sources are named "A". A grid whose sums include a 0 is not drawn:
/// asking for it is an error.
pub fn explain_normalize(
    a: &Matrix,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let (rows, cols) = (a.rows, a.cols);
    cell.check((rows, cols))?;
    let (r, c) = (cell.row, cell.col);
    let zero_row = a.row_sums().iter().position(|&s| s == 0.0);
    let numerator = (a.get(r, c), src("A", r, c));
    let (by, over) = match cell.kind {
        Kind::ByRows | Kind::Right | Kind::Wrong => {
            if let Some(i) = zero_row {
                return Err(shape_error!("explain.zero_sum.row", i = i));
            }
            if cell.kind != Kind::Wrong {
                (row_of(a, "A", r), Over::Row)
            } else if rows != cols {
                return Err(shape_error!(
                    "explain.shape.keepdim_square",
                    rows = rows,
                    cols = cols
                ));
            } else {
                (row_of(a, "A", c), Over::RowOfColumn)
            }
        }
        Kind::ByColumns => {
            let col_sums = a.transpose().row_sums();
            if let Some(i) = col_sums.iter().position(|&s| s == 0.0) {
                return Err(shape_error!("explain.zero_sum.column", i = i));
            }
            (col_of(a, "A", c), Over::Column)
        }
        Kind::Whole => {
            if a.data.iter().sum::<f64>() == 0.0 {
                return Err(shape_error!("explain.zero_sum.all"));
            }
            let all: Vec<Operand> = (0..rows).flat_map(|i| row_of(a, "A", i)).collect();
            (all, Over::All)
        }
        kind => return Err(not_here(kind, "normalise")),
    };
    let (value, body, sources) = build::normalise_by(&numerator, &by, over, max_terms);
    Ok(Explanation::new(
        cell,
        value,
        Body::Normalise(body),
        sources,
    ))
}

/// The fixed sinusoidal table (§4), "PE" (T, C): PE[pos][2i] = sin(pos / 10000^(2i/C)),
/// PE[pos][2i+1] = cos(…), computed as `position::sinusoidal` does. T, C in 1..=64.
pub fn explain_sinusoid(t_len: usize, c: usize, cell: Cell) -> Result<Explanation, ExplainError> {
    if cell.kind != Kind::Pe {
        return Err(not_here(cell.kind, "position"));
    }
    for (name, n) in [("T", t_len), ("C", c)] {
        if n == 0 || n > MAX_SIDE {
            return Err(shape_error!(
                "explain.shape.size",
                name = name,
                max = MAX_SIDE,
                n = n
            ));
        }
    }
    cell.check((t_len, c))?;
    let (pos, j) = (cell.row, cell.col);
    let two_i = j - j % 2;
    let exponent = two_i as f64 / c as f64;
    let wavelength = 10000f64.powf(exponent);
    let angle = pos as f64 / wavelength;
    let cos = j % 2 == 1;
    let value = if cos { angle.cos() } else { angle.sin() };
    let body = Body::Sinusoid(Sinusoid {
        pos,
        pair: two_i / 2,
        two_i,
        d: c,
        exponent,
        wavelength,
        angle,
        cos,
    });
    Ok(Explanation::new(cell, value, body, Vec::new()))
}

/// Softmax of `line` (a row or column of masked scores, −∞ where masked) at
/// index `at`: None when every score is −∞ (NumPy then gives NaN).
fn softmax_along(line: &[Operand], at: usize, axis: Axis, max_terms: usize) -> Option<Parts> {
    let masked: Vec<bool> = line.iter().map(|o| o.0 == f64::NEG_INFINITY).collect();
    let (value, mut body, sources) = build::softmax(line, &masked, at, max_terms)?;
    body.axis = axis;
    Some((value, Body::Softmax(body), sources))
}

/// A weight of a softmax along `axis` of `masked` (named "masked_scores"); NaN
/// (as NumPy computes it) where every score of that row or column is −∞.
fn weight_along(
    masked: &Matrix,
    cell: Cell,
    axis: Axis,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    cell.check((masked.rows, masked.cols))?;
    let (t, s) = (cell.row, cell.col);
    let (line, at) = match axis {
        Axis::Row => (row_of(masked, "masked_scores", t), s),
        Axis::Column => (col_of(masked, "masked_scores", s), t),
    };
    let (value, body, sources) = softmax_along(&line, at, axis, max_terms).unwrap_or_else(|| {
        let sources = line.iter().map(|o| o.1).collect();
        let body = Body::NoValue {
            reason: NoValueReason::Nan,
        };
        (f64::NAN, body, sources)
    });
    Ok(Explanation::new(cell, value, body, sources))
}

/// The lesson-1 exercise (§6) with the chosen blanks: "weights" (T, T), the softmax
/// of the masked scores along the chosen axis (NaN where NumPy gives NaN).
pub fn explain_exercise(
    score: ScoreLine,
    mask: MaskLine,
    axis: SoftmaxAxis,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    if cell.kind != Kind::Weight {
        return Err(not_here(cell.kind, "exercise"));
    }
    let run = exercise_run(score, mask, axis);
    let axis = match axis {
        SoftmaxAxis::Last => Axis::Row,
        SoftmaxAxis::Receivers => Axis::Column,
    };
    let e = weight_along(&run.masked_scores, cell, axis, max_terms)?;
    Ok(e.not_drawn(&[("masked_scores", "exercise_scores")]))
}

/// The wrong-axis exercise (§8): a "weights" cell of batch `batch` of
/// `wrong_axis(seed, B, T)`, softmax along rows (`right`) or columns (`wrong`).
pub fn explain_wrong_axis(
    seed: u64,
    b_len: usize,
    t_len: usize,
    batch: usize,
    axis: Axis,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    if cell.kind != Kind::Weight {
        return Err(not_here(cell.kind, "wrong_axis"));
    }
    let w = wrong_axis(seed, b_len, t_len).map_err(lesson_err)?;
    let scores = w
        .scores
        .get(batch)
        .ok_or_else(|| shape_error!("explain.shape.no_batch", b = b_len, batch = batch))?;
    let e = weight_along(scores, cell, axis, max_terms)?;
    Ok(e.not_drawn(&[("masked_scores", "practice_scores")]))
}
