//! The tape against serde_json: the page gets the shapes serde-wasm-bindgen gave it, with
//! every matrix's data one run of numbers (a typed array in JS). The core's real results
//! are in lesson.rs.

use serde::Serialize;
use serde_json::{json, Value};

use super::tape::Tok;
use super::{build, tape, Build, F32s, F64s};
use crate::tensor::Matrix;

mod lesson;

#[test]
fn a_matrix_is_rows_cols_and_row_major_data() {
    let m = Matrix::from_vec(2, 3, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(
        json,
        serde_json::json!({ "rows": 2, "cols": 3, "data": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] })
    );
}

/// Builds `serde_json` values by the walk the wasm builds JS values with; a
/// non-finite number (which JSON cannot hold) becomes the marker string "\0" + it. A run
/// of numbers (a typed array in JS) becomes an array, counted in `runs`.
#[derive(Default)]
struct Json {
    runs: usize,
}

impl Build for Json {
    type V = Value;
    fn num(&mut self, x: f64) -> Value {
        if x.is_finite() {
            json!(x)
        } else {
            Value::String(format!("\0{x}"))
        }
    }
    fn bool(&mut self, b: bool) -> Value {
        Value::Bool(b)
    }
    fn null(&mut self) -> Value {
        Value::Null
    }
    fn str(&mut self, s: &str) -> Value {
        Value::String(s.to_owned())
    }
    fn f64s(&mut self, xs: &[f64]) -> Value {
        self.runs += 1;
        Value::Array(xs.iter().map(|&x| self.num(x)).collect())
    }
    fn f32s(&mut self, xs: &[f32]) -> Value {
        self.runs += 1;
        Value::Array(xs.iter().map(|&x| self.num(x.into())).collect())
    }
    fn array(&mut self) -> Value {
        Value::Array(Vec::new())
    }
    fn push(&mut self, array: &mut Value, item: Value) {
        array.as_array_mut().unwrap().push(item);
    }
    fn object(&mut self) -> Value {
        Value::Object(Default::default())
    }
    fn set(&mut self, object: &mut Value, key: &str, value: Value) {
        object
            .as_object_mut()
            .unwrap()
            .insert(key.to_owned(), value);
    }
}

/// Whether the tape's value `got` is serde_json's `want`: numbers equal as f64 (serde
/// keeps 2 and 2.0 apart, JS does not), a non-finite marker where JSON has null
/// (counted in `non_finite`).
fn same(got: &Value, want: &Value, non_finite: &mut usize) -> bool {
    match (got, want) {
        (Value::String(s), Value::Null) if s.starts_with('\0') => {
            *non_finite += 1;
            true
        }
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b, non_finite))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| same(v, w, non_finite)))
        }
        _ => got == want,
    }
}

/// How many `{ rows, cols, data: [...] }` objects (matrices) `v` holds.
fn matrices(v: &Value) -> usize {
    match v {
        Value::Array(items) => items.iter().map(matrices).sum(),
        Value::Object(o) => {
            let own = ["rows", "cols"].iter().all(|k| o.contains_key(*k))
                && o.get("data").is_some_and(Value::is_array);
            usize::from(own) + o.values().map(matrices).sum::<usize>()
        }
        _ => 0,
    }
}

/// Asserts the tape of `v` is serde_json's value of it, and that each matrix in it is one
/// run of numbers; returns how many non-finite numbers it holds.
fn check<T: Serialize + ?Sized>(what: &str, v: &T) -> usize {
    let t = tape(v).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut json = Json::default();
    let got = build(&t, &mut json);
    let want = serde_json::to_value(v).unwrap();
    let mut non_finite = 0;
    assert!(
        same(&got, &want, &mut non_finite),
        "{what}:\n got {got}\nwant {want}"
    );
    assert_eq!(
        json.runs,
        matrices(&want),
        "{what}: a matrix's data as one run"
    );
    non_finite
}

