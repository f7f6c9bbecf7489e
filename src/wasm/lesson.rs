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
//!
//! The exports are tables (`exports!`): per entry its doc comment, the JS name, the
//! Rust fn and its arguments, and the result the export sends.

/// One `#[wasm_bindgen]` export per entry:
///
/// ```text
/// #[doc = " `jsName(…)` -> what it returns (the export's JSDoc, one attribute a line)"]
/// jsName = fn rust_name(arg: Type, …) => result;
/// ```
///
/// becomes `#[wasm_bindgen(js_name = jsName)] pub fn rust_name(arg: Type, …) ->
/// Result<JsValue, JsValue> { reply(result) }` with those docs: `result` is a
/// `Result<_, LessonError>` (`Ok(x)` for one that cannot fail), sent as `reply` sends
/// it. It may be a block that reads the JS arguments first, with `?` throwing their
/// errors as they are.
///
/// The docs are `#[doc = "…"]`, not `///`: a `///` comment reaches `#[wasm_bindgen]`
/// through a macro as a raw string, which wasm-bindgen 0.2.129 copies into the .d.ts
/// with its `r"` (tests/wasm_exports.rs refuses one).
macro_rules! exports {
    ($(
        $(#[doc = $doc:tt])*
        $js:ident = fn $name:ident($($args:tt)*) => $result:expr;
    )*) => {$(
        $(#[doc = $doc])*
        #[wasm_bindgen::prelude::wasm_bindgen(js_name = $js)]
        pub fn $name($($args)*) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
            $crate::wasm::lesson::reply($result)
        }
    )*};
}

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

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{thrown, to_js, Fields, MatIn};
use crate::attention::{hou_defaults, HeadWeights};
use crate::lesson::LessonError;
use crate::tensor::Matrix;

/// `Ok(value)` serialised, or the learner's error as a thrown `Error`.
pub(crate) fn reply<T: Serialize>(r: Result<T, LessonError>) -> Result<JsValue, JsValue> {
    Ok(to_js(&r.map_err(|e| thrown(&e))?)?)
}

/// A head the page edits: every matrix optional, defaulting to the h/o/u head.
/// `{ x?, W_q?, W_k?, W_v?, causal? = true, scaled? = false }`.
pub(crate) struct HeadIn {
    x: Option<MatIn>,
    w_q: Option<MatIn>,
    w_k: Option<MatIn>,
    w_v: Option<MatIn>,
    pub(crate) causal: bool,
    pub(crate) scaled: bool,
}

impl HeadIn {
    /// The page's head object `v` (`what` names the export).
    pub(crate) fn read(what: &str, v: JsValue) -> Result<HeadIn, JsValue> {
        let f = Fields::of(what, v)?;
        Ok(HeadIn {
            x: f.opt_matrix("x")?,
            w_q: f.opt_matrix("W_q")?,
            w_k: f.opt_matrix("W_k")?,
            w_v: f.opt_matrix("W_v")?,
            causal: f.flag("causal", true)?,
            scaled: f.flag("scaled", false)?,
        })
    }

    /// x (T, C) and the weights (d, C), missing ones taken from the h/o/u head.
    pub(crate) fn head(self) -> Result<(Matrix, HeadWeights), JsValue> {
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
