//! Helpers of the browser suites (tests/web*.rs); each suite uses some of them.
#![allow(dead_code)]

use js_sys::{Array, ArrayBuffer, Object, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::{JsCast, JsValue};

/// The message of the JS Error an export threw; panics if it returned Ok.
pub fn message<T, E: Into<JsValue>>(r: Result<T, E>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => js_sys::Error::from(e.into())
            .message()
            .as_string()
            .unwrap_or_default(),
    }
}

/// `v` with each typed array in it (a matrix's data) an `Array` of the same numbers, for
/// `from_value`: serde-wasm-bindgen reads a typed array as a sequence, but not into a
/// `serde_json::Value` (its `deserialize_any` takes plain arrays only).
pub fn plain(v: &JsValue) -> JsValue {
    if ArrayBuffer::is_view(v) {
        Array::from(v).into()
    } else if let Some(a) = v.dyn_ref::<Array>() {
        a.iter().map(|x| plain(&x)).collect::<Array>().into()
    } else if v.is_object() && !v.is_function() {
        let out = Object::new();
        for key in Object::keys(v.unchecked_ref::<Object>()).iter() {
            let x = Reflect::get(v, &key).unwrap();
            Reflect::set(&out, &key, &plain(&x)).unwrap();
        }
        out.into()
    } else {
        v.clone()
    }
}

/// serde-wasm-bindgen's `from_value` of `plain(v)`.
pub fn from_value<T: DeserializeOwned>(v: JsValue) -> Result<T, serde_wasm_bindgen::Error> {
    serde_wasm_bindgen::from_value(plain(&v))
}

/// Property `key` of `v`.
pub fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

/// The f64s of a `Float64Array`; panics (naming `what`) if `v` is anything else.
pub fn f64s(v: &JsValue, what: &str) -> Vec<f64> {
    v.dyn_ref::<js_sys::Float64Array>()
        .unwrap_or_else(|| panic!("{what}: data is not a Float64Array"))
        .to_vec()
}

/// The f32s of a `Float32Array`; panics (naming `what`) if `v` is anything else.
pub fn f32s(v: &JsValue, what: &str) -> Vec<f32> {
    v.dyn_ref::<js_sys::Float32Array>()
        .unwrap_or_else(|| panic!("{what}: data is not a Float32Array"))
        .to_vec()
}

/// How many matrices (`{ rows, cols, data }`) `v` holds, asserting each one's data is a
/// Float64Array of rows·cols numbers.
pub fn typed_matrices(what: &str, v: &JsValue) -> usize {
    if let Some(a) = v.dyn_ref::<Array>() {
        return a.iter().map(|x| typed_matrices(what, &x)).sum();
    }
    if !v.is_object() || ArrayBuffer::is_view(v) {
        return 0;
    }
    let keys = Object::keys(v.unchecked_ref::<Object>());
    let has = |k: &str| keys.includes(&k.into(), 0);
    let own = if has("rows") && has("cols") && has("data") {
        let n = get(v, "rows").as_f64().unwrap() * get(v, "cols").as_f64().unwrap();
        assert_eq!(
            f64s(&get(v, "data"), what).len() as f64,
            n,
            "{what}: rows·cols"
        );
        1
    } else {
        0
    };
    own + keys
        .iter()
        .map(|k| typed_matrices(what, &Reflect::get(v, &k).unwrap()))
        .sum::<usize>()
}
