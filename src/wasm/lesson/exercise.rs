//! §6 bindings: the lesson-1 exercise with its three blanks, its data, and
//! the batched multi-head check.

use wasm_bindgen::prelude::*;

use crate::lesson::exercise::{
    exercise_run, lesson1_expected, lesson1_inputs, MaskLine, ScoreLine, SoftmaxAxis,
};
use crate::lesson::multihead::multihead_check;
use crate::tensor::Matrix;
use crate::wasm::to_js;

exports! {
    #[doc = " `exerciseRun(\"scaled\", \"upper\", \"last\")`; score: scaled | unscaled | dk, mask: upper |"]
    #[doc = " lower | none | diagonal, axis: last | receivers (or \"-1\" | \"-2\") -> `{ code: [3 lines],"]
    #[doc = " q, k, v, scores, masked_scores, weights, out, row_sums, col_sums, has_nan,"]
    #[doc = " weights_max_err, out_max_err, matches_expected, expected_weights, expected_out }`."]
    exerciseRun = fn exercise_run_js(score: &str, mask: &str, axis: &str) => (|| {
        Ok(exercise_run(
            ScoreLine::parse(score)?,
            MaskLine::parse(mask)?,
            SoftmaxAxis::parse(axis)?,
        ))
    })();

    #[doc = " `multiHeadCheck(seed, 2, 4, 5, 16, true)` (B ≤ 8, H ≤ 8, T ≤ 32, d_k ≤ 64) ->"]
    #[doc = " `{ shape: [B, H, T, d_k], max_err, allclose, head0_weights, head0_out }`."]
    multiHeadCheck = fn multihead_check_js(
        seed: u32,
        b: usize,
        h: usize,
        t: usize,
        d_k: usize,
        causal: bool,
    ) => multihead_check(seed.into(), [b, h, t, d_k], causal);
}

/// `exerciseData()` -> `{ X (4×8), W_q, W_k, W_v (8×16), weights (4×4), out (4×16) }`.
#[wasm_bindgen(js_name = exerciseData)]
pub fn exercise_data() -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    struct Data {
        #[serde(rename = "X")]
        x: Matrix,
        #[serde(rename = "W_q")]
        w_q: Matrix,
        #[serde(rename = "W_k")]
        w_k: Matrix,
        #[serde(rename = "W_v")]
        w_v: Matrix,
        weights: Matrix,
        out: Matrix,
    }
    let (x, w_q, w_k, w_v) = lesson1_inputs();
    let (weights, expected) = lesson1_expected();
    Ok(to_js(&Data {
        x,
        w_q,
        w_k,
        w_v,
        weights,
        out: expected,
    })?)
}
