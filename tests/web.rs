//! The exported wasm API in a real browser (`wasm-pack test --headless --chrome`):
//! the numbers JavaScript reads are the NumPy fixture's numbers.
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::{cross_attention, parse_number_js, HeadLab};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

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
    serde_wasm_bindgen::from_value(v).expect("trace shape")
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
