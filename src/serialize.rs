//! How the core's values serialise for the page: a `Matrix` is `{ rows, cols, data }`
//! with `data` row-major. The boundary (src/wasm/boundary.rs `to_js`) writes a value as a
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
mod tape {
    use serde::ser::{self, Serialize};
    use std::fmt;

    /// One token of a value: a scalar, or the start or end of an array or object. An
    /// object's tokens alternate key (`Str` or `Name`) and value.
    pub(crate) enum Tok {
        Num(f64),
        Bool(bool),
        Null,
        Str(String),
        /// A field, variant or key name the program itself holds.
        Name(&'static str),
        Arr,
        Obj,
        End,
    }

    /// Why a value could not be written (no value of the core's gets one: an integer
    /// beyond 2^53, a map key that is not a string, bytes).
    pub(crate) struct Error(String);

    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }

    // By hand: a derived Debug would quote the message with `<str as Debug>::fmt`.
    impl fmt::Debug for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for Error {}

    impl ser::Error for Error {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Error(msg.to_string())
        }
    }

    fn fail(what: &str) -> Error {
        Error(what.to_string())
    }

    /// `value` as tokens.
    pub(crate) fn tape<T: Serialize + ?Sized>(value: &T) -> Result<Vec<Tok>, Error> {
        let mut t = Tape(Vec::new());
        value.serialize(&mut t)?;
        Ok(t.0)
    }

    pub(crate) struct Tape(Vec<Tok>);

    impl Tape {
        fn put(&mut self, t: Tok) -> Result<(), Error> {
            self.0.push(t);
            Ok(())
        }

        /// Opens `{ variant: …` for a variant with data.
        fn variant(&mut self, variant: &'static str) {
            self.0.push(Tok::Obj);
            self.0.push(Tok::Name(variant));
        }

        /// Opens an array or object (`open`), inside `{ variant: …` for a variant.
        fn open(&mut self, variant: Option<&'static str>, open: Tok) -> Compound<'_> {
            if let Some(v) = variant {
                self.variant(v);
            }
            self.0.push(open);
            let ends = 1 + u8::from(variant.is_some());
            Compound { t: self, ends }
        }

        fn int(&mut self, v: f64) -> Result<(), Error> {
            const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
            if v.abs() > MAX_SAFE {
                return Err(fail("an integer beyond 2^53 cannot be a JavaScript number"));
            }
            self.put(Tok::Num(v))
        }

        /// A map key must have written one string token from `from` on.
        fn check_key(&self, from: usize) -> Result<(), Error> {
            match &self.0[from..] {
                [Tok::Str(_) | Tok::Name(_)] => Ok(()),
                _ => Err(fail("Map key is not a string and cannot be an object key")),
            }
        }
    }

    /// An array or object being written; `ends` tokens close it (2 in a variant).
    pub(crate) struct Compound<'a> {
        t: &'a mut Tape,
        ends: u8,
    }

    impl Compound<'_> {
        fn end(self) -> Result<(), Error> {
            for _ in 0..self.ends {
                self.t.0.push(Tok::End);
            }
            Ok(())
        }
    }

    /// The numbers every value of which a JavaScript number holds exactly.
    macro_rules! numbers {
        ($($method:ident($t:ty)),*) => {$(
            fn $method(self, v: $t) -> Result<(), Error> {
                self.put(Tok::Num(v.into()))
            }
        )*};
    }

    impl<'a> ser::Serializer for &'a mut Tape {
        type Ok = ();
        type Error = Error;
        type SerializeSeq = Compound<'a>;
        type SerializeTuple = Compound<'a>;
        type SerializeTupleStruct = Compound<'a>;
        type SerializeTupleVariant = Compound<'a>;
        type SerializeMap = Compound<'a>;
        type SerializeStruct = Compound<'a>;
        type SerializeStructVariant = Compound<'a>;

        fn serialize_bool(self, v: bool) -> Result<(), Error> {
            self.put(Tok::Bool(v))
        }
        fn serialize_i64(self, v: i64) -> Result<(), Error> {
            self.int(v as f64)
        }
        fn serialize_u64(self, v: u64) -> Result<(), Error> {
            self.int(v as f64)
        }
        numbers!(
            serialize_i8(i8),
            serialize_i16(i16),
            serialize_i32(i32),
            serialize_u8(u8),
            serialize_u16(u16),
            serialize_u32(u32),
            serialize_f32(f32),
            serialize_f64(f64)
        );
        fn serialize_char(self, v: char) -> Result<(), Error> {
            self.put(Tok::Str(v.into()))
        }
        fn serialize_str(self, v: &str) -> Result<(), Error> {
            self.put(Tok::Str(v.to_owned()))
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
            Err(fail("bytes are not handed to the page"))
        }
        fn serialize_none(self) -> Result<(), Error> {
            self.put(Tok::Null)
        }
        fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
            value.serialize(self)
        }
        fn serialize_unit(self) -> Result<(), Error> {
            self.put(Tok::Null)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
            self.put(Tok::Null)
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
        ) -> Result<(), Error> {
            self.put(Tok::Name(variant))
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            value.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            self.variant(variant);
            value.serialize(&mut *self)?;
            self.put(Tok::End)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
            Ok(self.open(None, Tok::Arr))
        }
        fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Error> {
            self.serialize_seq(None)
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Error> {
            self.serialize_seq(None)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            _: usize,
        ) -> Result<Compound<'a>, Error> {
            Ok(self.open(Some(variant), Tok::Arr))
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
            Ok(self.open(None, Tok::Obj))
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Error> {
            self.serialize_map(None)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            _: usize,
        ) -> Result<Compound<'a>, Error> {
            Ok(self.open(Some(variant), Tok::Obj))
        }
    }

    /// The compounds whose items are values.
    macro_rules! items {
        ($($tr:ident :: $method:ident),*) => {$(
            impl ser::$tr for Compound<'_> {
                type Ok = ();
                type Error = Error;
                fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                    v.serialize(&mut *self.t)
                }
                fn end(self) -> Result<(), Error> {
                    Compound::end(self)
                }
            }
        )*};
    }
    items!(
        SerializeSeq::serialize_element,
        SerializeTuple::serialize_element,
        SerializeTupleStruct::serialize_field,
        SerializeTupleVariant::serialize_field
    );

    /// The compounds whose items are named fields.
    macro_rules! fields {
        ($($tr:ident),*) => {$(
            impl ser::$tr for Compound<'_> {
                type Ok = ();
                type Error = Error;
                fn serialize_field<T: Serialize + ?Sized>(
                    &mut self,
                    key: &'static str,
                    v: &T,
                ) -> Result<(), Error> {
                    self.t.0.push(Tok::Name(key));
                    v.serialize(&mut *self.t)
                }
                fn end(self) -> Result<(), Error> {
                    Compound::end(self)
                }
            }
        )*};
    }
    fields!(SerializeStruct, SerializeStructVariant);

    impl ser::SerializeMap for Compound<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
            let from = self.t.0.len();
            key.serialize(&mut *self.t)?;
            self.t.check_key(from)
        }
        fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
            v.serialize(&mut *self.t)
        }
        fn end(self) -> Result<(), Error> {
            Compound::end(self)
        }
    }

    /// What `build` makes values with.
    pub(crate) trait Build {
        type V;
        fn num(&mut self, x: f64) -> Self::V;
        fn bool(&mut self, b: bool) -> Self::V;
        fn null(&mut self) -> Self::V;
        fn str(&mut self, s: &str) -> Self::V;
        fn array(&mut self) -> Self::V;
        fn push(&mut self, array: &mut Self::V, item: Self::V);
        fn object(&mut self) -> Self::V;
        fn set(&mut self, object: &mut Self::V, key: &str, value: Self::V);
    }

    /// The value `tape` writes.
    pub(crate) fn build<B: Build>(tape: &[Tok], b: &mut B) -> B::V {
        let mut at = 0;
        value(tape, &mut at, b)
    }

    fn value<B: Build>(tape: &[Tok], at: &mut usize, b: &mut B) -> B::V {
        let Some(tok) = tape.get(*at) else {
            return b.null();
        };
        *at += 1;
        match tok {
            Tok::Num(x) => b.num(*x),
            Tok::Bool(v) => b.bool(*v),
            Tok::Null | Tok::End => b.null(),
            Tok::Str(s) => b.str(s),
            Tok::Name(s) => b.str(s),
            Tok::Arr => {
                let mut a = b.array();
                while !closes(tape, at) {
                    let item = value(tape, at, b);
                    b.push(&mut a, item);
                }
                a
            }
            Tok::Obj => {
                let mut o = b.object();
                while !closes(tape, at) {
                    let key = match &tape[*at] {
                        Tok::Str(s) => s.as_str(),
                        Tok::Name(s) => s,
                        _ => "",
                    };
                    *at += 1;
                    let v = value(tape, at, b);
                    b.set(&mut o, key, v);
                }
                o
            }
        }
    }

    /// Whether the array or object ends at `at` (stepping past its `End`).
    fn closes(tape: &[Tok], at: &mut usize) -> bool {
        match tape.get(*at) {
            Some(Tok::End) | None => {
                *at += 1;
                true
            }
            Some(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::{json, Value};

    use super::{build, tape, Build};
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

    /// Builds `serde_json` values by the walk the wasm builds JS values with; a
    /// non-finite number (which JSON cannot hold) becomes the marker string "\0" + it.
    struct Json;

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

    /// Asserts the tape of `v` is serde_json's value of it; returns how many non-finite
    /// numbers it holds.
    fn check<T: Serialize + ?Sized>(what: &str, v: &T) -> usize {
        let t = tape(v).unwrap_or_else(|e| panic!("{what}: {e}"));
        let got = build(&t, &mut Json);
        let want = serde_json::to_value(v).unwrap();
        let mut non_finite = 0;
        assert!(
            same(&got, &want, &mut non_finite),
            "{what}:\n got {got}\nwant {want}"
        );
        non_finite
    }

    #[test]
    fn the_tape_gives_serde_json_shapes_with_non_finite_numbers_kept() {
        let m = Matrix::from_vec(1, 4, vec![1.5, f64::NEG_INFINITY, f64::NAN, -0.0]).unwrap();
        assert_eq!(check("matrix", &m), 2);
        let t = tape(&m).unwrap();
        let got = build(&t, &mut Json);
        assert_eq!(got["data"][1], json!("\0-inf"));
        assert_eq!(got["data"][2], json!("\0NaN"));
        assert_eq!(check("none", &None::<Matrix>), 0);
        assert_eq!(build(&tape(&None::<f64>).unwrap(), &mut Json), Value::Null);
        assert_eq!(build(&tape(&()).unwrap(), &mut Json), Value::Null);
        check("some", &Some(3usize));
        check("u64", &((1u64 << 53) - 1));
        check("i64", &-(1i64 << 52));
        check("tuple", &(1u8, "two", 'c', true, [0.5f32]));

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
        check(
            "enums",
            &[
                E::Unit,
                E::New(-1.0),
                E::Tuple(3, false),
                E::Struct { x: 2.5 },
            ],
        );
        let flat = |op| Flat {
            k: "key \"quoted\" ü",
            inner: Inner { a: -7, b: None },
            op,
            skipped: None,
        };
        check(
            "flatten",
            &flat(Tagged::Plain {
                value: f64::INFINITY,
            }),
        );
        let inner = Inner {
            a: 1,
            b: Some("s".into()),
        };
        check("flatten newtype", &flat(Tagged::Wrapped(inner)));
        let map: std::collections::BTreeMap<String, Vec<f64>> =
            [("a".to_string(), vec![1.0]), ("b".to_string(), vec![])].into();
        check("map", &map);
        check(
            "nested empty",
            &(Vec::<Vec<u8>>::new(), vec![Vec::<u8>::new()]),
        );
    }

    #[test]
    fn what_javascript_cannot_hold_is_refused_as_before() {
        assert!(tape(&(1u64 << 53)).is_err());
        assert!(tape(&i64::MIN).is_err());
        let map: std::collections::BTreeMap<u8, u8> = [(1, 2)].into();
        assert!(tape(&map).is_err());
    }

    /// The results the wasm exports hand the page, from the real lesson functions.
    #[test]
    fn the_lesson_results_go_through_the_tape_as_through_serde_json() {
        use crate::attention::{cross_forward, head_forward, hou_defaults};
        use crate::explain::*;
        use crate::lesson::answers::{check_answer, questions, quiz_order};
        use crate::lesson::backward::head_grads;
        use crate::lesson::bigram::{param_counts, training_examples, Bigram};
        use crate::lesson::content::compare_words;
        use crate::lesson::exercise::*;
        use crate::lesson::head_extras::*;
        use crate::lesson::init_loss::initial_losses;
        use crate::lesson::ladder::*;
        use crate::lesson::multihead::multihead_check;
        use crate::lesson::notes::*;
        use crate::lesson::position::*;
        use crate::lesson::practice::*;
        use crate::lesson::proofs::*;
        use crate::lesson::scaling::*;
        use crate::tensor::causal_or_none;

        let (tokens, x, w) = hou_defaults();
        let trace = head_forward(&x, &w, true, false).unwrap();
        let mask = causal_or_none(true, x.rows, x.rows);
        let mut non_finite = 0;
        non_finite += check(
            "trace view",
            &crate::lesson::clean_trace(trace.clone()).unwrap(),
        );

        let state = crate::lesson::HeadState {
            tokens: &tokens,
            x: &x,
            w_q: &w.w_q,
            w_k: &w.w_k,
            w_v: &w.w_v,
            causal: true,
            scaled: false,
        };
        check("HeadLab state", &state);

        // Explanations: every kind of the head, and the lesson's other grids.
        let inputs = || HeadInputs {
            x_q: &x,
            x_kv: &x,
            w: &w,
            mask: &mask,
        };
        for kind in ["q", "k", "v", "scores", "masked_scores", "weights", "out"] {
            for (r, c) in [(0, 0), (0, 2), (2, 1), (1, 0)] {
                let cell = Cell::new(Kind::parse(kind).unwrap(), r, c);
                if let Ok(e) = explain_head(&trace, inputs(), cell, 2) {
                    non_finite += check(kind, &e);
                }
            }
        }
        check("formula steps", &formula_steps(&trace, &mask));
        for kind in ["M", "x M xᵀ", "scores"] {
            let cell = Cell::new(Kind::parse_any(kind).unwrap(), 2, 0);
            check(kind, &explain_compat(&x, &w, cell, 8).unwrap());
        }
        let a = Matrix::from_vec(3, 3, vec![1., 1., 0., 2., 1., 1., 3., 3., 2.]).unwrap();
        for kind in ["by_rows", "by_columns", "whole", "right", "wrong"] {
            let cell = Cell::new(Kind::parse_any(kind).unwrap(), 2, 0);
            check(kind, &explain_normalize(&a, cell, 2).unwrap());
        }
        let pe = Cell::new(Kind::Pe, 3, 1);
        check("sinusoid", &explain_sinusoid(8, 4, pe).unwrap());
        for scheme in ["loop", "matrix", "softmax"] {
            for kind in ["weights", "out"] {
                let cell = Cell::new(Kind::parse(kind).unwrap(), 2, 0);
                let e = explain_scheme(Scheme::parse(scheme).unwrap(), &x, cell, 8).unwrap();
                check(scheme, &e);
            }
        }
        let weights = Cell::new(Kind::Weight, 1, 1);
        let (score, mask_line) = (ScoreLine::parse("dk").unwrap(), MaskLine::parse("upper"));
        let axis = SoftmaxAxis::parse("receivers").unwrap();
        let e = explain_exercise(score, mask_line.unwrap(), axis, weights, 8).unwrap();
        check("exercise explanation", &e);
        check(
            "multihead explanation",
            &explain_multihead(1, [1, 2, 3, 2], true, weights, 8).unwrap(),
        );
        for axis in [Axis::Row, Axis::Column] {
            let e = explain_wrong_axis(0, 2, 3, 0, axis, weights, 8).unwrap();
            check("wrong axis", &e);
        }
        for grid in ["masked_before", "unmasked_after"] {
            let grid = FutureGrid::parse(grid).unwrap();
            let out = Cell::new(Kind::Out, 1, 3);
            check(
                "future",
                &explain_future_change(0, 4, 8, 2, grid, out, 8).unwrap(),
            );
        }
        let cross = cross_forward(&x, &x, &w, &mask, true).unwrap();
        check("cross", &crate::lesson::clean_trace(cross).unwrap());
        let cell = Cell::new(Kind::Out, 1, 1);
        check(
            "batch",
            &explain_batch((1, 4, 3, 2), true, 1, cell, 8).unwrap(),
        );

        // §2 ladder, practice, answers, exercise.
        let x32 = Matrix::from_vec(3, 2, vec![2., 7., 6., 4., 6., 5.]).unwrap();
        check("ladder", &ladder(&x32).unwrap());
        check("by sum", &normalize_by_sum(&[2.0, -1.0, 3.0]).unwrap());
        check("zero sum", &normalize_by_sum(&[1.0, -1.0]).unwrap());
        let steps = masked_softmax_steps(&[2., -1., 3., 5.], &[true, true, true, false]);
        non_finite += check("softmax steps", &steps.unwrap());
        check("directions", &normalize_directions(&a).unwrap());
        check("keepdim", &keepdim_trap(&a).unwrap());
        check(
            "weighted",
            &weighted_output(&[0.0, 2f64.ln(), 0.0], &[2., 4., 10.]).unwrap(),
        );
        check("wrong axis run", &wrong_axis(0, 2, 3).unwrap());
        check("shift", &shift_values(0, 3, 2, 1.5).unwrap());
        let qs = questions();
        check("questions", &qs);
        for q in &qs {
            check("answer", &check_answer(q.id, "1/3").unwrap());
        }
        check("quiz order", &quiz_order(5, 3).unwrap());
        for (s, m, a) in [("scaled", "upper", "last"), ("unscaled", "none", "-2")] {
            let run = exercise_run(
                ScoreLine::parse(s).unwrap(),
                MaskLine::parse(m).unwrap(),
                SoftmaxAxis::parse(a).unwrap(),
            );
            non_finite += check("exercise run", &run);
        }
        check("lesson 1", &(lesson1_inputs(), lesson1_expected()));
        check(
            "multihead",
            &multihead_check(1, [2, 2, 3, 2], true).unwrap(),
        );

        // §3–§4 head extras and position.
        check("two ways", &score_two_ways(&x, &w, 2, 0).unwrap());
        let run = run_head(&x, &w, true, false).unwrap();
        check("output terms", &output_terms(&run, 2).unwrap());
        check(
            "words",
            &compare_words("hou", "you", &w, true, false).unwrap(),
        );
        let new_w_v = Matrix::from_vec(2, 3, vec![1., 0., 0., 0., 1., 1.]).unwrap();
        check(
            "value change",
            &value_change(&x, &w, &new_w_v, true, false).unwrap(),
        );
        check(
            "bias",
            &bias_effect(&x, &w, &[1., 1.], &[1., -2.], true, false).unwrap(),
        );
        for positions in [false, true] {
            check(
                "orders",
                &compare_orders("dogs", "gods", positions, true).unwrap(),
            );
            check("embed", &embed("dog", positions).unwrap());
        }
        check("sinusoidal", &sinusoidal(4, 4).unwrap());
        check("crop", &crop_context(10, 8));

        // Notes, scaling, proofs.
        check(
            "batch independence",
            &batch_independence(1, 4, 3, 2).unwrap(),
        );
        check("norm", &norm_counterexample(1));
        check("encoder decoder", &encoder_decoder(&x, &w, false).unwrap());
        non_finite += check("dk slider", &dk_slider(1, 4, true, true).unwrap());
        check("variance", &variance_experiment(1, &[1, 4], 20).unwrap());
        check(
            "sharpening",
            &softmax_sharpening(&[1., 2., 3.], &[0.5, 2.]).unwrap(),
        );
        check("avg max", &avg_max_weight(1, 4, 4, 2).unwrap());
        check("manual", &manual_vs_naive(1, 3, 2, true).unwrap());
        check("grad check", &grad_check(1, 3, 2, true).unwrap());
        check("future change", &future_change(1, 4, 3, 2).unwrap());
        let dout = Matrix::from_vec(3, 2, vec![1., 0., 0., 1., 1., 1.]).unwrap();
        check("backward", &head_grads(&x, &w, true, false, &dout).unwrap());

        // The bigram.
        let model = Bigram::from_corpus("hello world, hello there\nwho is there?").unwrap();
        let words = ["hello".to_string(), "the".to_string()];
        check("bigram compare", &model.compare(&words, 3).unwrap());
        check("initial losses", &initial_losses(&model, 4, 1).unwrap());
        check("params", &param_counts(65, 32).unwrap());
        check("examples", &training_examples("hello").unwrap());

        // Masked scores carry −∞ through the trace, the steps and the exercise.
        assert!(non_finite > 0, "no −∞ reached the tape");
    }
}
