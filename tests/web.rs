//! The exported wasm API in a real browser (`wasm-pack test --headless --chrome`):
//! the numbers JavaScript reads are the NumPy fixture's numbers.
#![cfg(target_arch = "wasm32")]

use attention_playground::attention::{head_forward, hou_defaults};
use attention_playground::lesson::exercise::{exercise_run, MaskLine, ScoreLine, SoftmaxAxis};
use attention_playground::tensor::Matrix;
use attention_playground::wasm::lesson::{
    averaging_ladder, batch_independence_js, dk_slider_js, exercise_run_js, future_change_js,
    grad_check_js,
};
use attention_playground::wasm::{cross_attention, parse_number_js, HeadLab};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web_util::{f64s, get, typed_matrices};

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Deserialize)]
struct M {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

#[derive(Deserialize)]
struct Trace {
    q: M,
    scale: f64,
    masked_scores: M,
    weights: M,
    out: M,
    fully_masked_rows: Vec<usize>,
}

fn read(v: JsValue) -> Trace {
    web_util::from_value(v).expect("trace shape")
}

fn fixture() -> serde_json::Value {
    serde_json::from_str(include_str!("fixtures/hou.json")).unwrap()
}

fn flat(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NEG_INFINITY))
        })
        .collect()
}

fn assert_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = if w.is_infinite() {
            g == w
        } else {
            (g - w).abs() <= tol
        };
        assert!(ok, "{what}[{i}]: got {g} want {w}");
    }
}

#[wasm_bindgen_test]
fn head_lab_returns_the_fixture_numbers() {
    let f = fixture();
    let mut lab = HeadLab::new();
    for (key, scaled) in [("unscaled", false), ("scaled", true)] {
        lab.set_scaled(scaled);
        let t = read(lab.compute().unwrap());
        let e = &f[key];
        assert_eq!((t.q.rows, t.q.cols), (3, 2));
        assert_close("q", &t.q.data, &flat(&f["q"]), 1e-12);
        assert!((t.scale - e["scale"].as_f64().unwrap()).abs() < 1e-12);
        assert_close(
            "masked",
            &t.masked_scores.data,
            &flat(&e["scores_masked"]),
            1e-6,
        );
        assert_close(
            "weights",
            &t.weights.data,
            &flat(&e["weights_full_precision"]),
            1e-12,
        );
        assert_close("out", &t.out.data, &flat(&e["out_full_precision"]), 1e-12);
        assert!(t.fully_masked_rows.is_empty());
    }
}

#[wasm_bindgen_test]
fn typed_cells_parse_in_rust_and_bad_text_changes_nothing() {
    let mut lab = HeadLab::new();
    let before = read(lab.compute().unwrap());
    assert!(lab.set_cell("W_v", 2, 0, "abc").is_err());
    assert!(lab.set_cell("W_z", 0, 0, "1").is_err());
    assert!(lab.set_cell("W_v", 5, 0, "1").is_err());
    let same = read(lab.compute().unwrap());
    assert_eq!(same.out.data, before.out.data);
    // W_v changes out, not weights.
    assert_eq!(lab.set_cell("W_v", 0, 0, "1/2").unwrap(), 0.5);
    let after = read(lab.compute().unwrap());
    assert_eq!(after.weights.data, before.weights.data);
    assert_ne!(after.out.data, before.out.data);
    assert_eq!(parse_number_js("−1e-3").unwrap(), -1e-3);
    assert!(parse_number_js("NaN").is_err());
    // Errors carry a code and the typed text for the page's string tables.
    let get = |e: &JsValue, k: &str| js_sys::Reflect::get(e, &k.into()).unwrap();
    let e = parse_number_js("abc").unwrap_err();
    assert_eq!(
        get(&e, "code").as_string().as_deref(),
        Some("number.not_a_number")
    );
    assert_eq!(
        get(&get(&e, "params"), "text").as_string().as_deref(),
        Some("abc")
    );
    let message = get(&e, "message").as_string().unwrap();
    assert!(message.contains("“abc” is not a number"), "{message}");
    let e = lab.set_cell("W_v", 0, 0, "1e400").unwrap_err();
    assert_eq!(
        get(&e, "code").as_string().as_deref(),
        Some("number.not_finite")
    );
    for (text, code) in [("", "number.empty"), ("1/0", "number.division_by_zero")] {
        let e = parse_number_js(text).unwrap_err();
        assert_eq!(get(&e, "code").as_string().as_deref(), Some(code));
    }
}

