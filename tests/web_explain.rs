//! The explanation API in a real browser: `HeadLab.explain`, `formulaSteps`
//! and `explainScheme` hand the page plain objects with the lesson's numbers.
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::explain::{explain_cross_js, explain_scheme_js};
use attention_playground::wasm::HeadLab;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Deserialize, Debug, PartialEq)]
struct Src {
    matrix: String,
    row: usize,
    col: usize,
}

#[derive(Deserialize)]
struct ExpTerm {
    score: f64,
    exp: f64,
    src: Src,
}

#[derive(Deserialize)]
struct SoftmaxExpl {
    kind: String,
    row: usize,
    col: usize,
    value: f64,
    op: String,
    max: f64,
    terms: Vec<ExpTerm>,
    rest: Option<serde_json::Value>,
    numerator: f64,
    denominator: f64,
    sources: Vec<Src>,
}

#[derive(Deserialize)]
struct Term {
    a: f64,
    b: f64,
    b_src: Src,
}

#[derive(Deserialize)]
struct DotExpl {
    op: String,
    value: f64,
    terms: Vec<Term>,
    fraction: Option<Fraction>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Fraction {
    num: i64,
    den: i64,
}

fn ok<E: Into<JsValue>>(r: Result<JsValue, E>) -> JsValue {
    r.map_err(Into::into).unwrap()
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

#[wasm_bindgen_test]
fn weight_u_to_h_is_e4_over_the_row_sum() {
    let lab = HeadLab::new();
    let v = ok(lab.explain("weight", 2, 0, None));
    // Absent options arrive as null, not undefined.
    let rest = js_sys::Reflect::get(&v, &"rest".into()).unwrap();
    assert!(rest.is_null());
    let e: SoftmaxExpl = web_util::from_value(v).unwrap();
    assert_eq!(
        (e.kind.as_str(), e.row, e.col, e.op.as_str()),
        ("weights", 2, 0, "softmax")
    );
    let scores: Vec<f64> = e.terms.iter().map(|t| t.score).collect();
    assert_eq!(scores, vec![4.0, 0.5, 2.5]);
    assert_eq!(round2(e.terms[0].exp), 54.60);
    assert_eq!(
        (round2(e.numerator), round2(e.denominator), round2(e.value)),
        (54.60, 68.43, 0.80)
    );
    assert_eq!(e.max, 4.0);
    assert!(e.rest.is_none());
    let first = Src {
        matrix: "masked_scores".into(),
        row: 2,
        col: 0,
    };
    assert_eq!((&e.terms[0].src, &e.sources[0]), (&first, &first));
}

#[wasm_bindgen_test]
fn out_masked_cells_and_errors() {
    let mut lab = HeadLab::new();
    let e: DotExpl = web_util::from_value(ok(lab.explain("out", 2, 0, None))).unwrap();
    let ab: Vec<(f64, f64)> = e.terms.iter().map(|t| (round2(t.a), t.b)).collect();
    assert_eq!((e.op.as_str(), round2(e.value)), ("dot", 8.87));
    assert_eq!(ab, vec![(0.80, 10.0), (0.02, 0.0), (0.18, 5.0)]);
    assert_eq!(
        e.terms[2].b_src,
        Src {
            matrix: "v".into(),
            row: 2,
            col: 0
        }
    );

    let m = ok(lab.explain("masked_scores", 0, 2, Some(8)));
    let get = |k: &str| js_sys::Reflect::get(&m, &k.into()).unwrap();
    assert_eq!(get("op").as_string().as_deref(), Some("masked"));
    assert_eq!(get("reason").as_string().as_deref(), Some("future"));
    assert_eq!(get("value").as_f64(), Some(f64::NEG_INFINITY));

    assert!(lab.explain("weights", 3, 0, None).is_err());
    assert!(lab.explain("W_q", 0, 0, None).is_err());
    lab.set_scaled(true);
    let steps = ok(lab.formula_steps());
    let steps: Vec<serde_json::Value> = web_util::from_value(steps).unwrap();
    let terms: Vec<&str> = steps.iter().map(|s| s["term"].as_str().unwrap()).collect();
    assert_eq!(
        terms,
        [
            r"QK^\top",
            r"\sqrt{d_k}",
            r"\mathrm{mask}",
            r"\mathrm{softmax}",
            "V"
        ]
    );
    assert_eq!(steps[1]["active"], true);
    assert_eq!(steps[0]["output"]["data"][6], 4.0);
}

#[wasm_bindgen_test]
fn scheme_cells_show_fractions() {
    let x = serde_json::json!({ "rows": 3, "cols": 1, "data": [0.5, 0.0, 2.0] });
    let x = x
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    let e: DotExpl = web_util::from_value(ok(explain_scheme_js(
        "matrix",
        x.clone(),
        "out",
        2,
        0,
        None,
    )))
    .unwrap();
    assert_eq!(e.fraction, Some(Fraction { num: 5, den: 6 }));
    assert_eq!(
        e.terms.iter().map(|t| t.b).collect::<Vec<_>>(),
        vec![0.5, 0.0, 2.0]
    );
    assert!(explain_scheme_js("bag", x.clone(), "out", 0, 0, None).is_err());
    assert!(explain_scheme_js("loop", x, "scores", 0, 0, None).is_err());
}

fn js(v: serde_json::Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap()
}

/// note-cross's default: two queries, four keys, identity weights.
fn cross_input(c: usize) -> JsValue {
    let eye = serde_json::json!({ "rows": 2, "cols": c, "data": if c == 2 { vec![1.0, 0.0, 0.0, 1.0] } else { vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0] } });
    js(serde_json::json!({
        "x_q": { "rows": 2, "cols": 2, "data": [1.0, 0.0, 0.0, 2.0] },
        "x_kv": { "rows": 4, "cols": 2, "data": [2.0, 0.0, 0.0, 2.0, 1.0, 1.0, -1.0, 0.0] },
        "W_q": eye, "W_k": eye, "W_v": eye,
    }))
}

#[wasm_bindgen_test]
fn cross_weight_is_a_softmax_over_the_keys() {
    let v = ok(explain_cross_js(
        cross_input(2),
        false,
        false,
        "weights",
        0,
        0,
        None,
    ));
    let e: SoftmaxExpl = web_util::from_value(v).unwrap();
    assert_eq!(
        (e.kind.as_str(), e.row, e.col, e.op.as_str()),
        ("weights", 0, 0, "softmax")
    );
    let scores: Vec<f64> = e.terms.iter().map(|t| t.score).collect();
    assert_eq!(scores, vec![2.0, 0.0, 1.0, -1.0]);
    assert_eq!(e.max, 2.0);
    assert_eq!((round2(e.numerator), round2(e.denominator)), (7.39, 11.48));
    assert_eq!(round2(e.value), 0.64);
    assert_eq!(
        e.terms[3].src,
        Src {
            matrix: "masked_scores".into(),
            row: 0,
            col: 3
        }
    );
}

/// Scores are q·k; q is a projection of x_q, k and v of x_kv; a causal mask hides key 1
/// from query 0.
#[wasm_bindgen_test]
fn cross_scores_q_k_and_the_mask_name_their_sources() {
    let s: DotExpl = web_util::from_value(ok(explain_cross_js(
        cross_input(2),
        false,
        true,
        "scores",
        1,
        2,
        None,
    )))
    .unwrap();
    assert_eq!(
        (s.op.as_str(), round2(s.value)),
        ("dot", round2(2.0 / 2f64.sqrt()))
    );
    assert_eq!(
        s.terms[1].b_src,
        Src {
            matrix: "k".into(),
            row: 2,
            col: 1
        }
    );
    let q: DotExpl = web_util::from_value(ok(explain_cross_js(
        cross_input(2),
        false,
        false,
        "q",
        1,
        1,
        None,
    )))
    .unwrap();
    assert_eq!(q.value, 2.0);
    let k = ok(explain_cross_js(
        cross_input(2),
        false,
        false,
        "k",
        3,
        0,
        None,
    ));
    let k: serde_json::Value = web_util::from_value(k).unwrap();
    assert_eq!(k["terms"][0]["a_src"]["matrix"], "x_kv");
    let m = ok(explain_cross_js(
        cross_input(2),
        true,
        false,
        "weights",
        0,
        1,
        None,
    ));
    let m: serde_json::Value = web_util::from_value(m).unwrap();
    assert_eq!(m["value"], 0.0);
}

#[wasm_bindgen_test]
fn cross_errors_are_messages() {
    // Out of range: two queries.
    assert!(explain_cross_js(cross_input(2), false, false, "weights", 2, 0, None).is_err());
    assert!(explain_cross_js(cross_input(2), false, false, "weights", 0, 4, None).is_err());
    assert!(explain_cross_js(cross_input(2), false, false, "W_q", 0, 0, None).is_err());
    // Weights with 3 channels do not fit x with 2.
    assert!(explain_cross_js(cross_input(3), false, false, "weights", 0, 0, None).is_err());
    assert!(explain_cross_js(JsValue::from(3), false, false, "weights", 0, 0, None).is_err());
}

/// A small GPT (C = 16, 2 heads of 8, block 8 of the tiny preset) on a repeated text.
fn gpt() -> attention_playground::wasm::gpt::GptLab {
    let text = "the cat sat. a dog ran! ".repeat(40);
    let cfg = r#"{"preset":"tiny","n_layer":2,"n_embd":16,"n_head":2,"batch_size":4}"#;
    let mut lab = attention_playground::wasm::gpt::GptLab::new(cfg, &text, 1).unwrap();
    lab.step(5).unwrap();
    lab
}

#[wasm_bindgen_test]
fn gpt_weight_is_the_softmax_the_heatmap_draws() {
    let mut lab = gpt();
    let a: serde_json::Value = web_util::from_value(lab.attention("the cat").unwrap())
        .map_err(|e| e.to_string())
        .unwrap();
    let drawn = a["layers"][1][1]["data"][4 * 7 + 2].as_f64().unwrap();
    let v = ok(lab.explain_attention("the cat", 1, 1, "weights", 4, 2, None));
    let e: SoftmaxExpl = web_util::from_value(v).unwrap();
    assert_eq!(
        (e.kind.as_str(), e.row, e.col, e.op.as_str()),
        ("weights", 4, 2, "softmax")
    );
    assert!(
        (e.value - drawn).abs() < 1e-5,
        "{} vs drawn {drawn}",
        e.value
    );
    // The drawn f32 number itself, not the sum redone in f64.
    assert_eq!(e.value.to_bits(), drawn.to_bits());
    // The row's 7 scores, keys 5 and 6 masked (causal).
    assert_eq!(e.terms.len(), 7);
    // The formula in f64 over the f32 scores agrees with the f32 kernels' weight to f32
    // precision (it was 1e-12 when the value was that very f64 quotient).
    assert!((e.numerator / e.denominator - e.value).abs() < 1e-6);

    // A score is q·k/√8 over hs = 8 terms: 3 listed, 5 summed as the rest.
    let s = ok(lab.explain_attention("the cat", 0, 0, "scores", 3, 1, Some(3)));
    let s: serde_json::Value = web_util::from_value(s).unwrap();
    assert_eq!(s["op"], "dot");
    assert_eq!(s["terms"].as_array().unwrap().len(), 3);
    assert_eq!(s["rest"]["count"], 5);
    assert_eq!(s["scale"]["d_k"], 8);
    let drawn_score = a["scores"][0][0]["data"][3 * 7 + 1].as_f64().unwrap();
    let value = s["value"].as_f64().unwrap();
    assert!(
        (value - drawn_score).abs() < 1e-5,
        "{value} vs drawn {drawn_score}"
    );
    assert_eq!(value.to_bits(), drawn_score.to_bits());
    let m = ok(lab.explain_attention("the cat", 0, 0, "masked_scores", 1, 3, None));
    let m: serde_json::Value = web_util::from_value(m).unwrap();
    assert_eq!(m["op"], "masked");

    assert!(lab
        .explain_attention("the cat", 2, 0, "weights", 0, 0, None)
        .is_err());
    assert!(lab
        .explain_attention("the cat", 0, 2, "weights", 0, 0, None)
        .is_err());
    assert!(lab
        .explain_attention("the cat", 0, 0, "weights", 7, 0, None)
        .is_err());
    assert!(lab
        .explain_attention("", 0, 0, "weights", 0, 0, None)
        .is_err());
    assert!(lab
        .explain_attention("the cat", 0, 0, "bogus", 0, 0, None)
        .is_err());
}

/// Note 3: `explainBatch` explains the same numbers `batchIndependence` draws, and
/// sequence 0's cell is the same sum before and after sequence 1 was redrawn.
#[wasm_bindgen_test]
fn batch_cell_is_explained_from_its_own_sequence() {
    use attention_playground::wasm::explain::explain_batch_js;
    use attention_playground::wasm::lesson::notes::batch_independence_js;
    #[derive(Deserialize)]
    struct M {
        cols: usize,
        data: Vec<f64>,
    }
    #[derive(Deserialize)]
    struct Trace {
        out: M,
    }
    #[derive(Deserialize)]
    struct Batch {
        before: Vec<Trace>,
    }
    let b: Batch = web_util::from_value(ok(batch_independence_js(0, 4, 4, 4))).unwrap();
    let drawn = &b.before[0].out;
    let explain = |after| {
        let v = ok(explain_batch_js(0, 4, 4, 4, after, 0, "out", 3, 1, None));
        web_util::from_value::<DotExpl>(v).unwrap()
    };
    let (before, after) = (explain(false), explain(true));
    assert_eq!(before.op, "dot");
    assert_eq!(
        before.value.to_bits(),
        drawn.data[3 * drawn.cols + 1].to_bits()
    );
    assert_eq!(before.value.to_bits(), after.value.to_bits());
    let sum: f64 = before.terms.iter().map(|t| t.a * t.b).sum();
    assert!((sum - before.value).abs() < 1e-12);
    assert_eq!(before.terms.len(), 4); // t3 reads t0..t3
    let e = explain_batch_js(0, 4, 4, 4, false, 2, "out", 0, 0, None).unwrap_err();
    let msg = e;
    let text = js_sys::Reflect::get(&msg, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(text.contains("sequence 2"), "{text}");
}

/// `explainTrace` explains the numbers a widget's trace carries: the encoder and
/// decoder of the h/o/u head (note 4) give the lesson's 0.80 only with the mask.
#[wasm_bindgen_test]
fn a_returned_trace_explains_its_own_cells() {
    use attention_playground::wasm::explain::explain_trace_js;
    use attention_playground::wasm::lesson::notes::encoder_decoder_js;
    let r = ok(encoder_decoder_js(js(serde_json::json!({}))));
    let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).unwrap();
    let (dec, enc) = (get(&r, "decoder"), get(&r, "encoder"));
    let drawn = |trace: &JsValue, name: &str, i: u32| {
        js_sys::Reflect::get_u32(&get(&get(trace, name), "data"), i)
            .unwrap()
            .as_f64()
            .unwrap()
    };
    let weight = |trace: &JsValue, causal, row, col| {
        let v = ok(explain_trace_js(
            trace.clone(),
            causal,
            "weights",
            row,
            col,
            None,
        ));
        web_util::from_value::<SoftmaxExpl>(v).unwrap()
    };
    // u→h (row 2, column 0): e^4 / (e^4 + e^0.5 + e^2.5) with or without the mask,
    // since u is last; h→u (row 0, column 2) is masked in the decoder only.
    let d = weight(&dec, true, 2, 0);
    assert_eq!(round2(d.value), 0.80);
    assert_eq!(d.value.to_bits(), drawn(&dec, "weights", 6).to_bits());
    let masked = weight(&dec, true, 0, 2);
    assert_eq!(masked.value, 0.0);
    let open = weight(&enc, false, 0, 2);
    assert!(open.value > 0.0);
    assert!((open.value - drawn(&enc, "weights", 2)).abs() < 1e-15);
    let out = ok(explain_trace_js(dec.clone(), true, "out", 2, 0, None));
    let out: DotExpl = web_util::from_value(out).unwrap();
    assert_eq!(round2(out.value), 8.87);

    // What the trace cannot say, and bad traces, are messages.
    assert!(explain_trace_js(dec.clone(), true, "q", 0, 0, None).is_err());
    assert!(explain_trace_js(
        js(serde_json::json!({ "q": 1 })),
        true,
        "weights",
        0,
        0,
        None
    )
    .is_err());
    let bad_scale = js(serde_json::json!({
        "q": { "rows": 1, "cols": 1, "data": [1.0] }, "k": { "rows": 1, "cols": 1, "data": [1.0] },
        "v": { "rows": 1, "cols": 1, "data": [1.0] }, "scale": -1.0 }));
    assert!(explain_trace_js(bad_scale, false, "weights", 0, 0, None).is_err());
}

// The lesson's other grids: each export explains exactly the number its widget's
// lesson function draws (same arguments), with the op the panel lays out.

/// Any explanation as JSON (NaN becomes null), and its value as a number.
fn json(v: JsValue) -> (serde_json::Value, f64) {
    #[derive(Deserialize)]
    struct Value {
        value: f64,
    }
    let value = web_util::from_value::<Value>(v.clone()).unwrap().value;
    (web_util::from_value(v).unwrap(), value)
}

/// Element (r, c) of a `{ rows, cols, data }` field of a lesson result.
fn cell_of(result: &serde_json::Value, field: &str, r: usize, c: usize) -> f64 {
    let m = &result[field];
    m["data"][r * m["cols"].as_u64().unwrap() as usize + c]
        .as_f64()
        .unwrap()
}

fn lesson(v: JsValue) -> serde_json::Value {
    web_util::from_value(v).unwrap()
}

#[wasm_bindgen_test]
fn probe_m_x_m_x_and_scores() {
    use attention_playground::wasm::explain::explain_probe_js;
    use attention_playground::wasm::lesson::head::score_two_ways_js;
    let head = || js(serde_json::json!({}));
    let r = lesson(ok(score_two_ways_js(head(), 2, 0)));
    let (m, value) = json(ok(explain_probe_js(head(), "M", 2, 0, None)));
    assert_eq!(
        (m["op"].as_str(), m["kind"].as_str()),
        (Some("dot"), Some("M"))
    );
    assert_eq!(value, cell_of(&r, "m", 2, 0));
    assert_eq!(m["terms"][0]["a_src"]["matrix"], "W_q");
    assert_eq!(m["terms"][0]["b_src"]["matrix"], "W_k");
    assert_eq!(m["terms"][0]["a_src"]["col"], 2);
    let (v, value) = json(ok(explain_probe_js(head(), "x M xᵀ", 2, 0, None)));
    assert_eq!((v["op"].as_str(), value), (Some("bilinear"), 4.0));
    assert_eq!(v["then"]["sum"], 4.0);
    assert_eq!(v["then"]["terms"][0]["a_src"]["matrix"], "x M");
    let (s, value) = json(ok(explain_probe_js(head(), "scores", 2, 0, None)));
    assert_eq!(
        (s["op"].as_str(), value),
        (Some("dot"), cell_of(&r, "scores_qk", 2, 0))
    );
    assert!(explain_probe_js(head(), "M", 3, 0, None).is_err());
    assert!(explain_probe_js(head(), "weights", 0, 0, None).is_err());
    assert!(explain_probe_js(head(), "nope", 0, 0, None).is_err());
    assert!(explain_probe_js(JsValue::from(2), "M", 0, 0, None).is_err());
}

#[wasm_bindgen_test]
fn normalize_position_and_exercise() {
    use attention_playground::wasm::explain::{
        explain_exercise_js, explain_normalize_js, explain_position_js,
    };
    use attention_playground::wasm::lesson::exercise::exercise_run_js;
    let a = || js(serde_json::json!({ "rows": 3, "cols": 3, "data": [1, 1, 0, 2, 1, 1, 3, 3, 2] }));
    let (e, value) = json(ok(explain_normalize_js(a(), "by_rows", 2, 0, None)));
    assert_eq!(
        (e["op"].as_str(), e["over"].as_str(), value),
        (Some("normalise"), Some("row"), 0.375)
    );
    assert_eq!(e["denominator"], 8.0);
    assert_eq!(e["fraction"], serde_json::json!({ "num": 3, "den": 8 }));
    let (e, value) = json(ok(explain_normalize_js(a(), "wrong", 2, 0, None)));
    assert_eq!((e["over"].as_str(), value), (Some("row_of_column"), 1.5));
    let (e, _) = json(ok(explain_normalize_js(a(), "by_columns", 0, 1, None)));
    assert_eq!(
        (e["over"].as_str(), e["denominator"].as_f64()),
        (Some("column"), Some(5.0))
    );
    assert!(explain_normalize_js(a(), "by_rows", 3, 0, None).is_err());
    let zeros = js(serde_json::json!({ "rows": 1, "cols": 2, "data": [1, -1] }));
    assert!(explain_normalize_js(zeros, "whole", 0, 0, None).is_err());

    let (e, value) = json(ok(explain_position_js(12, 8, "PE", 3, 2)));
    assert_eq!(
        (e["op"].as_str(), e["cos"].as_bool()),
        (Some("sinusoid"), Some(false))
    );
    assert!((value - 0.3f64.sin()).abs() < 1e-12);
    assert!((e["wavelength"].as_f64().unwrap() - 10.0).abs() < 1e-12);
    assert!(explain_position_js(12, 8, "PE", 12, 0).is_err());
    assert!(explain_position_js(0, 8, "PE", 0, 0).is_err());
    assert!(explain_position_js(12, 8, "weights", 0, 0).is_err());

    let run = lesson(ok(exercise_run_js("scaled", "upper", "receivers")));
    let (e, value) = json(ok(explain_exercise_js(
        "scaled",
        "upper",
        "receivers",
        "weights",
        1,
        2,
        None,
    )));
    assert_eq!(
        (e["op"].as_str(), e["axis"].as_str()),
        (Some("softmax"), Some("column"))
    );
    assert_eq!(value, cell_of(&run, "weights", 1, 2));
    // The lower mask hides the whole last row: NumPy gives NaN, and so does the panel.
    let (e, value) = json(ok(explain_exercise_js(
        "scaled", "lower", "last", "weights", 3, 0, None,
    )));
    assert_eq!(
        (e["op"].as_str(), e["reason"].as_str()),
        (Some("no_value"), Some("nan"))
    );
    assert!(value.is_nan());
    assert!(explain_exercise_js("scaled", "upper", "sideways", "weights", 0, 0, None).is_err());
    assert!(explain_exercise_js("scaled", "upper", "last", "out", 0, 0, None).is_err());
}

#[wasm_bindgen_test]
fn multihead_wrong_axis_and_future_change() {
    use attention_playground::wasm::explain::{
        explain_future_change_js, explain_multihead_js, explain_wrong_axis_js,
    };
    use attention_playground::wasm::lesson::exercise::multihead_check_js;
    use attention_playground::wasm::lesson::practice::wrong_axis_js;
    use attention_playground::wasm::lesson::proofs::future_change_js;
    let r = lesson(ok(multihead_check_js(3, 2, 4, 5, 16, true)));
    let (e, value) = json(ok(explain_multihead_js(
        3, 2, 4, 5, 16, true, "weights", 3, 1, None,
    )));
    assert_eq!(
        (e["op"].as_str(), value),
        (Some("softmax"), cell_of(&r, "head0_weights", 3, 1))
    );
    assert!(explain_multihead_js(3, 2, 4, 5, 16, true, "weights", 5, 0, None).is_err());

    let w = lesson(ok(wrong_axis_js(0, 1, 3)));
    let at = |which: &str, r: usize, c: usize| {
        let m = &w[which][0];
        m["data"][r * 3 + c].as_f64().unwrap()
    };
    let (e, value) = json(ok(explain_wrong_axis_js(
        0, 1, 3, "wrong", "weights", 1, 0, None,
    )));
    assert_eq!(
        (e["axis"].as_str(), value),
        (Some("column"), at("wrong", 1, 0))
    );
    let (e, value) = json(ok(explain_wrong_axis_js(
        0, 1, 3, "right", "weights", 1, 0, None,
    )));
    assert_eq!(
        (e["axis"].as_str(), value),
        (Some("row"), at("right", 1, 0))
    );
    assert!(explain_wrong_axis_js(0, 1, 3, "left", "weights", 0, 0, None).is_err());

    let f = lesson(ok(future_change_js(0, 4, 8, 2)));
    for grid in [
        "masked_before",
        "masked_after",
        "unmasked_before",
        "unmasked_after",
    ] {
        let (e, value) = json(ok(explain_future_change_js(
            0, 4, 8, 2, grid, "out", 3, 5, None,
        )));
        assert_eq!(
            (e["op"].as_str(), e["kind"].as_str()),
            (Some("dot"), Some("out"))
        );
        assert_eq!(value, cell_of(&f, grid, 3, 5));
    }
    assert!(explain_future_change_js(0, 4, 8, 2, "later", "out", 0, 0, None).is_err());
    assert!(explain_future_change_js(0, 4, 8, 4, "masked_after", "out", 0, 0, None).is_err());
}

/// `{ code, params }` of a thrown error.
fn code_and_params(e: JsValue) -> (String, serde_json::Value, String) {
    let get = |k: &str| js_sys::Reflect::get(&e, &k.into()).unwrap();
    let params: serde_json::Value = web_util::from_value(get("params")).unwrap();
    let message = js_sys::Error::from(e.clone())
        .message()
        .as_string()
        .unwrap();
    (get("code").as_string().unwrap_or_default(), params, message)
}

#[wasm_bindgen_test]
fn explanation_errors_reach_the_page_with_a_code_and_params() {
    let x = js(serde_json::json!({ "rows": 2, "cols": 1, "data": [1.0, 2.0] }));
    let e = explain_scheme_js("fast", x, "weights", 0, 0, None).unwrap_err();
    let (code, params, message) = code_and_params(e);
    assert_eq!(code, "explain.unknown_scheme");
    assert_eq!(params, serde_json::json!({ "name": "fast" }));
    assert_eq!(
        message,
        "unknown scheme “fast”: use loop, matrix or softmax"
    );
    let lab = HeadLab::new();
    let e = lab.explain("weights", 5, 0, None).unwrap_err();
    let (code, params, _) = code_and_params(e);
    assert_eq!(code, "explain.out_of_range");
    assert_eq!(
        params,
        serde_json::json!({ "matrix": "weights", "rows": "3", "cols": "3", "row": "5", "col": "0" })
    );
    let mut lab = gpt();
    let e = lab
        .explain_attention("the cat", 0, 0, "bogus", 0, 0, None)
        .unwrap_err();
    assert_eq!(code_and_params(e).0, "explain.unknown_kind");
}
