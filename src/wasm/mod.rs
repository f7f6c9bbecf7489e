//! The only `#[wasm_bindgen]` module (with its submodules): a thin, coarse boundary.
//!
//! Rust owns the state (`HeadLab`); JavaScript sets whole matrices or single
//! typed cells, asks for one `compute()` and reads every intermediate at once.
//! Matrices cross as `{ rows, cols, data }` with `data` row-major, one
//! `Float64Array` out (an array or any iterable of numbers in); masked scores carry
//! `-Infinity`. Every export that takes user input returns
//! `Result<_, JsError>` with a message a learner can act on.

mod errors;
pub mod explain;
pub mod gpt;
mod js_values;
pub mod lesson;
mod to_js;

#[cfg(feature = "gpt")]
pub(crate) use errors::error_object;
pub(crate) use errors::thrown;
pub(crate) use js_values::{js_object, refused, Fields, MatIn};
pub(crate) use to_js::to_js;

use wasm_bindgen::prelude::*;

use crate::attention::{cross_forward, head_forward, hou_defaults, HeadTrace, HeadWeights};
use crate::lesson::clean_trace;
use crate::lesson::error::lesson_error;
use crate::parse::parse_number;
use crate::tensor::{causal_or_none, Mask, Matrix};

/// A panic's message on the console, with feature `panic-hook` (not in the lesson build).
#[cfg(feature = "panic-hook")]
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// `{ q, k, v, scale, scores, masked_scores, weights, out, fully_masked_rows }`
/// (`lesson::TraceView`), or why the numbers could not be computed.
fn trace_js(t: HeadTrace) -> Result<JsValue, JsValue> {
    let view = clean_trace(t).map_err(|e| thrown(&e))?;
    Ok(to_js(&view)?)
}

/// Parses one typed cell: `2`, `-0.5`, `1e-3`, `1/3`. Errors say what to type.
#[wasm_bindgen(js_name = parseNumber)]
pub fn parse_number_js(text: &str) -> Result<f64, JsValue> {
    parse_number(text).map_err(|e| thrown(&e))
}

/// One attention head the page edits: x (T, C), W_q, W_k, W_v (d, C), flags.
#[wasm_bindgen]
pub struct HeadLab {
    tokens: Vec<String>,
    x: Matrix,
    w: HeadWeights,
    causal: bool,
    scaled: bool,
}

impl Default for HeadLab {
    fn default() -> Self {
        HeadLab::new()
    }
}

#[wasm_bindgen]
impl HeadLab {
    /// The lesson's h/o/u head: causal, unscaled (LESSON §3).
    #[wasm_bindgen(constructor)]
    pub fn new() -> HeadLab {
        let (tokens, x, w) = hou_defaults();
        HeadLab {
            tokens,
            x,
            w,
            causal: true,
            scaled: false,
        }
    }

    fn slot(&mut self, name: &str) -> Result<&mut Matrix, JsValue> {
        match name {
            "x" => Ok(&mut self.x),
            "W_q" => Ok(&mut self.w.w_q),
            "W_k" => Ok(&mut self.w.w_k),
            "W_v" => Ok(&mut self.w.w_v),
            _ => Err(refused(lesson_error!("lesson.input.unknown_matrix", name))),
        }
    }

    /// Parses `text` into cell (row, col) of matrix `name` and returns the
    /// value; on error nothing changes and the message says what to type.
    #[wasm_bindgen(js_name = setCell)]
    pub fn set_cell(
        &mut self,
        name: &str,
        row: usize,
        col: usize,
        text: &str,
    ) -> Result<f64, JsValue> {
        let value = parse_number(text).map_err(|e| thrown(&e))?;
        let m = self.slot(name)?;
        if row >= m.rows || col >= m.cols {
            let (rows, cols) = (m.rows, m.cols);
            return Err(refused(lesson_error!(
                "lesson.input.no_cell",
                name,
                rows,
                cols,
                row,
                col
            )));
        }
        m.set(row, col, value);
        Ok(value)
    }

