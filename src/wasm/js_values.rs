//! JS values to Rust: the page's input objects, read field by field (`Fields`, `MatIn`);
//! results go out through `to_js` (src/wasm/to_js.rs), errors through `errors::thrown`.

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;

use super::thrown;
use crate::lesson::error::{lesson_error, Lesson};
use crate::lesson::{LessonError, MAX_SIDE};
use crate::tensor::Matrix;

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

/// One of the page's input objects, read field by field by hand (no serde: its
/// deserializer and its messages cost the lesson's wasm 3.4 KB gzipped). A field is absent when
/// the object has no such property (a property set to `undefined` is present, as serde
/// read it); every refusal is `lesson.input.malformed` with `what` (the export) and a
/// detail naming the field and what it must be.
pub(crate) struct Fields<'a> {
    what: &'a str,
    /// The path of this object inside the argument (`""`, or `"W_q."` for a nested one).
    at: String,
    obj: JsValue,
}

/// What a JS value is, for a refusal's detail.
fn kind_of(v: &JsValue) -> &'static str {
    if v.is_undefined() {
        "undefined"
    } else if v.is_null() {
        "null"
    } else if v.as_bool().is_some() {
        "a boolean"
    } else if v.as_f64().is_some() {
        "a number"
    } else if v.is_string() {
        "a string"
    } else if Array::is_array(v) {
        "an array"
    } else if v.is_object() {
        "an object"
    } else {
        "another kind of value"
    }
}

impl<'a> Fields<'a> {
    /// `v` must be an object (arrays and other objects too, as serde took them).
    pub(crate) fn of(what: &'a str, v: JsValue) -> Result<Self, JsValue> {
        if !v.is_object() {
            return Err(malformed(
                what,
                format!("expected an object, got {}", kind_of(&v)),
            ));
        }
        Ok(Fields {
            what,
            at: String::new(),
            obj: v,
        })
    }

    fn wrong(&self, name: &str, expected: &str, got: &JsValue) -> JsValue {
        let (at, got) = (&self.at, kind_of(got));
        malformed(
            self.what,
            format!("`{at}{name}` must be {expected}, got {got}"),
        )
    }

    /// The value of property `name`, `None` when the object has no such property.
    fn get(&self, name: &str) -> Result<Option<JsValue>, JsValue> {
        let key = JsValue::from_str(name);
        let v = Reflect::get(&self.obj, &key)?;
        Ok((!v.is_undefined() || Reflect::has(&self.obj, &key)?).then_some(v))
    }

    fn required(&self, name: &str) -> Result<JsValue, JsValue> {
        self.get(name)?.ok_or_else(|| {
            let at = &self.at;
            malformed(self.what, format!("missing field `{at}{name}`"))
        })
    }

    /// A whole number ≥ 0 (a safe integer, as serde read a `usize`).
    pub(crate) fn size(&self, name: &str) -> Result<usize, JsValue> {
        const MAX: f64 = 9_007_199_254_740_991.0; // Number.MAX_SAFE_INTEGER
        let v = self.required(name)?;
        match v.as_f64() {
            Some(x) if x == x.trunc() && (0.0..=MAX).contains(&x) && x <= usize::MAX as f64 => {
                Ok(x as usize)
            }
            _ => Err(self.wrong(name, "a whole number ≥ 0", &v)),
        }
    }

    /// A number (NaN and ±∞ too; the checks after say what they allow).
    pub(crate) fn number(&self, name: &str) -> Result<f64, JsValue> {
        let v = self.required(name)?;
        v.as_f64().ok_or_else(|| self.wrong(name, "a number", &v))
    }

    /// `true` or `false`, `default` when absent.
    pub(crate) fn flag(&self, name: &str, default: bool) -> Result<bool, JsValue> {
        match self.get(name)? {
            None => Ok(default),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| self.wrong(name, "true or false", &v)),
        }
    }

    /// The items of an array (or of any iterable, a typed array too, as serde took them).
    fn items(&self, name: &str, expected: &str) -> Result<Vec<JsValue>, JsValue> {
        let v = self.required(name)?;
        if let Some(a) = v.dyn_ref::<Array>() {
            return Ok(a.to_vec());
        }
        match js_sys::try_iter(&v)? {
            Some(it) => it.collect(),
            None => Err(self.wrong(name, expected, &v)),
        }
    }

    /// An array of items each read by `one` (`None`: not of the kind `expected` names).
    fn list<T>(
        &self,
        name: &str,
        expected: &str,
        one: fn(&JsValue) -> Option<T>,
    ) -> Result<Vec<T>, JsValue> {
        let items = self.items(name, expected)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            match one(v) {
                Some(x) => out.push(x),
                None => {
                    let (at, got) = (&self.at, kind_of(v));
                    return Err(malformed(
                        self.what,
                        format!("`{at}{name}` must be {expected}; item {i} is {got}"),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// An array of numbers (or a `Float64Array`, as a matrix's `data` comes out: read as
    /// any iterable; a typed fast path would cost the lesson's wasm ~1 KB gzipped).
    pub(crate) fn numbers(&self, name: &str) -> Result<Vec<f64>, JsValue> {
        self.list(name, "an array of numbers", JsValue::as_f64)
    }

    /// An array of `true`/`false`.
    pub(crate) fn flags(&self, name: &str) -> Result<Vec<bool>, JsValue> {
        self.list(name, "an array of true/false", JsValue::as_bool)
    }

    /// Matrix `name`: `{ rows, cols, data }`.
    pub(crate) fn matrix(&self, name: &str) -> Result<MatIn, JsValue> {
        let v = self.required(name)?;
        self.mat_value(name, v)
    }

    /// Matrix `name`, `None` when absent, `null` or `undefined`.
    pub(crate) fn opt_matrix(&self, name: &str) -> Result<Option<MatIn>, JsValue> {
        match self.get(name)? {
            Some(v) if !v.is_null() && !v.is_undefined() => self.mat_value(name, v).map(Some),
            _ => Ok(None),
        }
    }

    fn mat_value(&self, name: &str, v: JsValue) -> Result<MatIn, JsValue> {
        if !v.is_object() {
            return Err(self.wrong(name, "{ rows, cols, data }", &v));
        }
        let at = &self.at;
        Fields {
            what: self.what,
            at: format!("{at}{name}."),
            obj: v,
        }
        .mat_here()
    }

    fn mat_here(&self) -> Result<MatIn, JsValue> {
        Ok(MatIn {
            rows: self.size("rows")?,
            cols: self.size("cols")?,
            data: self.numbers("data")?,
        })
    }
}

/// A matrix as the page sends it: `{ rows, cols, data }`, row-major.
pub(crate) struct MatIn {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) data: Vec<f64>,
}

impl MatIn {
    /// The page's argument `v` as a matrix (`what` names the export).
    pub(crate) fn read(what: &str, v: JsValue) -> Result<MatIn, JsValue> {
        Fields::of(what, v)?.mat_here()
    }

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
