//! An explained GPT number is the number on screen: for every cell of every head's
//! weights and scores, `explainAttention` ends on the drawn f32 value bit for bit, and
//! its terms add up to it within f32 rounding.
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::gpt::GptLab;
use serde_json::Value;
use wasm_bindgen_test::*;
use web_util::{f32s, get};

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

/// Two layers of two heads (hs = 8), block 8, trained a few steps so that no weight is
/// a round number.
fn lab() -> GptLab {
    let text = "the cat sat. a dog ran! ".repeat(40);
    let cfg = r#"{"preset":"tiny","n_layer":2,"n_embd":16,"n_head":2,"batch_size":4}"#;
    let mut lab = GptLab::new(cfg, &text, 3).unwrap();
    lab.step(5).unwrap();
    lab
}

fn json(v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>) -> Value {
    web_util::from_value(v.map_err(|e| format!("{e:?}")).unwrap()).unwrap()
}

/// What the listed terms and the rest add up to, by the op's formula.
fn recombined(e: &Value) -> f64 {
    let f = |v: &Value| v.as_f64().unwrap();
    let rest = |key: &str| e["rest"].get(key).map_or(0.0, f);
    match e["op"].as_str().unwrap() {
        "dot" => {
            let sum: f64 = e["terms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| f(&t["product"]))
                .sum();
            (sum + rest("sum")) * e["scale"].get("factor").map_or(1.0, f)
        }
        "softmax" => {
            let sum: f64 = e["terms"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| f(&t["shifted_exp"]))
                .sum();
            f(&e["numerator_shifted"]) / (sum + rest("shifted_exp_sum"))
        }
        "kept" => f(&e["score"]),
        "masked" => f64::NEG_INFINITY,
        op => panic!("unexpected op {op}"),
    }
}

#[wasm_bindgen_test]
fn every_drawn_weight_and_score_is_explained_to_the_last_bit() {
    let mut lab = lab();
    let prompt = "a cat ran";
    let raw = lab.attention(prompt).unwrap();
    let a = json(Ok(raw.clone()));
    let t = a["tokens"].as_array().unwrap().len();
    assert_eq!(t, 8, "the prompt's last block_size characters");
    let mut checked = 0;
    for (grid, field) in [("weights", "layers"), ("scores", "scores")] {
        for (l, heads) in a[field].as_array().unwrap().iter().enumerate() {
            for h in 0..heads.as_array().unwrap().len() {
                // The map as the page reads it: one Float32Array, −∞ where masked.
                let m = get(&get(&get(&raw, field), &l.to_string()), &h.to_string());
                let data = f32s(&get(&m, "data"), field);
                for row in 0..t {
                    for col in 0..t {
                        let i = row * t + col;
                        let drawn = f64::from(data[i]);
                        if drawn == f64::NEG_INFINITY {
                            assert_eq!(a["masked"][i], true, "only a masked cell is −∞");
                        }
                        assert_eq!(drawn as f32 as f64, drawn, "an f32 number");
                        // As the page asks: a drawn −∞ is a masked score.
                        let kind = match grid {
                            "scores" if drawn == f64::NEG_INFINITY => "masked_scores",
                            g => g,
                        };
                        let e = json(lab.explain_attention(prompt, l, h, kind, row, col, None));
                        let what = format!("L{l} H{h} {kind}[{row}, {col}]");
                        let value = e["value"].as_f64().unwrap_or(f64::NEG_INFINITY);
                        assert_eq!(
                            value.to_bits(),
                            drawn.to_bits(),
                            "{what}: {value} vs drawn {drawn}"
                        );
                        let sum = recombined(&e);
                        let close =
                            (sum == value) || (sum - value).abs() <= 1e-5 * value.abs().max(1.0);
                        assert!(close, "{what}: the terms make {sum}, the cell is {value}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 2 * 2 * 2 * t * t);
}
