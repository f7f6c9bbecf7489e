//! Every coded error of the core crosses to the page the same way (`thrown`): a JS
//! `Error` with the English `message`, a stable `code` and named `params`, which
//! `errorText` (www/js/i18n/i18n.js) says from the string table `err.<code>` in the learner's
//! language. A param that is itself an error (the reason a sentence wraps) is a plain
//! object `{ code, params, message }`, which survives postMessage.

use wasm_bindgen::prelude::*;

use super::js_object;
use crate::error::{Coded, Domain, Param};
use crate::explain::ExplainError;
use crate::lesson::LessonError;
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

impl<D: Domain> CodedError for Coded<D> {
    fn code(&self) -> &'static str {
        Coded::code(self)
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

/// Errors that are one of the crate's coded errors underneath.
macro_rules! coded_via {
    ($($ty:ty => $coded:expr),* $(,)?) => {$(
        impl CodedError for $ty {
            fn code(&self) -> &'static str {
                $coded(self).code()
            }

            fn js_params(&self) -> Vec<(&'static str, JsValue)> {
                CodedError::js_params(&$coded(self))
            }

            fn message(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

coded_via!(
    LessonError => |e: &LessonError| e.coded().clone(),
    ExplainError => |e: &ExplainError| e.coded(),
);

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
