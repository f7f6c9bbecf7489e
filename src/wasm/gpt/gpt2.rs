//! GPT-2 in the page (`gpt::hf`): a Hugging Face folder streamed into the worker, then
//! opened as the inspector opens our GPT, with the same calls (`attention`,
//! `explainAttention`, `generate`, `headScores`), plus heads switched off.
//!
//!   gpt2Plan(configJson)        → { n_layer, n_head, n_embd, block_size, vocab_size,
//!                                   params, gelu, weights_mb, memory_mb } before loading
//!   new Gpt2Loader(configJson)  reserves the weights (Err: not GPT-2, too big, no memory)
//!   loader.push(chunk)          each chunk of model.safetensors, in order
//!   loader.finish(tokenizerJson?, vocabJson?, mergesTxt?) → Gpt2Lab
//!
//! Prompts are tokens, not characters: the last `MAX_PROMPT_TOKENS` of a prompt are run.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::heads::{scores_js, Best};
use super::inspect::{attention_js, check_head, explain_err, explain_js};
use super::lab::{err, sample_options};
use crate::explain::Kind;
use crate::gpt::bpe::Bpe;
use crate::gpt::heads::{head_scores, Probe};
use crate::gpt::hf::{self, HfConfig, HfLoader, MAX_PROMPT_TOKENS};
use crate::gpt::sample::generate;
use crate::gpt::{gpt_error, Activations, Gelu, Gpt};
use crate::wasm::to_js;

/// Most tokens per `generate` call: one call of GPT-2 small stays under a minute.
const MAX_GENERATE_TOKENS: u32 = 200;
/// The probe for GPT-2's head scores: 4 rows of 2 × 12 random tokens (a forward pass of
/// 96 tokens), fewer than our GPT's 16 rows so that it takes seconds, not tens.
const PROBE_ROWS: usize = 4;
const PROBE_LEN: usize = 12;
const PROBE_SEED: u64 = 1234;

#[derive(Serialize)]
struct PlanJs {
    n_layer: usize,
    n_head: usize,
    n_embd: usize,
    block_size: usize,
    vocab_size: usize,
    params: usize,
    gelu: Gelu,
    weights_mb: u64,
    memory_mb: u64,
}

fn plan_of(cfg: &HfConfig) -> PlanJs {
    let c = &cfg.config;
    let t = c.block_size.min(MAX_PROMPT_TOKENS);
    PlanJs {
        n_layer: c.n_layer,
        n_head: c.n_head,
        n_embd: c.n_embd,
        block_size: c.block_size,
        vocab_size: c.vocab_size,
        params: c.num_params(),
        gelu: cfg.gelu,
        weights_mb: (c.num_params() as u64 * 4).div_ceil(1 << 20),
        memory_mb: cfg.memory_bytes(t).div_ceil(1 << 20) as u64,
    }
}

/// What a `config.json` describes and the memory it needs, before anything is loaded.
#[wasm_bindgen(js_name = gpt2Plan)]
pub fn gpt2_plan(config_json: &str) -> Result<JsValue, JsValue> {
    let cfg = HfConfig::parse(config_json).map_err(err)?;
    Ok(to_js(&plan_of(&cfg))?)
}

/// `model.safetensors` on its way in, chunk by chunk.
#[wasm_bindgen]
pub struct Gpt2Loader {
    loader: HfLoader,
}

#[wasm_bindgen]
impl Gpt2Loader {
    /// Reserves the weights of `config_json`'s model.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<Gpt2Loader, JsValue> {
        let cfg = HfConfig::parse(config_json).map_err(err)?;
        Ok(Gpt2Loader {
            loader: HfLoader::new(&cfg).map_err(err)?,
        })
    }

    /// The next chunk of model.safetensors.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.loader.push(chunk).map_err(err)
    }

    /// Bytes taken so far.
    #[wasm_bindgen(js_name = bytesRead)]
    pub fn bytes_read(&self) -> f64 {
        self.loader.bytes_read() as f64
    }

    /// The model with its tokenizer (tokenizer.json, else vocab.json + merges.txt); Err
    /// if the file ended early or the tokenizer is missing or does not fit.
    pub fn finish(
        self,
        tokenizer_json: Option<String>,
        vocab_json: Option<String>,
        merges_txt: Option<String>,
    ) -> Result<Gpt2Lab, JsValue> {
        let model = self.loader.finish().map_err(err)?;
        let bpe = hf::tokenizer(
            tokenizer_json.as_deref(),
            vocab_json.as_deref(),
            merges_txt.as_deref(),
            model.config.vocab_size,
        )
        .map_err(err)?;
        let t = model.config.block_size.min(MAX_PROMPT_TOKENS);
        let acts = Activations::for_inference(&model.config, t);
        Ok(Gpt2Lab {
            model,
            bpe,
            acts,
            ran: None,
        })
    }
}

/// A GPT-2 opened: its weights, tokenizer and the buffers of one prompt.
#[wasm_bindgen]
pub struct Gpt2Lab {
    model: Gpt,
    bpe: Bpe,
    acts: Activations,
    /// The ids in `acts` and the heads that were off: a second call on the same prompt
    /// (a cell explained after the heads were drawn) does not run 124 M weights again.
    ran: Option<(Vec<u32>, Vec<bool>)>,
}

#[derive(Serialize)]
struct TokensJs {
    ids: Vec<u32>,
    pieces: Vec<String>,
}

