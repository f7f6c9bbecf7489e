//! The tape against serde_json on the core's real results: the page gets the shapes
//! serde-wasm-bindgen gave it.

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
    use crate::lesson::head_experiments::*;
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
