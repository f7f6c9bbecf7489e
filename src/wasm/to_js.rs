//! Rust values to JS values: every result the page gets (`to_js`).
//!
//! Results are plain objects (maps too, so an explanation's flattened `op` fields are
//! fields), `None` is `null`, and −∞ and NaN stay numbers; matrices are
//! `{ rows, cols, data }` (`Matrix: Serialize`, src/serialize/) with `data` one
//! `Float64Array`, copied out of wasm memory at once (a GPT map's one `Float32Array`).

use std::cell::RefCell;

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Every result the page gets goes through here: written as a tape of tokens, then
/// built into JS values by one walk (`crate::serialize`). It replaced serde-wasm-bindgen's
/// serializer, whose per-type generic code costs the lesson's wasm 2.6 KB gzipped more
/// (measured with matrices as typed arrays, through its `preserve`), and gives the typed
/// arrays a place of their own (a run token) instead of a JS value made inside `Serialize`.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    match crate::serialize::tape(value) {
        Ok(t) => Ok(crate::serialize::build(&t, &mut Js)),
        Err(e) => Err(JsError::new(&format!(
            "internal: could not hand numbers to the page: {e}"
        ))),
    }
}

/// Builds plain JS values: numbers, strings, booleans, null, `Array`s and `Object`s, and
/// a run of numbers (`F64s`, `F32s`) as one typed array.
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
    fn f64s(&mut self, xs: &[f64]) -> JsValue {
        js_sys::Float64Array::from(xs).into()
    }
    fn f32s(&mut self, xs: &[f32]) -> JsValue {
        // Only the GPT's maps are f32: the lesson's build (no `gpt`) keeps Float32Array's
        // glue out (0.6 KB of JS) and would send the same numbers as f64s.
        #[cfg(feature = "gpt")]
        return js_sys::Float32Array::from(xs).into();
        #[cfg(not(feature = "gpt"))]
        return self.f64s(&xs.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
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
