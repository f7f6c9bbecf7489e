//! What crosses the boundary, in one place: results out (`to_js`), matrices in
//! (`MatIn`); errors go out through `errors::thrown`.
//!
//! Results are plain objects (maps too, so an explanation's flattened `op` fields are
//! fields), `None` is `null`, and −∞ and NaN stay numbers; matrices are
//! `{ rows, cols, data }` (`Matrix: Serialize`, src/serialize.rs).

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::thrown;
use crate::lesson::error::{lesson_error, Lesson};
use crate::lesson::{LessonError, MAX_SIDE};
use crate::tensor::Matrix;

/// Every result the page gets goes through here.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new()
        .serialize_maps_as_objects(true)
        .serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(|e| {
        JsError::new(&format!(
            "internal: could not hand numbers to the page: {e}"
        ))
    })
}

/// Reads the page's input object, naming the export in the message (serde's own words
/// stay the detail).
pub(crate) fn input<T: for<'de> Deserialize<'de>>(what: &str, v: JsValue) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(v).map_err(|e| malformed(what, e))
}

/// The page handed `what` in a form the core cannot read.
pub(crate) fn malformed(what: &str, detail: impl std::fmt::Display) -> JsValue {
    refused(lesson_error!(
        "lesson.input.malformed",
        what,
        detail = detail.to_string()
    ))
}

/// A learner-facing refusal of the boundary, with its code.
pub(crate) fn refused(e: LessonError) -> JsValue {
    thrown(&e)
}

/// A matrix as the page sends it: `{ rows, cols, data }`, row-major.
#[derive(Deserialize)]
pub(crate) struct MatIn {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) data: Vec<f64>,
}

impl MatIn {
    /// Checked: 1..=MAX_SIDE rows and columns, `rows·cols` finite numbers; the message
    /// names the matrix.
    pub(crate) fn matrix(self, name: &str) -> Result<Matrix, JsValue> {
        self.wide_matrix(name, MAX_SIDE)
    }

    /// Checked as `matrix`, with up to `max_cols` columns (a head's q and k may be wide).
    pub(crate) fn wide_matrix(self, name: &str, max_cols: usize) -> Result<Matrix, JsValue> {
        let MatIn { rows, cols, data } = self;
        if rows == 0 || rows > MAX_SIDE {
            let max = MAX_SIDE;
            return Err(refused(lesson_error!(
                "lesson.input.rows",
                name,
                max,
                rows,
                cols
            )));
        }
        if cols == 0 || cols > max_cols {
            let max = max_cols;
            return Err(refused(lesson_error!(
                "lesson.input.cols",
                name,
                max,
                rows,
                cols
            )));
        }
        if let Some(i) = data.iter().position(|v| !v.is_finite()) {
            let (row, col) = (i / cols, i % cols);
            return Err(refused(lesson_error!(
                "lesson.input.not_finite",
                name,
                i,
                row,
                col
            )));
        }
        Matrix::from_vec(rows, cols, data).map_err(|e| {
            refused(lesson_error!(
                "lesson.input.shape",
                name,
                reason = e.into_domain::<Lesson>()
            ))
        })
    }
}

/// A plain JS object with these properties.
pub(crate) fn js_object(props: &[(&str, JsValue)]) -> js_sys::Object {
    let obj = js_sys::Object::new();
    for (k, v) in props {
        let _ = js_sys::Reflect::set(&obj, &(*k).into(), v);
    }
    obj
}
