//! How the core's values serialise for the page: a `Matrix` is `{ rows, cols, data }`
//! with `data` row-major. Through serde-wasm-bindgen −∞ (a masked score) and NaN stay
//! numbers; JSON would turn them into null, so the boundary never goes through JSON.

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

#[cfg(test)]
mod tests {
    use crate::tensor::Matrix;

    #[test]
    fn a_matrix_is_rows_cols_and_row_major_data() {
        let m = Matrix::from_vec(2, 3, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "rows": 2, "cols": 3, "data": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] })
        );
    }
}
