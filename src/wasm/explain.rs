//! Bindings for “every number explains itself” (`crate::explain`): the page
//! asks for one cell and lays out the operands it gets back; it does no math.
//!
//! An explanation is a plain object (snake_case fields, absent options as
//! `null`, −∞ as `-Infinity`):
//! `{ kind, row, col, value, fraction: {num, den} | null, sources: [{matrix, row, col}],
//!    grid: string | null, elsewhere: [{matrix, what}], op, …the fields of op }` (`grid`
//! names the drawn grid where a widget draws several of one kind; `elsewhere` the source
//! matrices the widget does not draw) with `op` one of
//! - `"dot"`: `{ terms: [{a, b, product, a_src, b_src, a_fraction, b_fraction}],
//!   rest: {count, sum} | null, sum, bias: {value, src, fraction} | null,
//!   scale: {d_k, sqrt_d_k, factor} | null }`, value = (sum + bias) · factor;
//! - `"softmax"`: `{ max, terms: [{score, shifted, exp, shifted_exp, masked, src}],
//!   rest: {count, exp_sum, shifted_exp_sum} | null, numerator, denominator,
//!   numerator_shifted, denominator_shifted, target_masked }`;
//! - `"masked"`: `{ score, score_src, reason: "future" | "forbidden", weight: 0 }`;
//! - `"kept"`: `{ score, score_src }`;
//! - `"mean"`: `{ terms: [{value, src, fraction}], rest, sum, count }`;
//! - `"normalise"`: `{ numerator: {value, src, fraction}, terms, rest, denominator }`;
//! - `"no_value"`: `{ reason: "fully_masked" | "overflow" }`.

use wasm_bindgen::prelude::*;

use super::lesson::HeadIn;
use super::{refused, thrown, to_js, CrossInput, Fields, HeadLab, MatIn};
use crate::attention::head_forward;
use crate::explain::{
    explain_batch, explain_compat, explain_exercise, explain_future_change, explain_head,
    explain_multihead, explain_normalize, explain_scheme, explain_sinusoid, explain_wrong_axis,
    formula_steps, Axis, Cell, ExplainError, FutureGrid, HeadInputs, Kind, Scheme,
    DEFAULT_MAX_TERMS, FORMULA,
};
use crate::lesson::error::lesson_error;
use crate::lesson::exercise::{MaskLine, ScoreLine, SoftmaxAxis};
use crate::tensor::{causal_or_none, Mask, Matrix};

fn js_err(e: ExplainError) -> JsValue {
    thrown(&e)
}

fn cell(kind: &str, row: usize, col: usize) -> Result<Cell, JsValue> {
    Ok(Cell::new(Kind::parse(kind).map_err(js_err)?, row, col))
}

#[wasm_bindgen]
impl HeadLab {
    /// Explains cell (row, col) of `kind` ("q", "k", "v", "scores",
    /// "masked_scores", "weights", "out"; singular names work too). Long sums
    /// list at most `maxTerms` terms (default 8) and sum the rest.
    pub fn explain(
        &self,
        kind: &str,
        row: usize,
        col: usize,
        max_terms: Option<usize>,
    ) -> Result<JsValue, JsValue> {
        let cell = cell(kind, row, col)?;
        let trace =
            head_forward(&self.x, &self.w, self.causal, self.scaled).map_err(|e| thrown(&e))?;
        let mask = self.mask();
        let inputs = HeadInputs {
            x_q: &self.x,
            x_kv: &self.x,
            w: &self.w,
            mask: &mask,
        };
        let e = explain_head(&trace, inputs, cell, max_terms.unwrap_or(DEFAULT_MAX_TERMS))
            .map_err(js_err)?;
        Ok(to_js(&e)?)
    }

    /// The five steps of softmax(mask(QKᵀ/√d_k))·V: `[{ name, term, span: [start, end],
    /// reads, produces, active, factor, masked_cells, output: {rows, cols, data} }]`.
    #[wasm_bindgen(js_name = formulaSteps)]
    pub fn formula_steps(&self) -> Result<JsValue, JsValue> {
        let trace =
            head_forward(&self.x, &self.w, self.causal, self.scaled).map_err(|e| thrown(&e))?;
        Ok(to_js(&formula_steps(&trace, &self.mask()))?)
    }
}

impl HeadLab {
    /// (T, T): the mask `compute()` uses.
    fn mask(&self) -> Mask {
        let t_len = self.x.rows;
        causal_or_none(self.causal, t_len, t_len)
    }
}

/// Explains a cell of an averaging scheme ("loop", "matrix", "softmax") run on
/// `x` = `{ rows, cols, data }`: kinds "weights" and "out", and
/// "masked_scores" for the softmax scheme.
#[wasm_bindgen(js_name = explainScheme)]
pub fn explain_scheme_js(
    scheme: &str,
    x: JsValue,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let scheme = Scheme::parse(scheme).map_err(js_err)?;
    let m = MatIn::read("x must be { rows, cols, data }", x)?;
    let x = m.matrix("x")?;
    let cell = cell(kind, row, col)?;
    let e =
        explain_scheme(scheme, &x, cell, max_terms.unwrap_or(DEFAULT_MAX_TERMS)).map_err(js_err)?;
    Ok(to_js(&e)?)
}

