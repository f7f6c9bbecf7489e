//! §5 bindings: batch independence, BatchNorm's counterexample, encoder vs
//! decoder, and the √d_k measurements (slider, variance, sharpening).
//! Seeds are plain numbers (u32); the same seed gives the same draws here
//! and in `cargo test` (SplitMix64 + Box–Muller in `lesson::portable_draws`).
//! (A cell of the batch explained: `explainBatch`, in `wasm::explain`.)

use wasm_bindgen::JsValue;

use super::HeadIn;
use crate::lesson::notes::{batch_independence, encoder_decoder, norm_counterexample};
use crate::lesson::scaling::{avg_max_weight, dk_slider, softmax_sharpening, variance_experiment};

exports! {
    #[doc = " `batchIndependence(seed, T, C, d)` (each ≤ 16) -> `{ x_before, x_after, before, after,"]
    #[doc = " seq0_max_change (0), seq0_bit_identical (true), seq1_max_change }`; `x_*` are lists of"]
    #[doc = " matrices, `before`/`after` lists of traces."]
    batchIndependence = fn batch_independence_js(seed: u32, t_len: usize, c: usize, d: usize)
        => batch_independence(seed.into(), t_len, c, d);

    #[doc = " `normCounterexample(seed)` -> `{ sample, batches, batchnorm: [[..], [..]], layernorm,"]
    #[doc = " batchnorm_max_diff (> 0), layernorm_max_diff (0) }`."]
    normCounterexample = fn norm_counterexample_js(seed: u32)
        => Ok(norm_counterexample(seed.into()));

    #[doc = " `encoderDecoder({ x?, W_q?, W_k?, W_v?, scaled? })` -> `{ decoder, encoder,"]
    #[doc = " decoder_edges, encoder_edges }`, edges `{ from, to, weight }` (source → receiver)."]
    encoderDecoder = fn encoder_decoder_js(head_in: JsValue) => {
        let h = HeadIn::read("encoderDecoder(head)", head_in)?;
        let scaled = h.scaled;
        let (x, w) = h.head()?;
        encoder_decoder(&x, &w, scaled)
    };

    #[doc = " `dkSlider(seed, d_k, scaled, causal)` (d_k in 1..=512) -> `{ d_k, scale, q, k, scores,"]
    #[doc = " masked_scores, weights, score_std, mean_max_weight, row_sums }` for 6 tokens."]
    dkSlider = fn dk_slider_js(seed: u32, d_k: usize, scaled: bool, causal: bool)
        => dk_slider(seed.into(), d_k, scaled, causal);

    #[doc = " `varianceExperiment(seed, [4, 16, 64, 256, 512], 20000)` -> `[{ d, n, var_unscaled,"]
    #[doc = " var_scaled, std_unscaled }]`; n · Σd is capped at 25 000 000."]
    varianceExperiment = fn variance_experiment_js(seed: u32, dims: Vec<u32>, n: usize) => {
        let dims: Vec<usize> = dims.into_iter().map(|d| d as usize).collect();
        variance_experiment(seed.into(), &dims, n)
    };

    #[doc = " `softmaxSharpening([0.1, -0.2, 0.3, -0.2, 0.5], [1, 4, 8])` -> `[{ factor, weights,"]
    #[doc = " max_weight }]`."]
    softmaxSharpening = fn softmax_sharpening_js(scores: Vec<f64>, factors: Vec<f64>)
        => softmax_sharpening(&scores, &factors);

    #[doc = " `avgMaxWeight(seed, 1000, 8, 512)` -> `{ rows, keys, d, unscaled (≈ 0.958),"]
    #[doc = " scaled (≈ 0.365) }`."]
    avgMaxWeight = fn avg_max_weight_js(seed: u32, rows: usize, keys: usize, d: usize)
        => avg_max_weight(seed.into(), rows, keys, d);
}
