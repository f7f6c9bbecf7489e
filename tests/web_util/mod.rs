//! Helpers of the browser suites (tests/web*.rs).

use wasm_bindgen::JsValue;

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
