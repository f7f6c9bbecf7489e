//! The lesson's exports in a real browser (`wasm-pack test --headless --chrome
//! -- --test web_lesson`): the numbers JavaScript reads are LESSON's numbers,
//! −∞ / NaN / null survive the boundary, bad input throws instead of panicking,
//! and the seeded draws equal the native ones bit for bit.
#![cfg(target_arch = "wasm32")]

use attention_playground::lesson::portable_draws::Rng;
use attention_playground::wasm::lesson::{
    averaging_ladder, bigram_params, check_answer_js, dk_slider_js, exercise_run_js,
    masked_softmax_steps_js, normalize_by_sum_js, score_two_ways_js, BigramLab,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

fn js(v: &Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap()
}

fn read<T: for<'de> Deserialize<'de>, E: Into<JsValue>>(v: Result<JsValue, E>) -> T {
    web_util::from_value(v.map_err(Into::into).unwrap()).expect("result shape")
}

fn data(m: &Value) -> Vec<f64> {
    m["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn round(v: &[f64], decimals: i32) -> Vec<f64> {
    let f = 10f64.powi(decimals);
    v.iter().map(|x| (x * f).round() / f).collect()
}

#[derive(Deserialize)]
struct M {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

#[wasm_bindgen_test]
fn seeded_normals_are_the_native_ones_bit_for_bit() {
    // Bits printed by the native build (x86-64, glibc) for seed 0. The polar
    // Box–Muller uses √ and a hand-written ln only, so wasm gives the same bits.
    let mut r = Rng::new(0);
    let first: Vec<u64> = (0..5).map(|_| r.normal().to_bits()).collect();
    assert_eq!(
        first,
        vec![
            4607043058621490887,
            13818876415947502553,
            13827960978151866074,
            13822670356603663244,
            13827153163510445970
        ]
    );
    let mut r = Rng::new(0);
    let sum: f64 = (0..100_000).map(|_| r.normal()).sum();
    assert_eq!(sum.to_bits(), 13854406228289072056, "sum {sum}");
    #[derive(Deserialize)]
    struct Slider {
        q: M,
        weights: M,
        d_k: usize,
    }
    let s: Slider = read(dk_slider_js(7, 16, true, false));
    assert_eq!((s.d_k, s.q.rows, s.q.cols), (16, 6, 16));
    let q_sum: f64 = s.q.data.iter().sum();
    assert_eq!(q_sum.to_bits(), 4625106832409293819);
    // Softmax's exp comes from each target's libm: equal to rounding, not bits.
    assert_eq!((s.weights.rows, s.weights.cols), (6, 6));
    assert!((s.weights.data[0] - 0.006058695797476828).abs() < 1e-15);
}

#[wasm_bindgen_test]
fn bigram_gives_identical_logits_and_names_unknown_characters() {
    let vocab = "\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let corpus = format!("{vocab}{}", "thou hou you house ".repeat(50));
    let lab = BigramLab::new(&corpus).unwrap();
    let v: Value = read(lab.vocab());
    assert_eq!(v["vocab_size"], 65);
    let words = vec!["hou".to_string(), "you".to_string(), "thou".to_string()];
    let c: Value = read(lab.compare(words, 3));
    assert_eq!(c["all_identical"], true);
    assert_eq!(c["words"][1]["last_index"], 59);
    assert_eq!(c["words"][2]["top"].as_array().unwrap().len(), 3);
    assert_eq!(
        c["words"][0]["top"][0]["char"], " ",
        "after u comes a space here"
    );
    assert!(lab.compare(vec!["hé".to_string()], 3).is_err());
    let l: Value = read(lab.initial_losses(32, 1));
    let (u, s) = (
        l["uniform"].as_f64().unwrap(),
        l["split_init"].as_f64().unwrap(),
    );
    assert!(u < s && s < l["bigram_init"].as_f64().unwrap());
    assert!(lab.initial_losses(0, 1).is_err());
    assert!(BigramLab::new("a").is_err());
    let p: Value = read(bigram_params(65, 32));
    assert_eq!(
        (p["bigram"].as_f64(), p["split"].as_f64()),
        (Some(4225.0), Some(4225.0))
    );
    assert_eq!(
        format!("{:.2}", p["initial_loss"].as_f64().unwrap()),
        "4.17"
    );
    // The table the site ships (data/bigram.bin) reads back to the same answers.
    let back = BigramLab::from_table(&lab.table()).unwrap();
    let words = vec!["hou".to_string(), "you".to_string(), "thou".to_string()];
    let (a, b): (Value, Value) = (
        read(back.compare(words.clone(), 5)),
        read(lab.compare(words, 5)),
    );
    assert_eq!(a, b);
    let (a, b): (Value, Value) = (
        read(back.initial_losses(32, 1)),
        read(lab.initial_losses(32, 1)),
    );
    assert_eq!(a, b);
    let bad = BigramLab::from_table(b"APBG\x01")
        .err()
        .expect("a damaged table is refused");
    let code = js_sys::Reflect::get(&bad, &JsValue::from_str("code")).unwrap();
    assert_eq!(code.as_string().as_deref(), Some("lesson.bigram.table"));
}

#[wasm_bindgen_test]
fn ladder_and_softmax_stages_cross_with_infinities_and_nulls() {
    let l: Value = read(averaging_ladder(js(
        &json!({ "rows": 3, "cols": 2, "data": [2, 7, 6, 4, 6, 5] }),
    )));
    assert_eq!(
        data(&l["all_ones"]["out"]),
        vec![14.0, 16.0, 14.0, 16.0, 14.0, 16.0]
    );
    assert_eq!(
        data(&l["tril_sums"]["out"]),
        vec![2.0, 7.0, 8.0, 11.0, 14.0, 16.0]
    );
    assert!(averaging_ladder(js(&json!({ "rows": 3, "cols": 2, "data": [1] }))).is_err());
    assert!(averaging_ladder(js(&json!({ "rows": 99, "cols": 1, "data": [] }))).is_err());
    assert!(averaging_ladder(js(&json!("x"))).is_err());

    #[derive(Deserialize)]
    struct Steps {
        masked: Vec<f64>,
        exp: Vec<f64>,
        sum: f64,
        weights: Vec<f64>,
    }
    let args = json!({ "scores": [2, -1, 3, 5], "allowed": [true, true, true, false] });
    let s: Steps = read(masked_softmax_steps_js(js(&args)));
    assert_eq!(s.masked[3], f64::NEG_INFINITY);
    assert_eq!(round(&s.exp, 2), vec![7.39, 0.37, 20.09, 0.0]);
    assert_eq!(format!("{:.2}", s.sum), "27.84");
    assert_eq!(round(&s.weights, 2), vec![0.27, 0.01, 0.72, 0.0]);
    let all_masked = json!({ "scores": [1, 2], "allowed": [false, false] });
    let s: Steps = read(masked_softmax_steps_js(js(&all_masked)));
    assert!(
        s.weights.iter().all(|w| w.is_nan()),
        "NaN crosses as a number"
    );
    assert!(masked_softmax_steps_js(js(&json!({ "scores": [1, 2] }))).is_err());

    let z: Value = read(normalize_by_sum_js(vec![1.0, -1.0, 0.0]));
    assert_eq!(z["weights"], Value::Null);
    assert_eq!(z["divides_by_zero"], true);
    let n: Value = read(normalize_by_sum_js(vec![2.0, -1.0, 3.0]));
    assert_eq!(
        data(&json!({ "data": n["weights"] })),
        vec![0.5, -0.25, 0.75]
    );
    assert!(normalize_by_sum_js(vec![f64::NAN]).is_err());
}

#[wasm_bindgen_test]
fn exercise_head_and_answers() {
    let r: Value = read(exercise_run_js("scaled", "upper", "last"));
    assert_eq!(r["matches_expected"], true);
    assert_eq!(
        r["code"][1],
        "mask = np.triu(np.ones((T, T), dtype=bool), k=1)"
    );
    let w = r["weights"]["data"].as_array().unwrap();
    let w: Vec<f64> = w.iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(round(&w[12..16], 2), vec![0.16, 0.37, 0.21, 0.26]);
    let r: Value = read(exercise_run_js("scaled", "lower", "last"));
    assert_eq!(
        (r["matches_expected"].clone(), r["has_nan"].clone()),
        (json!(false), json!(true))
    );
    assert!(exercise_run_js("scaled", "upside", "last").is_err());

    let s: Value = read(score_two_ways_js(js(&json!({})), 2, 0));
    assert_eq!(
        (s["score"].as_f64(), s["score_reversed"].as_f64()),
        (Some(4.0), Some(1.0))
    );
    assert_eq!(s["score_via_m"].as_f64(), Some(4.0));
    assert!(score_two_ways_js(
        js(&json!({ "x": { "rows": 1, "cols": 2, "data": [1, 2] } })),
        0,
        0
    )
    .is_err());

    let a: Value = read(check_answer_js("weights_ln2", "1/4, 1/2, 1/4"));
    assert_eq!(a["correct"], true);
    let a: Value = read(check_answer_js("output_ln2", "4"));
    assert_eq!(
        (a["correct"].clone(), a["exact"].clone()),
        (json!(false), json!("5"))
    );
    assert!(check_answer_js("output_ln2", "five").is_err());
}

/// Every export answers the lesson's default input with an object, and
/// refuses hostile input with an `Error` instead of panicking (a panic would
/// abort the test's wasm instance).
/// An export's result: an object whose every matrix's data is one Float64Array.
fn ok(what: &str, r: Result<JsValue, JsValue>) {
    let v = r.unwrap_or_else(|e| panic!("{what}: {e:?}"));
    assert!(v.is_object(), "{what} returned no object");
    web_util::typed_matrices(what, &v);
}

fn bad(what: &str, r: Result<JsValue, JsValue>) {
    assert!(r.is_err(), "{what} accepted bad input");
}

/// `{ rows, cols, data }` as the page writes it.
fn m(rows: usize, cols: usize, data: Vec<f64>) -> JsValue {
    js(&json!({ "rows": rows, "cols": cols, "data": data }))
}

fn hou() -> JsValue {
    m(3, 2, vec![2.0, 7.0, 6.0, 4.0, 6.0, 5.0])
}

fn empty() -> JsValue {
    js(&json!({}))
}

/// Every export answers good input and refuses bad input: §1–§2.
#[wasm_bindgen_test]
fn every_export_answers_the_bigram_and_the_ladder() {
    use attention_playground::wasm::lesson::*;
    ok("bigramParams", bigram_params(65, 32));
    bad("bigramParams", bigram_params(0, u32::MAX));
    ok("trainingExamples", training_examples_js("Let's hea"));
    bad("trainingExamples", training_examples_js(""));
    ok("averagingLadder", averaging_ladder(hou()));
    assert_eq!(loop_iterations_js(64, 256), 16384.0);
    ok("normalizeBySum", normalize_by_sum_js(vec![2.0, -1.0, 3.0]));
    bad("normalizeBySum", normalize_by_sum_js(vec![0.0; 65]));
    bad("maskedSoftmaxSteps", masked_softmax_steps_js(JsValue::NULL));
    ok(
        "normalizeDirections",
        normalize_directions_js(m(3, 3, vec![1.0, 1.0, 0.0, 2.0, 1.0, 1.0, 3.0, 3.0, 2.0])),
    );
    bad(
        "normalizeDirections",
        normalize_directions_js(m(0, 0, vec![])),
    );
    ok(
        "keepdimTrap",
        keepdim_trap_js(m(2, 2, vec![1.0, 0.0, 1.0, 1.0])),
    );
    bad("keepdimTrap", keepdim_trap_js(hou()));
}

/// … §3–§4: the head's extras and position.
#[wasm_bindgen_test]
fn every_export_answers_the_head_s_extras_and_position() {
    use attention_playground::wasm::lesson::*;
    ok("outputTerms", output_terms_js(empty(), 2));
    bad("outputTerms", output_terms_js(empty(), usize::MAX));
    ok("compareWords", compare_words("hou", "you", empty()));
    bad("compareWords", compare_words("hou", "yoü", empty()));
    ok(
        "valueChange",
        value_change_js(empty(), m(2, 3, vec![1.0; 6])),
    );
    bad(
        "valueChange",
        value_change_js(empty(), m(2, 3, vec![f64::NAN; 6])),
    );
    ok(
        "biasEffect",
        bias_effect_js(empty(), vec![1.0, 1.0], vec![1.0, -2.0]),
    );
    bad("biasEffect", bias_effect_js(empty(), vec![], vec![]));
    let huge = json!({ "rows": 2, "cols": 3, "data": [1e300, 0, 0, 0, 1e300, 0] });
    let big = json!({ "W_q": huge, "W_k": huge });
    bad(
        "biasEffect overflow",
        bias_effect_js(js(&big), vec![0.0, 0.0], vec![0.0, 0.0]),
    );
    ok(
        "compareOrders",
        compare_orders_js("dogs", "gods", true, false),
    );
    bad(
        "compareOrders",
        compare_orders_js("dogs", "cats", true, false),
    );
    ok("embedToy", embed_toy("dog", true));
    ok("sinusoidalTable", sinusoidal_table(8, 6));
    bad("sinusoidalTable", sinusoidal_table(100_000, 100_000));
    ok("cropContext", crop_context_js(10, 8));
}

/// … the notes and the √d_k experiments.
#[wasm_bindgen_test]
fn every_export_answers_the_notes() {
    use attention_playground::wasm::lesson::*;
    ok("batchIndependence", batch_independence_js(1, 8, 4, 2));
    bad(
        "batchIndependence",
        batch_independence_js(1, usize::MAX, 4, 2),
    );
    ok("normCounterexample", norm_counterexample_js(1));
    ok("encoderDecoder", encoder_decoder_js(empty()));
    bad(
        "encoderDecoder",
        encoder_decoder_js(js(
            &json!({ "x": { "rows": 3, "cols": 2, "data": [1, 2, 3, 4, 5, 6] } }),
        )),
    );
    ok("dkSlider", dk_slider_js(0, 512, false, true));
    bad("dkSlider", dk_slider_js(0, 0, false, true));
    let v = variance_experiment_js(0, vec![4, 16], 2000).unwrap();
    assert!(js_sys::Array::is_array(&v));
    bad(
        "varianceExperiment",
        variance_experiment_js(0, vec![4096], 200_000),
    );
    bad(
        "varianceExperiment",
        variance_experiment_js(0, vec![0], 100),
    );
    ok(
        "softmaxSharpening",
        softmax_sharpening_js(vec![0.1, -0.2], vec![1.0, 8.0])
            .map(|a| js_sys::Array::from(&a).get(0)),
    );
    bad(
        "softmaxSharpening",
        softmax_sharpening_js(vec![1e308], vec![1e10]),
    );
    ok("avgMaxWeight", avg_max_weight_js(0, 100, 8, 512));
    bad("avgMaxWeight", avg_max_weight_js(0, 1_000_000, 8, 512));
}

/// … the exercise, the proofs and the practice.
#[wasm_bindgen_test]
fn every_export_answers_the_exercise_proofs_and_practice() {
    use attention_playground::wasm::lesson::*;
    ok("exerciseData", exercise_data());
    ok("multiHeadCheck", multihead_check_js(0, 2, 4, 5, 16, true));
    bad("multiHeadCheck", multihead_check_js(0, 2, 4, 5, 1000, true));
    ok("manualVsNaive", manual_vs_naive_js(0, 4, 16, true));
    ok("gradCheck", grad_check_js(0, 4, 4, true));
    bad("gradCheck", grad_check_js(0, 40, 4, true));
    ok("futureChange", future_change_js(0, 6, 4, 3));
    bad("futureChange", future_change_js(0, 6, 4, 6));
    ok(
        "headBackward",
        head_backward_js(empty(), m(3, 2, vec![1.0; 6])),
    );
    bad(
        "headBackward",
        head_backward_js(empty(), m(2, 2, vec![1.0; 4])),
    );

    ok(
        "weightedOutput",
        weighted_output_js(vec![0.0, 2f64.ln(), 0.0], vec![2.0, 4.0, 10.0]),
    );
    bad("weightedOutput", weighted_output_js(vec![0.0], vec![]));
    ok("wrongAxis", wrong_axis_js(0, 2, 5));
    ok("shiftValues", shift_values_js(0, 5, 4, 3.0));
    bad("shiftValues", shift_values_js(0, 5, 4, f64::INFINITY));
    let q = practice_questions().unwrap();
    assert_eq!(js_sys::Array::from(&q).length(), 9);
    let order = quiz_order_js(4, 2).unwrap();
    assert_eq!(js_sys::Array::from(&order).length(), 4);
    bad("quizOrder", quiz_order_js(1000, 2));
}

/// The numbers of a few more demonstrations, read as JavaScript sees them.
#[wasm_bindgen_test]
fn more_lesson_numbers_through_the_boundary() {
    use attention_playground::wasm::lesson::*;
    let num = |v: &Value| v.as_f64().unwrap();
    let t: Value = read(output_terms_js(js(&json!({})), 2));
    let out: Vec<f64> = t["out"].as_array().unwrap().iter().map(num).collect();
    assert_eq!(round(&out, 2), vec![8.87, 1.13]);
    let s: Value = read(softmax_sharpening_js(
        vec![0.1, -0.2, 0.3, -0.2, 0.5],
        vec![8.0],
    ));
    let w: Vec<f64> = s[0]["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(num)
        .collect();
    assert_eq!(round(&w, 2), vec![0.03, 0.00, 0.16, 0.00, 0.80]);
    let f: Value = read(future_change_js(3, 8, 4, 5));
    assert_eq!(num(&f["with_mask"]), 0.0);
    assert!(num(&f["without_mask"]) > 0.0);
    let g: Value = read(grad_check_js(1, 5, 4, true));
    assert_eq!(g["passed"], true);
    let b: Value = read(batch_independence_js(2, 6, 4, 3));
    assert_eq!(
        (num(&b["seq0_max_change"]), b["seq0_bit_identical"].clone()),
        (0.0, json!(true))
    );
    let mh: Value = read(multihead_check_js(0, 2, 4, 5, 16, true));
    assert!(num(&mh["max_err"]) <= 1e-6);
    assert_eq!(mh["shape"], json!([2, 4, 5, 16]));
    let d: Value = read(normalize_directions_js(js(
        &json!({ "rows": 3, "cols": 3, "data": [1, 1, 0, 2, 1, 1, 3, 3, 2] }),
    )));
    let r3: Vec<f64> = d["by_rows"]["data"].as_array().unwrap()[6..]
        .iter()
        .map(num)
        .collect();
    assert_eq!(round(&r3, 2), vec![0.38, 0.38, 0.25]);
    let o: Value = read(compare_orders_js("dogs", "gods", false, false));
    assert_eq!(o["permutation"], json!([2, 1, 0, 3]));
    assert!(num(&o["last_row_max_diff"]) < 1e-15);
    let e: Value = read(embed_toy("god", true));
    assert_eq!(round(&data(&e), 12), vec![2.1, 1.0, 0.2, 1.0, 1.3, 0.0]);
}

/// The page's input objects are read by hand (src/wasm/js_values.rs `Fields`) as serde
/// read them: typed arrays are arrays, `null` or absent optional matrices are the
/// lesson's, an explicit `undefined` flag is refused, and each refusal is
/// `lesson.input.malformed` naming the field.
#[wasm_bindgen_test]
fn input_objects_are_read_field_by_field() {
    use attention_playground::wasm::lesson::*;
    use js_sys::{Float64Array, Object, Reflect};
    let get = |v: &JsValue, k: &str| Reflect::get(v, &k.into()).unwrap();
    let malformed = |what: &str, r: Result<JsValue, JsValue>, field: &str| {
        let e = r.expect_err(what);
        assert_eq!(
            get(&e, "code").as_string().unwrap(),
            "lesson.input.malformed"
        );
        let detail = get(&get(&e, "params"), "detail").as_string().unwrap();
        assert!(detail.contains(field), "{what}: {detail}");
    };
    let steps = |v: Value| masked_softmax_steps_js(js(&v));
    assert!(steps(json!({ "scores": [1, 2], "allowed": [true, false] })).is_ok());
    malformed(
        "no allowed",
        steps(json!({ "scores": [1, 2] })),
        "`allowed`",
    );
    malformed(
        "a string score",
        steps(json!({ "scores": [1, "2"], "allowed": [true, true] })),
        "`scores`",
    );
    malformed(
        "not an object",
        masked_softmax_steps_js(JsValue::NULL),
        "object",
    );

    // A Float64Array is a sequence of numbers, as serde took it.
    let x = Object::new();
    Reflect::set(&x, &"rows".into(), &3.into()).unwrap();
    Reflect::set(&x, &"cols".into(), &2.into()).unwrap();
    let data = Float64Array::from(&[2.0, 7.0, 6.0, 4.0, 6.0, 5.0][..]);
    Reflect::set(&x, &"data".into(), &data).unwrap();
    assert!(averaging_ladder(x.into()).is_ok());
    let mat = |rows: Value| averaging_ladder(js(&json!({ "rows": rows, "cols": 1, "data": [1] })));
    malformed("fractional rows", mat(json!(1.5)), "`rows`");
    malformed("negative rows", mat(json!(-1)), "`rows`");
    malformed("text rows", mat(json!("1")), "`rows`");

    // Head objects: absent or null matrices are the h/o/u head's; flags are booleans.
    assert!(score_two_ways_js(js(&json!({ "x": null, "causal": false })), 2, 0).is_ok());
    malformed(
        "W_q without data",
        score_two_ways_js(js(&json!({ "W_q": { "rows": 2, "cols": 3 } })), 2, 0),
        "`W_q.data`",
    );
    let undefined_flag = Object::new();
    Reflect::set(&undefined_flag, &"causal".into(), &JsValue::UNDEFINED).unwrap();
    malformed(
        "causal: undefined",
        score_two_ways_js(undefined_flag.into(), 2, 0),
        "`causal`",
    );
}