#[test]
fn a_matrix_s_data_is_one_run_on_the_tape_bit_for_bit() {
    let data = vec![
        1.5,
        f64::NEG_INFINITY,
        f64::NAN,
        -0.0,
        f64::MIN_POSITIVE / 4.0,
    ];
    let m = Matrix::from_vec(1, 5, data.clone()).unwrap();
    let t = tape(&m).unwrap();
    assert_eq!(t.len(), 8, "{{ rows, cols, data: one token }}");
    match &t[6] {
        Tok::F64s(got) => {
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got), bits(&data));
        }
        _ => panic!("data is not one run"),
    }
    // f32 numbers stay f32, each the same number; a run may be empty.
    let f = [0.1f32, f32::NEG_INFINITY, f32::NAN, -0.0, 1e-45];
    match &tape(&F32s(&f)).unwrap()[..] {
        [Tok::F32s(got)] => {
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got), bits(&f));
        }
        _ => panic!("not one f32 run"),
    }
    assert!(matches!(&tape(&F64s(&[])).unwrap()[..], [Tok::F64s(v)] if v.is_empty()));
    // Other serializers see the plain sequence.
    assert_eq!(
        serde_json::to_value(F32s(&[0.5, 2.0])).unwrap(),
        json!([0.5, 2.0])
    );
    let mut json = Json::default();
    let got = build(
        &tape(&(F32s(&[0.5]), F64s(&[1.0, 2.0]))).unwrap(),
        &mut json,
    );
    assert_eq!((got, json.runs), (json!([[0.5], [1.0, 2.0]]), 2));
}

#[test]
fn non_finite_numbers_none_and_scalars_keep_their_shapes() {
    let m = Matrix::from_vec(1, 4, vec![1.5, f64::NEG_INFINITY, f64::NAN, -0.0]).unwrap();
    assert_eq!(check("matrix", &m), 2);
    let t = tape(&m).unwrap();
    let got = build(&t, &mut Json::default());
    assert_eq!(got["data"][1], json!("\0-inf"));
    assert_eq!(got["data"][2], json!("\0NaN"));
    assert_eq!(check("none", &None::<Matrix>), 0);
    let none = build(&tape(&None::<f64>).unwrap(), &mut Json::default());
    assert_eq!(none, Value::Null);
    assert_eq!(
        build(&tape(&()).unwrap(), &mut Json::default()),
        Value::Null
    );
    check("some", &Some(3usize));
    check("u64", &((1u64 << 53) - 1));
    check("i64", &-(1i64 << 52));
    check("tuple", &(1u8, "two", 'c', true, [0.5f32]));
}

#[test]
fn derived_structs_enums_flatten_and_maps_keep_serde_json_shapes() {
    #[derive(Serialize)]
    struct Unit;
    #[derive(Serialize)]
    struct New(Vec<u32>);
    #[derive(Serialize)]
    struct Inner {
        a: i32,
        b: Option<String>,
    }
    #[derive(Serialize)]
    enum E {
        Unit,
        New(f64),
        Tuple(u8, bool),
        Struct { x: f64 },
    }
    #[derive(Serialize)]
    #[serde(tag = "op", rename_all = "snake_case")]
    enum Tagged {
        Plain { value: f64 },
        Wrapped(Inner),
    }
    #[derive(Serialize)]
    struct Flat {
        k: &'static str,
        #[serde(flatten)]
        inner: Inner,
        #[serde(flatten)]
        op: Tagged,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }
    check("unit struct", &Unit);
    check("newtype struct", &New(vec![1, 2]));
    let enums = [
        E::Unit,
        E::New(-1.0),
        E::Tuple(3, false),
        E::Struct { x: 2.5 },
    ];
    check("enums", &enums);
    let flat = |op| Flat {
        k: "key \"quoted\" ü",
        inner: Inner { a: -7, b: None },
        op,
        skipped: None,
    };
    let infinite = Tagged::Plain {
        value: f64::INFINITY,
    };
    check("flatten", &flat(infinite));
    let inner = Inner {
        a: 1,
        b: Some("s".into()),
    };
    check("flatten newtype", &flat(Tagged::Wrapped(inner)));
    let map: std::collections::BTreeMap<String, Vec<f64>> =
        [("a".to_string(), vec![1.0]), ("b".to_string(), vec![])].into();
    check("map", &map);
    let nested = (Vec::<Vec<u8>>::new(), vec![Vec::<u8>::new()]);
    check("nested empty", &nested);
}

#[test]
fn what_javascript_cannot_hold_is_refused_as_before() {
    assert!(tape(&(1u64 << 53)).is_err());
    assert!(tape(&i64::MIN).is_err());
    let map: std::collections::BTreeMap<u8, u8> = [(1, 2)].into();
    assert!(tape(&map).is_err());
}
