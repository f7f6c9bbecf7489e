//! The config a page sends (JSON, a preset and overrides) and the config a lab reports.
//! (The texts a lab accepts: `gpt::data::check_text`.)

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::lab::err;
use crate::gpt::{gpt_error, Hyperparams};

/// The config JSON: a preset and optional overrides.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct ConfigJs {
    preset: Option<String>,
    n_layer: Option<usize>,
    n_head: Option<usize>,
    n_embd: Option<usize>,
    block_size: Option<usize>,
    batch_size: Option<usize>,
    lr: Option<f64>,
    weight_decay: Option<f64>,
    bias: Option<bool>,
    causal: Option<bool>,
}

/// Hyperparams from the config JSON (empty = the tiny preset).
pub(super) fn hyperparams(json: &str) -> Result<Hyperparams, JsValue> {
    let c: ConfigJs = if json.trim().is_empty() {
        ConfigJs::default()
    } else {
        serde_json::from_str(json)
            .map_err(|e| err(gpt_error!("gpt.config.not_valid", detail = e.to_string())))?
    };
    let mut hp = Hyperparams::preset(c.preset.as_deref().unwrap_or("tiny")).map_err(err)?;
    hp.n_layer = c.n_layer.unwrap_or(hp.n_layer);
    hp.n_head = c.n_head.unwrap_or(hp.n_head);
    hp.n_embd = c.n_embd.unwrap_or(hp.n_embd);
    hp.block_size = c.block_size.unwrap_or(hp.block_size);
    hp.batch_size = c.batch_size.unwrap_or(hp.batch_size);
    hp.lr = c.lr.unwrap_or(hp.lr);
    hp.weight_decay = c.weight_decay.unwrap_or(hp.weight_decay);
    hp.bias = c.bias.unwrap_or(hp.bias);
    hp.causal = c.causal.unwrap_or(hp.causal);
    Ok(hp)
}

#[derive(Serialize)]
pub(super) struct ConfigOut {
    pub(super) vocab_size: usize,
    pub(super) block_size: usize,
    pub(super) n_layer: usize,
    pub(super) n_head: usize,
    pub(super) n_embd: usize,
    pub(super) bias: bool,
    pub(super) batch_size: usize,
    pub(super) lr: f64,
    pub(super) weight_decay: f64,
    pub(super) causal: bool,
    pub(super) params: usize,
    pub(super) steps: f64,
    pub(super) trainable: bool,
    /// Why training is off (the text does not fit the loaded model's vocab), else null;
    /// in English: `untrainable` is the same as { code, params, message }.
    pub(super) untrainable_reason: Option<String>,
    pub(super) vocab: String,
    pub(super) train_tokens: usize,
    pub(super) val_tokens: usize,
}
