//! Rust values to JS values and back, in one place: results out (`to_js`), input
//! objects in (`Fields`, `MatIn`); errors go out through `errors::thrown`.
//!
//! Results are plain objects (maps too, so an explanation's flattened `op` fields are
//! fields), `None` is `null`, and −∞ and NaN stay numbers; matrices are
//! `{ rows, cols, data }` (`Matrix: Serialize`, src/serialize/).

use std::cell::RefCell;

use js_sys::{Array, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::thrown;
use crate::lesson::error::{lesson_error, Lesson};
use crate::lesson::{LessonError, MAX_SIDE};
use crate::tensor::Matrix;

/// Every result the page gets goes through here: written as a tape of tokens, then
/// built into JS values by one walk (`crate::serialize`; it replaced serde-wasm-bindgen's
/// serializer, whose per-type generic code cost the lesson's wasm more).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    match crate::serialize::tape(value) {
        Ok(t) => Ok(crate::serialize::build(&t, &mut Js)),
        Err(e) => Err(JsError::new(&format!(
            "internal: could not hand numbers to the page: {e}"
        ))),
    }
}

/// Builds plain JS values: numbers, strings, booleans, null, `Array`s and `Object`s.
struct Js;

impl crate::serialize::Build for Js {
    type V = JsValue;
    fn num(&mut self, x: f64) -> JsValue {
        JsValue::from_f64(x)
    }
    fn bool(&mut self, b: bool) -> JsValue {
        JsValue::from_bool(b)
    }
    fn null(&mut self) -> JsValue {
        JsValue::NULL
    }
    fn str(&mut self, s: &str) -> JsValue {
        JsValue::from_str(s)
    }
    fn array(&mut self) -> JsValue {
        Array::new().into()
    }
    fn push(&mut self, array: &mut JsValue, item: JsValue) {
        array.unchecked_ref::<Array>().push(&item);
    }
    fn object(&mut self) -> JsValue {
        js_sys::Object::new().into()
    }
    fn set(&mut self, object: &mut JsValue, key: &str, value: JsValue) {
        object
            .unchecked_ref::<Plain>()
            .put(&JsValue::from_str(key), &value);
    }
    fn set_name(&mut self, object: &mut JsValue, key: &'static str, value: JsValue) {
        NAMES.with(|names| {
            let object = object.unchecked_ref::<Plain>();
            match names.borrow_mut().get(key) {
                Some(key) => object.put(key, &value),
                None => object.put(&JsValue::from_str(key), &value),
            }
        });
    }
}

thread_local! {
    static NAMES: RefCell<Names> = const { RefCell::new(Names(Vec::new())) };
}

/// The JS string of each field name, made once: decoding a key from UTF-8 on every call
/// cost more than the rest of writing a result. An open-addressed table by the name's
/// address and length (std's HashMap costs the lesson's wasm 3 KB gzipped).
struct Names(Vec<Option<(usize, usize, JsValue)>>);

impl Names {
    const SLOTS: usize = 1 << 10; // a few hundred field names in all

    /// The name's JS string; `None` only if the table is full.
    fn get(&mut self, key: &'static str) -> Option<&JsValue> {
        if self.0.is_empty() {
            self.0.resize_with(Self::SLOTS, || None);
        }
        let (ptr, len) = (key.as_ptr() as usize, key.len());
        let hash = (ptr as u32 ^ (len as u32).rotate_left(16)).wrapping_mul(0x9e37_79b1);
        let start = (hash >> 22) as usize; // the top 10 bits
        let at = (0..Self::SLOTS)
            .map(|i| (start + i) % Self::SLOTS)
            .find(|&i| !matches!(&self.0[i], Some((p, l, _)) if (*p, *l) != (ptr, len)))?;
        let slot = &mut self.0[at];
        Some(
            &slot
                .get_or_insert_with(|| (ptr, len, JsValue::from_str(key)))
                .2,
        )
    }
}

#[wasm_bindgen]
extern "C" {
    /// A plain object of ours, being written.
    #[wasm_bindgen(extends = js_sys::Object)]
    type Plain;
    /// `object[key] = value`: no Reflect, no try (it cannot throw on a plain object).
    #[wasm_bindgen(method, indexing_setter)]
    fn put(this: &Plain, key: &JsValue, value: &JsValue);
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

    /// An array of numbers.
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
