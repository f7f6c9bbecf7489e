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

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::tensor::Matrix;

impl Serialize for Matrix {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Matrix", 3)?;
        st.serialize_field("rows", &self.rows)?;
        st.serialize_field("cols", &self.cols)?;
        st.serialize_field("data", &self.data)?;
        st.end()
    }
}

#[cfg(any(target_arch = "wasm32", test))]
pub(crate) use tape::{build, tape, Build};

#[cfg(any(target_arch = "wasm32", test))]
mod tape;

#[cfg(test)]
mod tests;
