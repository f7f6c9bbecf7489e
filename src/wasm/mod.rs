//! The only `#[wasm_bindgen]` module (with its submodules): a thin, coarse boundary.
//!
//! Rust owns the state (`HeadLab`); JavaScript sets whole matrices or single
//! typed cells, asks for one `compute()` and reads every intermediate at once.
//! Matrices cross as `{ rows, cols, data }` with `data` row-major; masked
//! scores carry `-Infinity`. Every export that takes user input returns
//! `Result<_, JsError>` with a message a learner can act on.

pub mod explain;
pub mod gpt;
pub mod gpt_files;
pub mod lesson;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::attention::{cross_forward, head_forward, hou_defaults, HeadTrace, HeadWeights};
use crate::parse::parse_number;
use crate::tensor::{causal_or_none, Mask, Matrix};

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Largest side a lesson matrix may have (keeps a hostile URL or paste small).
const MAX_SIDE: usize = 64;

#[derive(Serialize)]
struct MatrixJs<'a> {
    rows: usize,
    cols: usize,
    data: &'a [f64],
}

fn js(m: &Matrix) -> MatrixJs<'_> {
    MatrixJs {
        rows: m.rows,
        cols: m.cols,
        data: &m.data,
    }
}

#[derive(Serialize)]
struct TraceJs<'a> {
    q: MatrixJs<'a>,
    k: MatrixJs<'a>,
    v: MatrixJs<'a>,
    scale: f64,
    scores: MatrixJs<'a>,
    masked_scores: MatrixJs<'a>,
    weights: MatrixJs<'a>,
    out: MatrixJs<'a>,
    fully_masked_rows: &'a [usize],
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    // Maps keep -Infinity as a number (JSON would turn it into null).
    value
        .serialize(&serde_wasm_bindgen::Serializer::new())
        .map_err(|e| {
            JsError::new(&format!(
                "internal: could not hand numbers to the page: {e}"
            ))
        })
}

fn trace_js(t: &HeadTrace) -> Result<JsValue, JsError> {
    let finite = [&t.q, &t.k, &t.v, &t.scores, &t.weights, &t.out]
        .iter()
        .all(|m| m.is_finite());
    if !t.overflow_rows.is_empty() || !finite {
        return Err(JsError::new(
            "the numbers grew too large to compute (a score overflowed): use smaller weights or inputs",
        ));
    }
    to_js(&TraceJs {
        q: js(&t.q),
        k: js(&t.k),
        v: js(&t.v),
        scale: t.scale,
        scores: js(&t.scores),
        masked_scores: js(&t.masked_scores),
        weights: js(&t.weights),
        out: js(&t.out),
        fully_masked_rows: &t.fully_masked_rows,
    })
}

/// Builds a matrix from JS numbers, refusing wrong lengths, empty or huge
/// shapes and non-finite values with a message naming the matrix.
fn matrix_from(name: &str, rows: usize, cols: usize, data: Vec<f64>) -> Result<Matrix, JsError> {
    matrix_within(name, (rows, cols), data, MAX_SIDE)
}

/// Like `matrix_from` with up to `max_cols` columns (a head's q and k may be wide).
fn matrix_within(
    name: &str,
    (rows, cols): (usize, usize),
    data: Vec<f64>,
    max_cols: usize,
) -> Result<Matrix, JsError> {
    if rows == 0 || rows > MAX_SIDE {
        return Err(JsError::new(&format!(
            "{name} must have between 1 and {MAX_SIDE} rows, got {rows}×{cols}"
        )));
    }
    if cols == 0 || cols > max_cols {
        return Err(JsError::new(&format!(
            "{name} must have between 1 and {max_cols} columns, got {rows}×{cols}"
        )));
    }
    if let Some(i) = data.iter().position(|v| !v.is_finite()) {
        return Err(JsError::new(&format!(
            "{name}: entry {} (row {}, column {}) is not a finite number",
            i,
            i / cols,
            i % cols
        )));
    }
    Matrix::from_vec(rows, cols, data).map_err(|e| JsError::new(&format!("{name}: {e}")))
}

/// A plain JS object with these properties.
pub(crate) fn js_object(props: &[(&str, JsValue)]) -> js_sys::Object {
    let obj = js_sys::Object::new();
    for (k, v) in props {
        let _ = js_sys::Reflect::set(&obj, &(*k).into(), v);
    }
    obj
}

/// A JS `Error` with the English `message` and, for the page's string tables
/// (`errorText` in www/js/i18n.js), `code` ("number.not_a_number",
/// "gpt.config.too_many_params", …) and `params` ({ text }, { n, limit }, …), so that
/// the page can say it in the learner's language.
pub(crate) fn coded_error(message: &str, code: &str, params: &[(&str, JsValue)]) -> JsValue {
    let err = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&err, &"code".into(), &code.into());
    let _ = js_sys::Reflect::set(&err, &"params".into(), &js_object(params));
    err.into()
}

