//! The config a page sends (JSON, a preset and overrides), the texts a lab accepts, and
//! the config it reports.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::err;
use crate::gpt::{gpt_error, GptError, Hyperparams, Vocab};

/// Longest training text accepted (characters): ids and the text stay well under 100 MB.
pub const MAX_TEXT_CHARS: usize = 20_000_000;

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

/// Refuses texts no model can learn from, before the core sees them.
pub(super) fn check_text(text: &str) -> Result<(), GptError> {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return Err(gpt_error!("gpt.text.empty"));
    };
    if chars.clone().all(|c| c == first) {
        return Err(gpt_error!(
            "gpt.text.one_char",
            char = crate::error::quoted(first)
        ));
    }
    let n = 1 + chars.count();
    if n > MAX_TEXT_CHARS {
        return Err(gpt_error!("gpt.text.too_long", n, limit = MAX_TEXT_CHARS));
    }
    Ok(())
}

/// A text the model can always be wrapped in when the learner's own text does not fit its
/// vocab: every vocab character, repeated. Such a lab can be inspected but not trained.
pub(super) fn placeholder_text(vocab: &Vocab, block_size: usize) -> String {
    let need = 10 * (block_size + 1) + 1;
    vocab
        .chars
        .iter()
        .cycle()
        .take(need.max(vocab.len()))
        .collect()
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