#[wasm_bindgen_test]
fn cross_attention_is_t_out_by_t_in() {
    let m = |rows: usize, cols: usize, data: Vec<f64>| serde_json::json!({ "rows": rows, "cols": cols, "data": data });
    let input = serde_json::json!({
        "x_q": m(2, 3, vec![1.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
        "x_kv": m(3, 3, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
        "W_q": m(2, 3, vec![1.0, 0.0, 2.0, 0.0, 1.0, 0.5]),
        "W_k": m(2, 3, vec![2.0, 0.0, 1.0, 0.0, 1.0, 1.0]),
        "W_v": m(2, 3, vec![10.0, 0.0, 5.0, 0.0, 10.0, 5.0]),
    });
    let js = input
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    let t = read(cross_attention(js, false, false).unwrap());
    assert_eq!((t.weights.rows, t.weights.cols), (2, 3));
    // Query u against keys h, o, u: unscaled scores 4, 0.5, 2.5 (LESSON §3).
    let f = fixture();
    let want = &flat(&f["unscaled"]["weights_full_precision"])[6..9];
    assert_close("u row", &t.weights.data[3..6], want, 1e-12);
    let bad = serde_json::json!({ "x_q": m(1, 2, vec![1.0, 2.0]) });
    let js = bad
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    assert!(cross_attention(js, false, false).is_err());
}

/// Asserts matrix `m` (`{ rows, cols, data }`) of a result is the Rust matrix `want`: its
/// shape, and `data` one Float64Array holding the same f64s bit for bit (−∞, NaN, −0).
fn same_bits(what: &str, m: &JsValue, want: &Matrix) {
    let shape = (get(m, "rows").as_f64(), get(m, "cols").as_f64());
    assert_eq!(
        shape,
        (Some(want.rows as f64), Some(want.cols as f64)),
        "{what}"
    );
    let got = f64s(&get(m, "data"), what);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(&got),
        bits(&want.data),
        "{what}: {got:?} vs {:?}",
        want.data
    );
}

#[wasm_bindgen_test]
fn a_head_s_matrices_cross_as_float64_arrays_bit_for_bit() {
    let (_, x, w) = hou_defaults();
    let mut lab = HeadLab::new();
    for (causal, scaled) in [(true, false), (false, true)] {
        lab.set_causal(causal);
        lab.set_scaled(scaled);
        let r = lab.compute().unwrap();
        let t = head_forward(&x, &w, causal, scaled).unwrap();
        for (name, m) in t.named() {
            same_bits(name, &get(&r, name), m);
        }
        let masked = f64s(&get(&get(&r, "masked_scores"), "data"), "masked");
        assert_eq!(
            masked.contains(&f64::NEG_INFINITY),
            causal,
            "−∞ where masked"
        );
    }
    let s = lab.state().unwrap();
    for (name, m) in [("x", &x), ("W_q", &w.w_q), ("W_k", &w.w_k), ("W_v", &w.w_v)] {
        same_bits(name, &get(&s, name), m);
    }
    let steps = lab.formula_steps().unwrap();
    assert_eq!(
        typed_matrices("formula steps", &steps),
        5,
        "every step's output"
    );
}

#[wasm_bindgen_test]
fn nan_and_minus_infinity_cross_in_float64_arrays_bit_for_bit() {
    // Masking the past hides all of row 3: NumPy's softmax gives NaN there.
    let r = exercise_run_js("scaled", "lower", "last").unwrap();
    let want = exercise_run(ScoreLine::Scaled, MaskLine::Lower, SoftmaxAxis::Last);
    assert!(want.weights.data.iter().any(|w| w.is_nan()));
    assert!(want.masked_scores.data.contains(&f64::NEG_INFINITY));
    let fields = [
        ("q", &want.q),
        ("k", &want.k),
        ("v", &want.v),
        ("scores", &want.scores),
        ("masked_scores", &want.masked_scores),
        ("weights", &want.weights),
        ("out", &want.out),
        ("expected_weights", &want.expected_weights),
        ("expected_out", &want.expected_out),
    ];
    for (name, m) in fields {
        same_bits(name, &get(&r, name), m);
    }
    assert_eq!(typed_matrices("exercise run", &r), fields.len());
}

#[wasm_bindgen_test]
fn every_matrix_of_the_lesson_s_results_is_a_float64_array() {
    let m = |rows: usize, cols: usize, data: Vec<f64>| serde_json::json!({ "rows": rows, "cols": cols, "data": data });
    let json = serde_wasm_bindgen::Serializer::json_compatible();
    let js = |v: serde_json::Value| v.serialize(&json).unwrap();
    let x = m(3, 2, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let w = m(2, 2, vec![1.0, 0.0, 0.0, 1.0]);
    let cross = serde_json::json!({ "x_q": x, "x_kv": x, "W_q": w, "W_k": w, "W_v": w });
    let results = [
        ("cross", cross_attention(js(cross), true, true).unwrap()),
        ("ladder", averaging_ladder(js(x)).unwrap()),
        ("dk slider", dk_slider_js(1, 4, true, true).unwrap()),
        ("batch", batch_independence_js(1, 4, 3, 2).unwrap()),
        ("future", future_change_js(1, 4, 3, 2).unwrap()),
        ("grad check", grad_check_js(1, 3, 2, true).unwrap()),
    ];
    for (what, r) in results {
        assert!(typed_matrices(what, &r) > 0, "{what}: no matrix");
    }
}
