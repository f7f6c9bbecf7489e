//! How the core's values serialise for the page: a `Matrix` is `{ rows, cols, data }`
//! with `data` row-major. The boundary (src/wasm/js_values.rs `to_js`) writes a value as a
//! flat `Tape` of tokens with serde (tiny, per-type trait methods), then one non-generic
//! walk (`build`) turns the tape into JS values: −∞ (a masked score) and NaN stay
//! numbers; JSON would turn them into null, so the boundary never goes through JSON.
//!
//! The tape gives what serde-wasm-bindgen gave with `serialize_maps_as_objects` and
//! `serialize_missing_as_null`: structs and maps (so `#[serde(flatten)]` fields too) are
//! plain objects, sequences and tuples arrays, `None` and `()` null, enums serde's
//! externally tagged default (`"Unit"`, `{ Variant: value }`), integers numbers (beyond
//! ±(2^53 − 1) an error, as there). `build` is generic over its `Build`er only so that a
//! native test can build `serde_json` values from the same walk; the wasm has one builder.
//!
//! A run of numbers written through `F64s` (a matrix's `data`) or `F32s` (a GPT's attention
//! map) is one token on the tape, and one `Float64Array` or `Float32Array` in JS, copied out
//! of wasm memory at once: not an array built one number at a time. Any other serializer
//! (serde_json, the native tests) sees a newtype struct around a sequence, i.e. the sequence.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::tensor::Matrix;

/// The newtype names the tape reads a run of numbers by (`Tape::serialize_newtype_struct`).
pub(crate) const F64S: &str = "attention_playground::F64s";
#[cfg_attr(not(all(target_arch = "wasm32", feature = "gpt")), allow(dead_code))]
pub(crate) const F32S: &str = "attention_playground::F32s";

/// Numbers that cross to JS as one `Float64Array` (a plain sequence to other serializers).
pub(crate) struct F64s<'a>(pub(crate) &'a [f64]);

impl Serialize for F64s<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(F64S, self.0)
    }
}

/// f32 numbers that cross to JS as one `Float32Array` (a plain sequence to other
/// serializers): each element is the f32 itself, read in JS as the same number.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "gpt")), allow(dead_code))] // the GPT's maps
pub(crate) struct F32s<'a>(pub(crate) &'a [f32]);

impl Serialize for F32s<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(F32S, self.0)
    }
}

impl Serialize for Matrix {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Matrix", 3)?;
        st.serialize_field("rows", &self.rows)?;
        st.serialize_field("cols", &self.cols)?;
        st.serialize_field("data", &F64s(&self.data))?;
        st.end()
    }
}

#[cfg(any(target_arch = "wasm32", test))]
pub(crate) use build::{build, Build};
#[cfg(any(target_arch = "wasm32", test))]
pub(crate) use tape::tape;

#[cfg(any(target_arch = "wasm32", test))]
mod build;
#[cfg(any(target_arch = "wasm32", test))]
mod tape;

#[cfg(test)]
mod tests;