impl Gpt2Lab {
    /// The last `MAX_PROMPT_TOKENS` (or block_size) tokens of `prompt`, run.
    fn run_prompt(&mut self, prompt: &str) -> Result<Vec<u32>, JsValue> {
        if prompt.is_empty() {
            return Err(err(gpt_error!("gpt.prompt.empty")));
        }
        let ids = self.bpe.encode(prompt);
        let ids = ids[ids.len().saturating_sub(self.acts.t_max)..].to_vec();
        let key = (ids, self.model.ablated.clone());
        if self.ran.as_ref() != Some(&key) {
            self.ran = None;
            self.model
                .forward_last(&mut self.acts, &key.0)
                .map_err(err)?;
            self.ran = Some(key.clone());
        }
        Ok(key.0)
    }
}

#[wasm_bindgen]
impl Gpt2Lab {
    /// The model's shape: `gpt2Plan`'s fields and `kind` "gpt2", `max_tokens` (the longest
    /// prompt run), `ablated` (NL·NH flags, layer-major).
    pub fn config(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct ConfigJs {
            #[serde(flatten)]
            plan: PlanJs,
            kind: &'static str,
            max_tokens: usize,
            ablated: Vec<bool>,
            tokenizer_size: usize,
        }
        let cfg = HfConfig {
            config: self.model.config.clone(),
            gelu: self.model.gelu,
        };
        let n = self.model.config.n_layer * self.model.config.n_head;
        let mut ablated = self.model.ablated.clone();
        ablated.resize(n, false);
        Ok(to_js(&ConfigJs {
            plan: plan_of(&cfg),
            kind: "gpt2",
            max_tokens: self.acts.t_max,
            ablated,
            tokenizer_size: self.bpe.len(),
        })?)
    }

    /// `text`'s tokens: `{ ids, pieces }` (each piece the token's text; bytes that are
    /// not a whole character as <0x..>).
    pub fn tokenize(&self, text: &str) -> Result<JsValue, JsValue> {
        let ids = self.bpe.encode(text);
        let pieces = ids.iter().map(|&i| self.bpe.piece(i)).collect();
        Ok(to_js(&TokensJs { ids, pieces })?)
    }

    /// One forward pass of the prompt's last tokens, nothing returned but their count
    /// (the benchmark: the same pass `attention` makes, without copying the maps out).
    #[wasm_bindgen(js_name = forwardOnly)]
    pub fn forward_only(&mut self, prompt: &str) -> Result<usize, JsValue> {
        self.ran = None;
        Ok(self.run_prompt(prompt)?.len())
    }

    /// As `GptLab.attention`: every head's weights and scores for the prompt's last
    /// tokens, and the most likely next tokens (`probs[i].char` the piece, `.id`).
    pub fn attention(&mut self, prompt: &str) -> Result<JsValue, JsValue> {
        let ids = self.run_prompt(prompt)?;
        let bpe = &self.bpe;
        attention_js(&self.model, &self.acts, &ids, |i| bpe.piece(i))
    }

    /// As `GptLab.explainAttention`, on the prompt's tokens.
    #[wasm_bindgen(js_name = explainAttention)]
    #[allow(clippy::too_many_arguments)]
    pub fn explain_attention(
        &mut self,
        prompt: &str,
        layer: usize,
        head: usize,
        kind: &str,
        row: usize,
        col: usize,
        max_terms: Option<usize>,
    ) -> Result<JsValue, JsValue> {
        check_head(&self.model, layer, head)?;
        let kind = Kind::parse(kind).map_err(explain_err)?;
        self.run_prompt(prompt)?;
        explain_js(
            &self.model,
            &self.acts,
            layer,
            head,
            kind,
            row,
            col,
            max_terms,
        )
    }

    /// Up to `MAX_GENERATE_TOKENS` tokens after `prompt` (its last tokens as context),
    /// decoded: greedy when temperature ≤ 0, else sampled over the `top_k` most likely.
    pub fn generate(
        &mut self,
        prompt: &str,
        n: u32,
        temperature: f32,
        top_k: u32,
        seed: u32,
    ) -> Result<String, JsValue> {
        let opts = sample_options(n, MAX_GENERATE_TOKENS, temperature, top_k, seed)?;
        if prompt.is_empty() {
            return Err(err(gpt_error!("gpt.prompt.empty")));
        }
        let mut ids = self.bpe.encode(prompt);
        let start = ids.len();
        self.ran = None; // generation runs other prompts through the buffers
        generate(&self.model, &mut self.acts, &mut ids, n as usize, &opts).map_err(err)?;
        Ok(self.bpe.decode(&ids[start..]))
    }

    /// Switches head `head` of layer `layer` off (`off`) or back on; every later pass
    /// runs without it.
    #[wasm_bindgen(js_name = setAblated)]
    pub fn set_ablated(&mut self, layer: usize, head: usize, off: bool) -> Result<(), JsValue> {
        self.model.set_ablated(layer, head, off).map_err(err)
    }

    /// Every head back on.
    #[wasm_bindgen(js_name = clearAblated)]
    pub fn clear_ablated(&mut self) {
        self.model.ablated.clear();
    }

    /// As `GptLab.headScores`, on a probe of random tokens (every id the tokenizer makes
    /// but the last, `<|endoftext|>`), each row written twice; heads switched off stay
    /// off while it runs.
    #[wasm_bindgen(js_name = headScores)]
    pub fn head_scores(&self) -> Result<JsValue, JsValue> {
        let bs = self.model.config.block_size;
        let candidates: Vec<u32> = (0..self.bpe.len().saturating_sub(1) as u32).collect();
        let len = PROBE_LEN.min(bs / 2);
        let p = Probe::from_ids(&candidates, bs, PROBE_ROWS, len, PROBE_SEED).map_err(err)?;
        let s = head_scores(&self.model, &p);
        let (layer, head, score) = s.best_induction();
        let probe = p
            .ids
            .chunks(2 * p.len)
            .map(|r| self.bpe.decode(r))
            .collect();
        scores_js(&s, &p, probe, Best { layer, head, score })
    }
}
