//! §5 bindings: batch independence, BatchNorm's counterexample, encoder vs
//! decoder, and the √d_k measurements (slider, variance, sharpening).
//! Seeds are plain numbers (u32); the same seed gives the same draws here
//! and in `cargo test` (SplitMix64 + Box–Muller in `lesson::rng`).

use wasm_bindgen::prelude::*;

use super::{reply, HeadIn};
use crate::explain::DEFAULT_MAX_TERMS;
use crate::lesson::notes::{
    batch_independence, encoder_decoder, explain_batch, norm_counterexample,
};
use crate::lesson::scaling::{avg_max_weight, dk_slider, softmax_sharpening, variance_experiment};
use crate::wasm::{thrown, to_js};

/// `batchIndependence(seed, T, C, d)` (each ≤ 16) -> `{ x_before, x_after, before, after,
/// seq0_max_change (0), seq0_bit_identical (true), seq1_max_change }`; `x_*` are lists of
/// matrices, `before`/`after` lists of traces.
#[wasm_bindgen(js_name = batchIndependence)]
pub fn batch_independence_js(
    seed: u32,
    t_len: usize,
    c: usize,
    d: usize,
) -> Result<JsValue, JsValue> {
    reply(batch_independence(seed.into(), t_len, c, d))
}

/// `explainBatch(seed, T, C, d, after, seq, kind, row, col, maxTerms?)`: one cell of
/// sequence `seq` (0 or 1) of `batchIndependence(seed, T, C, d)`'s batch, before
/// (`after` false) or after sequence 1 was redrawn, explained as `HeadLab.explain`
/// does (kinds "q", "k", "v", "scores", "masked_scores", "weights", "out"; causal,
/// scaled). The input is named "x": the sequence's own rows.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = explainBatch)]
pub fn explain_batch_js(
    seed: u32,
    t_len: usize,
    c: usize,
    d: usize,
    after: bool,
    seq: usize,
    kind: &str,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let cell = crate::wasm::explain::cell(kind, row, col)?;
    let max = max_terms.unwrap_or(DEFAULT_MAX_TERMS);
    let e =
        explain_batch((seed.into(), t_len, c, d), after, seq, cell, max).map_err(|e| thrown(&e))?;
    Ok(to_js(&e)?)
}

/// `normCounterexample(seed)` -> `{ sample, batches, batchnorm: [[..], [..]], layernorm,
/// batchnorm_max_diff (> 0), layernorm_max_diff (0) }`.
#[wasm_bindgen(js_name = normCounterexample)]
pub fn norm_counterexample_js(seed: u32) -> Result<JsValue, JsValue> {
    Ok(to_js(&norm_counterexample(seed.into()))?)
}

/// `encoderDecoder({ x?, W_q?, W_k?, W_v?, scaled? })` -> `{ decoder, encoder,
/// decoder_edges, encoder_edges }`, edges `{ from, to, weight }` (source → receiver).
#[wasm_bindgen(js_name = encoderDecoder)]
pub fn encoder_decoder_js(head_in: JsValue) -> Result<JsValue, JsValue> {
    let h = HeadIn::read("encoderDecoder(head)", head_in)?;
    let scaled = h.scaled;
    let (x, w) = h.head()?;
    reply(encoder_decoder(&x, &w, scaled))
}

/// `dkSlider(seed, d_k, scaled, causal)` (d_k in 1..=512) -> `{ d_k, scale, q, k, scores,
/// masked_scores, weights, score_std, mean_max_weight, row_sums }` for 6 tokens.
#[wasm_bindgen(js_name = dkSlider)]
pub fn dk_slider_js(seed: u32, d_k: usize, scaled: bool, causal: bool) -> Result<JsValue, JsValue> {
    reply(dk_slider(seed.into(), d_k, scaled, causal))
}

/// `varianceExperiment(seed, [4, 16, 64, 256, 512], 20000)` -> `[{ d, n, var_unscaled,
/// var_scaled, std_unscaled }]`; n · Σd is capped at 25 000 000.
#[wasm_bindgen(js_name = varianceExperiment)]
pub fn variance_experiment_js(seed: u32, dims: Vec<u32>, n: usize) -> Result<JsValue, JsValue> {
    let dims: Vec<usize> = dims.into_iter().map(|d| d as usize).collect();
    reply(variance_experiment(seed.into(), &dims, n))
}

/// `softmaxSharpening([0.1, -0.2, 0.3, -0.2, 0.5], [1, 4, 8])` -> `[{ factor, weights,
/// max_weight }]`.
#[wasm_bindgen(js_name = softmaxSharpening)]
pub fn softmax_sharpening_js(scores: Vec<f64>, factors: Vec<f64>) -> Result<JsValue, JsValue> {
    reply(softmax_sharpening(&scores, &factors))
}

/// `avgMaxWeight(seed, 1000, 8, 512)` -> `{ rows, keys, d, unscaled (≈ 0.958),
/// scaled (≈ 0.365) }`.
#[wasm_bindgen(js_name = avgMaxWeight)]
pub fn avg_max_weight_js(
    seed: u32,
    rows: usize,
    keys: usize,
    d: usize,
) -> Result<JsValue, JsValue> {
    reply(avg_max_weight(seed.into(), rows, keys, d))
}
