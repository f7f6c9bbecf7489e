//! Every coded error of the core crosses to the page the same way (`thrown`): a JS
//! `Error` with the English `message`, a stable `code` and named `params`, which
//! `errorText` (www/js/i18n.js) says from the string table `err.<code>` in the learner's
//! language. A param that is itself an error (the reason a sentence wraps) is a plain
//! object `{ code, params, message }`, which survives postMessage.

use wasm_bindgen::prelude::*;

use super::js_object;
use crate::explain::ExplainError;
use crate::gpt::{GptError, Param};
use crate::parse::NumberError;

/// An error with a code and named params, said by the page.
pub(crate) trait CodedError {
    fn code(&self) -> &'static str;
    /// The params as JS values: text, or `error_object` of a wrapped error.
    fn js_params(&self) -> Vec<(&'static str, JsValue)>;
    /// The English message.
    fn message(&self) -> String;
}

/// The JS `Error` the page catches for `e`.
pub(crate) fn thrown(e: &dyn CodedError) -> JsValue {
    let err = js_sys::Error::new(&e.message());
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    let _ = js_sys::Reflect::set(&err, &"params".into(), &js_object(&e.js_params()));
    err.into()
}

/// `{ code, params, message }` of `e`, as a plain object.
pub(crate) fn error_object(e: &dyn CodedError) -> js_sys::Object {
    js_object(&[
        ("code", e.code().into()),
        ("params", js_object(&e.js_params()).into()),
        ("message", e.message().into()),
    ])
}

impl CodedError for GptError {
    fn code(&self) -> &'static str {
        GptError::code(self)
    }

    fn js_params(&self) -> Vec<(&'static str, JsValue)> {
        self.params()
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Param::Text(s) => JsValue::from(s.as_str()),
                    Param::Error(inner) => error_object(inner).into(),
                };
                (*k, v)
            })
            .collect()
    }

    fn message(&self) -> String {
        self.to_string()
    }
}

impl CodedError for NumberError {
    fn code(&self) -> &'static str {
        NumberError::code(self)
    }

    fn js_params(&self) -> Vec<(&'static str, JsValue)> {
        self.text()
            .map(|t| ("text", t.into()))
            .into_iter()
            .collect()
    }

    fn message(&self) -> String {
        self.to_string()
    }
}

impl CodedError for ExplainError {
    fn code(&self) -> &'static str {
        ExplainError::code(self)
    }

    fn js_params(&self) -> Vec<(&'static str, JsValue)> {
        self.params()
            .into_iter()
            .map(|(k, v)| (k, JsValue::from(v)))
            .collect()
    }

    fn message(&self) -> String {
        self.to_string()
    }
}