fn number_error(e: &crate::parse::NumberError) -> JsValue {
    let params: Vec<(&str, JsValue)> = e.text().map(|t| ("text", t.into())).into_iter().collect();
    coded_error(&e.to_string(), e.code(), &params)
}

/// Parses one typed cell: `2`, `-0.5`, `1e-3`, `1/3`. Errors say what to type.
#[wasm_bindgen(js_name = parseNumber)]
pub fn parse_number_js(text: &str) -> Result<f64, JsValue> {
    parse_number(text).map_err(|e| number_error(&e))
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

    fn slot(&mut self, name: &str) -> Result<&mut Matrix, JsError> {
        match name {
            "x" => Ok(&mut self.x),
            "W_q" => Ok(&mut self.w.w_q),
            "W_k" => Ok(&mut self.w.w_k),
            "W_v" => Ok(&mut self.w.w_v),
            _ => Err(JsError::new(&format!(
                "unknown matrix “{name}”: use x, W_q, W_k or W_v"
            ))),
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
        let value = parse_number(text).map_err(|e| number_error(&e))?;
        let m = self.slot(name)?;
        if row >= m.rows || col >= m.cols {
            return Err(JsError::new(&format!(
                "{name} is {}×{}: there is no cell ({row}, {col})",
                m.rows, m.cols
            ))
            .into());
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
    ) -> Result<(), JsError> {
        let m = matrix_from(name, rows, cols, data)?;
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
        #[derive(Serialize)]
        struct State<'a> {
            tokens: &'a [String],
            x: MatrixJs<'a>,
            #[serde(rename = "W_q")]
            w_q: MatrixJs<'a>,
            #[serde(rename = "W_k")]
            w_k: MatrixJs<'a>,
            #[serde(rename = "W_v")]
            w_v: MatrixJs<'a>,
            causal: bool,
            scaled: bool,
        }
        to_js(&State {
            tokens: &self.tokens,
            x: js(&self.x),
            w_q: js(&self.w.w_q),
            w_k: js(&self.w.w_k),
            w_v: js(&self.w.w_v),
            causal: self.causal,
            scaled: self.scaled,
        })
    }

    /// Runs the head; returns `{ q, k, v, scale, scores, masked_scores,
    /// weights, out, fully_masked_rows }` or an error a learner can act on.
    pub fn compute(&self) -> Result<JsValue, JsError> {
        let trace = head_forward(&self.x, &self.w, self.causal, self.scaled)
            .map_err(|e| JsError::new(&e.to_string()))?;
        trace_js(&trace)
    }
}

/// Stateless cross-attention: queries from `x_q` (T_out, C), keys and values
/// from `x_kv` (T_in, C), weights (d, C) in nn.Linear layout, each given as
/// `{ rows, cols, data }`. `causal` aligns the mask at the top-left.
#[wasm_bindgen(js_name = crossAttention)]
pub fn cross_attention(input: JsValue, causal: bool, scaled: bool) -> Result<JsValue, JsError> {
    let c = CrossInput::parse(input, causal)?;
    let trace = c.forward(scaled)?;
    trace_js(&trace)
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
    pub(crate) fn parse(input: JsValue, causal: bool) -> Result<CrossInput, JsError> {
        use lesson::MatIn as M;
        #[derive(serde::Deserialize)]
        struct Input {
            x_q: M,
            x_kv: M,
            #[serde(rename = "W_q")]
            w_q: M,
            #[serde(rename = "W_k")]
            w_k: M,
            #[serde(rename = "W_v")]
            w_v: M,
        }
        let i: Input = serde_wasm_bindgen::from_value(input)
            .map_err(|e| JsError::new(&format!("cross-attention input: {e}")))?;
        let m = |n: &str, m: M| m.matrix(n);
        let x_q = m("x_q", i.x_q)?;
        let x_kv = m("x_kv", i.x_kv)?;
        let w = HeadWeights {
            w_q: m("W_q", i.w_q)?,
            w_k: m("W_k", i.w_k)?,
            w_v: m("W_v", i.w_v)?,
        };
        let mask = causal_or_none(causal, x_q.rows, x_kv.rows);
        Ok(CrossInput { x_q, x_kv, w, mask })
    }

    pub(crate) fn forward(&self, scaled: bool) -> Result<HeadTrace, JsError> {
        cross_forward(&self.x_q, &self.x_kv, &self.w, &self.mask, scaled)
            .map_err(|e| JsError::new(&e.to_string()))
    }
}