/// Explains cell (row, col) of `kind` of the cross-attention `crossAttention`
/// computes from the same `input` (`{ x_q, x_kv, W_q, W_k, W_v }`, each
/// `{ rows, cols, data }`) and flags. Inputs are named "x_q" and "x_kv".
#[wasm_bindgen(js_name = explainCross)]
pub fn explain_cross_js(
    input: JsValue,
    causal: bool,
    scaled: bool,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let c = CrossInput::parse(input, causal)?;
    let cell = cell(kind, row, col)?;
    let trace = c.forward(scaled)?;
    let inputs = HeadInputs {
        x_q: &c.x_q,
        x_kv: &c.x_kv,
        w: &c.w,
        mask: &c.mask,
    };
    let e = explain_head(&trace, inputs, cell, max_terms.unwrap_or(DEFAULT_MAX_TERMS))
        .map_err(js_err)?;
    Ok(to_js(&e)?)
}

/// The formula the steps refer to, as LaTeX.
#[wasm_bindgen(js_name = formulaLatex)]
pub fn formula_latex() -> String {
    FORMULA.to_string()
}

/// Explains cell (row, col) of `kind` ("scores", "masked_scores", "weights", "out")
/// of a head the core already ran, handed back as the trace it returned:
/// `trace` = `{ q, k, v?, scale }` (`q` (T_out, d), `k` (T_in, d), `v` (T_in, d_v), each
/// `{ rows, cols, data }`; without `v`, "out" is not explained), with the causal mask
/// or none. For the widgets whose results carry such traces (encoder/decoder, two
/// words, a new W_v, positions, the d_k slider): the numbers go back unchanged, so
/// the explanation is of exactly what was drawn. q, k and v cells are not explained
/// here (the trace does not say what made them).
#[wasm_bindgen(js_name = explainTrace)]
pub fn explain_trace_js(
    trace: JsValue,
    causal: bool,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let t = Fields::of("explainTrace: the trace needs q, k, v and scale", trace)?;
    let (tq, tk, tv) = (t.matrix("q")?, t.matrix("k")?, t.opt_matrix("v")?);
    let scale = t.number("scale")?;
    // Rows are positions (≤ 64); columns the head size, up to note 6's d_k = 512.
    let m = |n: &str, m: MatIn| m.wide_matrix(n, 1024);
    let (q, k) = (m("q", tq)?, m("k", tk)?);
    let v = match tv {
        Some(v) => m("v", v)?,
        None if kind.starts_with("out") => {
            return Err(refused(lesson_error!("lesson.input.trace_no_v")))
        }
        None => Matrix::zeros(k.rows, 1), // read by "out" only
    };
    if !(scale.is_finite() && scale > 0.0) {
        let value = scale;
        return Err(refused(lesson_error!("lesson.input.trace_scale", value)));
    }
    let mask = causal_or_none(causal, q.rows, k.rows);
    let view = crate::explain::HeadView {
        q: &q,
        k: &k,
        v: &v,
        mask: &mask,
        scale,
        projections: None,
        drawn: None,
    };
    let e = crate::explain::explain_attention_cell(
        &view,
        cell(kind, row, col)?,
        max_terms.unwrap_or(DEFAULT_MAX_TERMS),
    )
    .map_err(js_err)?;
    Ok(to_js(&e)?)
}

// The lesson's other grids (`crate::explain::lesson`, `seeded`). Each takes the same
// arguments as the lesson function that drew the grid, then the cell; `kind`
// also accepts "M", "x M xᵀ", "PE", "by_rows", "by_columns", "whole", "right",
// "wrong". New ops: `"bilinear"`: `{ first: [dot…], then: dot }` (value = then.sum,
// each `first[j].sum` the entry j of x_t M, named "x M" in `then`'s a_src);
// `"sinusoid"`: `{ pos, pair, two_i, d, exponent, wavelength, angle, cos }`
// (value = sin or cos of angle = pos / wavelength, wavelength = 10000^exponent).
// `"normalise"` carries `over`: "row" | "column" | "all" | "row_of_column", and
// `"softmax"` `axis`: "row" | "column"; `"no_value"` may have reason "nan".

fn lesson_cell(kind: &str, row: usize, col: usize) -> Result<Cell, JsValue> {
    Ok(Cell::new(Kind::parse_any(kind).map_err(js_err)?, row, col))
}

fn terms(max_terms: Option<usize>) -> usize {
    max_terms.unwrap_or(DEFAULT_MAX_TERMS)
}

/// The head probe's grids for `head` as `scoreTwoWays` takes it: "M" (W_qᵀW_k),
/// "x M xᵀ" and "scores" (q kᵀ, unscaled, unmasked).
#[wasm_bindgen(js_name = explainProbe)]
pub fn explain_probe_js(
    head: JsValue,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let (x, w) = HeadIn::read("explainProbe(head, kind, row, col)", head)?.head()?;
    let cell = lesson_cell(kind, row, col)?;
    Ok(to_js(
        &explain_compat(&x, &w, cell, terms(max_terms)).map_err(js_err)?,
    )?)
}

