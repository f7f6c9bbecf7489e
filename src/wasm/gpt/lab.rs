//! `GptLab`: one `Trainer` the page's worker trains and opens (module doc: `super`).

use wasm_bindgen::prelude::*;

use super::config::{hyperparams, ConfigOut};
use crate::gpt::data::check_text;
use crate::gpt::{gpt_error, GptError, SampleOptions, Trainer};
use crate::wasm::{error_object, thrown, to_js};

/// Most steps per `step` call and characters per `generate` call: one call stays short.
const MAX_STEPS_PER_CALL: u32 = 10_000;
const MAX_GENERATE: u32 = 5_000;

/// What `generate` is asked for, checked: `n` up to `max` tokens, temperature a number
/// (≤ 0 = greedy), top_k 0 = all.
pub(super) fn sample_options(
    n: u32,
    max: u32,
    temperature: f32,
    top_k: u32,
    seed: u32,
) -> Result<SampleOptions, JsValue> {
    if !temperature.is_finite() {
        return Err(err(gpt_error!("gpt.generate.temperature_nan")));
    }
    if n > max {
        return Err(err(gpt_error!("gpt.generate.too_many", max, n)));
    }
    Ok(SampleOptions {
        greedy: temperature <= 0.0,
        temperature,
        top_k: (top_k > 0).then_some(top_k as usize),
        seed: seed as u64,
    })
}

/// The learner's error as a thrown JS Error with its code and params.
pub(super) fn err(e: GptError) -> JsValue {
    thrown(&e)
}

/// A GPT, its optimizer and its text: what the worker trains and opens.
#[wasm_bindgen]
pub struct GptLab {
    pub(super) tr: Trainer,
    /// Some(reason) when the lab wraps a loaded model whose vocab the text does not fit.
    pub(super) untrainable: Option<GptError>,
}

impl GptLab {
    /// Err (`gpt.lab.untrainable`) when the lab wraps a model its text cannot train.
    pub(super) fn check_trainable(&self) -> Result<(), JsValue> {
        match &self.untrainable {
            Some(why) => Err(err(gpt_error!("gpt.lab.untrainable", reason = why.clone()))),
            None => Ok(()),
        }
    }
}

