//! The lesson's demonstrations (LESSON §1–§8) across the wasm boundary: one
//! coarse export per demonstration, each a thin call into `crate::lesson`.
//!
//! Contract: inputs are plain numbers, strings, arrays, or one object whose
//! matrices are `{ rows, cols, data }` (row-major); results are plain objects
//! whose matrices are `{ rows, cols, data }` too, field names as in the
//! `crate::lesson` structs (snake_case). `-Infinity` and `NaN` stay numbers,
//! `Option::None` becomes `null`. Every learner-facing input is validated
//! before any work (sides ≤ 64, finite numbers, capped sizes) and errors are
//! thrown as `Error` with a message saying what to change.

pub mod exercise;
pub mod head;
pub mod intro;
pub mod ladder;
pub mod notes;
pub mod practice;
pub mod proofs;

pub use exercise::*;
pub use head::*;
pub use intro::*;
pub use ladder::*;
pub use notes::*;
pub use practice::*;
pub use proofs::*;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::attention::{hou_defaults, HeadWeights};
use crate::lesson::LessonError;
use crate::tensor::Matrix;

/// Serialises a result for the page: plain objects, `null` for `None`.
pub(crate) fn out<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true))
        .map_err(|e| {
            JsError::new(&format!(
                "internal: could not hand numbers to the page: {e}"
            ))
        })
}

/// `Ok(value)` serialised, or the learner's error as a thrown `Error`.
pub(crate) fn reply<T: Serialize>(r: Result<T, LessonError>) -> Result<JsValue, JsError> {
    out(&r.map_err(|e| JsError::new(&e.0))?)
}

/// Reads the page's input object, naming the export in the message.
pub(crate) fn input<T: for<'de> Deserialize<'de>>(what: &str, v: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(v).map_err(|e| JsError::new(&format!("{what}: {e}")))
}

/// A matrix as the page sends it.
#[derive(Deserialize)]
pub(crate) struct MatIn {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl MatIn {
    /// Checked: 1..=64 rows and columns, `rows·cols` finite numbers.
    pub(crate) fn matrix(self, name: &str) -> Result<Matrix, JsError> {
        super::matrix_from(name, self.rows, self.cols, self.data)
    }

    /// Checked as `matrix`, with up to `max_cols` columns (a head's q and k may be wide).
    pub(crate) fn wide_matrix(self, name: &str, max_cols: usize) -> Result<Matrix, JsError> {
        super::matrix_within(name, (self.rows, self.cols), self.data, max_cols)
    }
}

/// A bare matrix result, serialised as `{ rows, cols, data }`.
pub(crate) struct Mat(pub Matrix);

impl Serialize for Mat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::lesson::ser::matrix(&self.0, s)
    }
}

/// A head the page edits: every matrix optional, defaulting to the h/o/u head.
#[derive(Deserialize)]
pub(crate) struct HeadIn {
    #[serde(default)]
    x: Option<MatIn>,
    #[serde(default, rename = "W_q")]
    w_q: Option<MatIn>,
    #[serde(default, rename = "W_k")]
    w_k: Option<MatIn>,
    #[serde(default, rename = "W_v")]
    w_v: Option<MatIn>,
    #[serde(default = "yes")]
    pub(crate) causal: bool,
    #[serde(default)]
    pub(crate) scaled: bool,
}

fn yes() -> bool {
    true
}

impl HeadIn {
    /// x (T, C) and the weights (d, C), missing ones taken from the h/o/u head.
    pub(crate) fn head(self) -> Result<(Matrix, HeadWeights), JsError> {
        let (_, x0, w0) = hou_defaults();
        let pick = |m: Option<MatIn>, name: &str, default: Matrix| match m {
            Some(m) => m.matrix(name),
            None => Ok(default),
        };
        let x = pick(self.x, "x", x0)?;
        let w = HeadWeights {
            w_q: pick(self.w_q, "W_q", w0.w_q)?,
            w_k: pick(self.w_k, "W_k", w0.w_k)?,
            w_v: pick(self.w_v, "W_v", w0.w_v)?,
        };
        Ok((x, w))
    }
}