/// A cell of `normalizeDirections(a)` ("by_rows", "by_columns", "whole") or of
/// `keepdimTrap(a)` ("right", "wrong"); `a` = `{ rows, cols, data }`.
#[wasm_bindgen(js_name = explainNormalize)]
pub fn explain_normalize_js(
    a: JsValue,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let a = MatIn::read("explainNormalize(a, kind, row, col)", a)?.matrix("the matrix")?;
    let cell = lesson_cell(kind, row, col)?;
    Ok(to_js(
        &explain_normalize(&a, cell, terms(max_terms)).map_err(js_err)?,
    )?)
}

/// Cell (pos, column) of `sinusoidalTable(T, C)`; kind "PE".
#[wasm_bindgen(js_name = explainPosition)]
pub fn explain_position_js(
    t_len: usize,
    c: usize,
    kind: &str,
    row: usize,
    col: usize,
) -> Result<JsValue, JsValue> {
    let cell = lesson_cell(kind, row, col)?;
    Ok(to_js(&explain_sinusoid(t_len, c, cell).map_err(js_err)?)?)
}

/// A "weights" cell of `exerciseRun(score, mask, axis)`.
#[wasm_bindgen(js_name = explainExercise)]
pub fn explain_exercise_js(
    score: &str,
    mask: &str,
    axis: &str,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let le = |e: crate::lesson::LessonError| thrown(&e);
    let (score, mask, axis) = (
        ScoreLine::parse(score).map_err(le)?,
        MaskLine::parse(mask).map_err(le)?,
        SoftmaxAxis::parse(axis).map_err(le)?,
    );
    let cell = lesson_cell(kind, row, col)?;
    Ok(to_js(
        &explain_exercise(score, mask, axis, cell, terms(max_terms)).map_err(js_err)?,
    )?)
}

/// A cell ("scores", "masked_scores", "weights", "out") of head (0, 0) of
/// `multiHeadCheck(seed, B, H, T, d_k, causal)`.
#[wasm_bindgen(js_name = explainMultiHead)]
#[allow(clippy::too_many_arguments)]
pub fn explain_multihead_js(
    seed: u32,
    b: usize,
    h: usize,
    t: usize,
    d_k: usize,
    causal: bool,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let cell = lesson_cell(kind, row, col)?;
    let e = explain_multihead(seed.into(), [b, h, t, d_k], causal, cell, terms(max_terms));
    Ok(to_js(&e.map_err(js_err)?)?)
}

/// A "weights" cell of batch 0 of `wrongAxis(seed, B, T)`: `which` = "right"
/// (softmax along rows) or "wrong" (down columns).
#[wasm_bindgen(js_name = explainWrongAxis)]
#[allow(clippy::too_many_arguments)]
pub fn explain_wrong_axis_js(
    seed: u32,
    b: usize,
    t: usize,
    which: &str,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let axis = match which {
        "right" => Axis::Row,
        "wrong" => Axis::Column,
        _ => return Err(refused(lesson_error!("lesson.input.wrong_axis", which))),
    };
    let cell = lesson_cell(kind, row, col)?;
    let e = explain_wrong_axis(seed.into(), b, t, 0, axis, cell, terms(max_terms));
    Ok(to_js(&e.map_err(js_err)?)?)
}

/// A cell ("out", or "scores", "masked_scores", "weights") of one of the heads of
/// `futureChange(seed, T, d, from)`: `grid` = "masked_before", "masked_after",
/// "unmasked_before" or "unmasked_after".
#[wasm_bindgen(js_name = explainFutureChange)]
#[allow(clippy::too_many_arguments)]
pub fn explain_future_change_js(
    seed: u32,
    t: usize,
    d: usize,
    from: usize,
    grid: &str,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let grid = FutureGrid::parse(grid).map_err(js_err)?;
    let cell = lesson_cell(kind, row, col)?;
    let e = explain_future_change(seed.into(), t, d, from, grid, cell, terms(max_terms));
    Ok(to_js(&e.map_err(js_err)?)?)
}

/// `explainBatch(seed, T, C, d, after, seq, kind, row, col, maxTerms?)`: one cell of
/// sequence `seq` (0 or 1) of `batchIndependence(seed, T, C, d)`'s batch, before
/// (`after` false) or after sequence 1 was redrawn, explained as `HeadLab.explain`
/// does (kinds "q", "k", "v", "scores", "masked_scores", "weights", "out"; causal,
/// scaled). The input is named "x": the sequence's own rows.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = explainBatch)]
pub fn explain_batch_js(
    seed: u32,
    t_len: usize,
    c: usize,
    d: usize,
    after: bool,
    seq: usize,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let cell = cell(kind, row, col)?;
    let max = max_terms.unwrap_or(DEFAULT_MAX_TERMS);
    let e =
        explain_batch((seed.into(), t_len, c, d), after, seq, cell, max).map_err(|e| thrown(&e))?;
    Ok(to_js(&e)?)
}