    /// Replaces a whole matrix (row-major `data`). Shapes are checked when
    /// computing, so x and the weights may be changed one at a time.
    #[wasm_bindgen(js_name = setMatrix)]
    pub fn set_matrix(
        &mut self,
        name: &str,
        rows: usize,
        cols: usize,
        data: Vec<f64>,
    ) -> Result<(), JsValue> {
        let m = MatIn { rows, cols, data }.matrix(name)?;
        *self.slot(name)? = m;
        Ok(())
    }

    /// Token labels of x's rows (one per row).
    #[wasm_bindgen(js_name = setTokens)]
    pub fn set_tokens(&mut self, tokens: Vec<String>) {
        self.tokens = tokens;
    }

    #[wasm_bindgen(js_name = setCausal)]
    pub fn set_causal(&mut self, on: bool) {
        self.causal = on;
    }

    #[wasm_bindgen(js_name = setScaled)]
    pub fn set_scaled(&mut self, on: bool) {
        self.scaled = on;
    }

    /// The inputs: `{ tokens, x, W_q, W_k, W_v, causal, scaled }`.
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&crate::lesson::HeadState {
            tokens: &self.tokens,
            x: &self.x,
            w_q: &self.w.w_q,
            w_k: &self.w.w_k,
            w_v: &self.w.w_v,
            causal: self.causal,
            scaled: self.scaled,
        })
    }

    /// Runs the head; returns `{ q, k, v, scale, scores, masked_scores,
    /// weights, out, fully_masked_rows }` or an error a learner can act on.
    pub fn compute(&self) -> Result<JsValue, JsValue> {
        let trace =
            head_forward(&self.x, &self.w, self.causal, self.scaled).map_err(|e| thrown(&e))?;
        trace_js(trace)
    }
}

/// Stateless cross-attention: queries from `x_q` (T_out, C), keys and values
/// from `x_kv` (T_in, C), weights (d, C) in nn.Linear layout, each given as
/// `{ rows, cols, data }`. `causal` aligns the mask at the top-left.
#[wasm_bindgen(js_name = crossAttention)]
pub fn cross_attention(input: JsValue, causal: bool, scaled: bool) -> Result<JsValue, JsValue> {
    let c = CrossInput::parse(input, causal)?;
    let trace = c.forward(scaled)?;
    trace_js(trace)
}

/// `crossAttention`'s validated input: x_q (T_out, C), x_kv (T_in, C),
/// weights (d, C) and the mask (T_out, T_in).
pub(crate) struct CrossInput {
    pub(crate) x_q: Matrix,
    pub(crate) x_kv: Matrix,
    pub(crate) w: HeadWeights,
    pub(crate) mask: Mask,
}

impl CrossInput {
    pub(crate) fn parse(input: JsValue, causal: bool) -> Result<CrossInput, JsValue> {
        let f = Fields::of("cross-attention input", input)?;
        let (x_q, x_kv) = (f.matrix("x_q")?, f.matrix("x_kv")?);
        let (w_q, w_k, w_v) = (f.matrix("W_q")?, f.matrix("W_k")?, f.matrix("W_v")?);
        let x_q = x_q.matrix("x_q")?;
        let x_kv = x_kv.matrix("x_kv")?;
        let w = HeadWeights {
            w_q: w_q.matrix("W_q")?,
            w_k: w_k.matrix("W_k")?,
            w_v: w_v.matrix("W_v")?,
        };
        let mask = causal_or_none(causal, x_q.rows, x_kv.rows);
        Ok(CrossInput { x_q, x_kv, w, mask })
    }

    pub(crate) fn forward(&self, scaled: bool) -> Result<HeadTrace, JsValue> {
        cross_forward(&self.x_q, &self.x_kv, &self.w, &self.mask, scaled).map_err(|e| thrown(&e))
    }
}