#[wasm_bindgen]
impl GptLab {
    /// A fresh model (nanoGPT init from `seed`) for `text` under the config JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str, text: &str, seed: u32) -> Result<GptLab, JsValue> {
        let hp = hyperparams(config_json)?;
        check_text(text).map_err(err)?;
        let tr = Trainer::new(text, hp, seed as u64).map_err(err)?;
        Ok(GptLab {
            tr,
            untrainable: None,
        })
    }

    /// A model from checkpoint bytes (ours or converted from nanoGPT). Trains on `text`
    /// when given and written in the checkpoint's vocab; otherwise it can be inspected and
    /// sampled but not trained (`config().trainable` is false and says why). Batch size,
    /// lr, weight decay and causal come from the config JSON; the shape from the file.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        bytes: &[u8],
        text: Option<String>,
        config_json: Option<String>,
        seed: u32,
    ) -> Result<GptLab, JsValue> {
        let hp = hyperparams(config_json.as_deref().unwrap_or(""))?;
        let (tr, untrainable) =
            Trainer::from_checkpoint(bytes, text.as_deref(), hp, seed as u64).map_err(err)?;
        Ok(GptLab { tr, untrainable })
    }

    /// A lab from `stateBytes` output: the run continues exactly (same weights, AdamW
    /// moments, step count and batches) on `text`, the text it was trained on.
    #[wasm_bindgen(js_name = fromState)]
    pub fn from_state(bytes: &[u8], text: &str) -> Result<GptLab, JsValue> {
        check_text(text).map_err(err)?;
        let tr = crate::gpt::state::from_bytes(bytes, text).map_err(err)?;
        Ok(GptLab {
            tr,
            untrainable: None,
        })
    }

    /// Takes `n` AdamW steps on random batches; returns each step's training loss.
    pub fn step(&mut self, n: u32) -> Result<Vec<f32>, JsValue> {
        self.check_trainable()?;
        let n = n.min(MAX_STEPS_PER_CALL);
        Ok((0..n).map(|_| self.tr.step()).collect())
    }

    /// Samples the next batch (untimed half of a step, as the CLI's `bench`).
    #[wasm_bindgen(js_name = nextBatch)]
    pub fn next_batch(&mut self) -> Result<(), JsValue> {
        self.check_trainable()?;
        self.tr.next_batch();
        Ok(())
    }

    /// One AdamW step on the batch `nextBatch` sampled (the timed half); returns its loss.
    #[wasm_bindgen(js_name = stepBatch)]
    pub fn step_batch(&mut self) -> Result<f32, JsValue> {
        self.check_trainable()?;
        Ok(self.tr.step_batch())
    }

    /// Mean [train, val] loss over `iters` fixed batches of each split.
    #[wasm_bindgen(js_name = estimateLoss)]
    pub fn estimate_loss(&mut self, iters: u32) -> Result<Vec<f32>, JsValue> {
        self.check_trainable()?;
        let (train, val) = self.tr.estimate_loss(iters.clamp(1, 1000) as usize);
        Ok(vec![train, val])
    }

    /// `n` characters after `prompt`: greedy when temperature ≤ 0, else sampled from
    /// softmax(logits / temperature) over the `top_k` most likely (0 = all), with `seed`.
    pub fn generate(
        &mut self,
        prompt: &str,
        n: u32,
        temperature: f32,
        top_k: u32,
        seed: u32,
    ) -> Result<String, JsValue> {
        let o = sample_options(n, MAX_GENERATE, temperature, top_k, seed)?;
        self.tr
            .generate(prompt, n as usize, temperature, o.top_k, o.seed)
            .map_err(err)
    }

    /// Trains (and runs) with or without the causal mask from now on.
    #[wasm_bindgen(js_name = setCausal)]
    pub fn set_causal(&mut self, on: bool) {
        self.tr.model.causal = on;
        self.tr.hp.causal = on;
    }

    /// The model's shape, training settings, step count and vocab (see `ConfigOut`),
    /// and `untrainable`: why training is off as { code, params, message }, else null.
    pub fn config(&self) -> Result<JsValue, JsValue> {
        let c = &self.tr.model.config;
        let hp = &self.tr.hp;
        let out = to_js(&ConfigOut {
            vocab_size: c.vocab_size,
            block_size: c.block_size,
            n_layer: c.n_layer,
            n_head: c.n_head,
            n_embd: c.n_embd,
            bias: c.bias,
            batch_size: hp.batch_size,
            lr: hp.lr,
            weight_decay: hp.weight_decay,
            causal: self.tr.model.causal,
            params: c.num_params(),
            steps: self.tr.steps as f64,
            trainable: self.untrainable.is_none(),
            untrainable_reason: self.untrainable.as_ref().map(GptError::to_string),
            vocab: self.vocab(),
            train_tokens: self.tr.data.train.len(),
            val_tokens: self.tr.data.val.len(),
        })?;
        let why = match &self.untrainable {
            Some(e) => error_object(e).into(),
            None => JsValue::NULL,
        };
        let _ = js_sys::Reflect::set(&out, &"untrainable".into(), &why);
        Ok(out)
    }

    /// The characters the model knows, in id order.
    pub fn vocab(&self) -> String {
        self.tr.data.vocab.chars.iter().collect()
    }

    #[wasm_bindgen(js_name = paramCount)]
    pub fn param_count(&self) -> usize {
        self.tr.model.config.num_params()
    }

    /// Steps taken since this lab was made.
    pub fn steps(&self) -> f64 {
        self.tr.steps as f64
    }

    /// Tokens one training step reads: batch_size × block_size.
    #[wasm_bindgen(js_name = tokensPerStep)]
    pub fn tokens_per_step(&self) -> usize {
        self.tr.hp.batch_size * self.tr.model.config.block_size
    }

    /// The full training state (checkpoint + AdamW m, v, t + step, seed, sampler
    /// position; see `gpt::state`), for `GptLab.fromState`.
    #[wasm_bindgen(js_name = stateBytes)]
    pub fn state_bytes(&self) -> Vec<u8> {
        crate::gpt::state::to_bytes(&self.tr)
    }

    /// The checkpoint (safetensors bytes) of the current weights.
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.tr.to_bytes()
    }
}

/// The preset names, in order.
#[wasm_bindgen(js_name = gptPresets)]
pub fn gpt_presets() -> Vec<String> {
    crate::gpt::config::PRESETS
        .iter()
        .map(|s| s.to_string())
        .collect()
}
