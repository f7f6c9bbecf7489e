//! `GptError`: what a learner's config, text, prompt or file got wrong, as a stable code
//! (`gpt.config.too_many_params`) and named params (`{ n, limit }`), so that the page can
//! say it in the learner's language (`err.<code>`, the Chinese in www/js/i18n/gpt.js,
//! through `errorText` in www/js/i18n/i18n.js). `Display` is the English text of `MESSAGES`
//! with the params filled in; the page's English table is generated from `MESSAGES`
//! (tools/error-tables.mjs).
//!
//! The machinery (params, `Display`, the macros) is the crate's one coded error,
//! `crate::error`; this module is the gpt domain's table and the names gpt code uses.
//! A param is text or another `GptError`, the cause a sentence wraps ("checkpoint
//! config: {reason}"), which the page says in the same language.

use crate::error::{template_in, Coded, Domain, Messages};

/// Every code and its English text; `{name}` is a param.
pub const MESSAGES: Messages = &[
    // config.rs: the model's shape and the training settings
    ("gpt.config.size_range", "{name} must be between 1 and {max}, got {value}"),
    ("gpt.config.too_many_layers", "n_layer is {n}; the limit is {limit} layers"),
    ("gpt.config.heads_divide", "n_embd ({n_embd}) must be divisible by n_head ({n_head}): each head gets n_embd / n_head channels"),
    ("gpt.config.too_many_params", "this config has {n} parameters; the limit is {limit} (25 M) so training fits in memory"),
    ("gpt.config.activations", "batch_size {batch_size} × block_size {block_size} needs {mb} MB of activations; the limit is {limit} MB"),
    ("gpt.config.unknown_preset", "unknown preset {name}; choose one of {presets}"),
    ("gpt.config.bad_lr", "lr must be a positive number, got {value}"),
    ("gpt.config.bad_weight_decay", "weight_decay must be ≥ 0, got {value}"),
    ("gpt.config.not_valid", "the config is not valid: {detail} (fields: preset, n_layer, n_head, n_embd, block_size, batch_size, lr, weight_decay, bias, causal)"),
    // the training text (data.rs: check_text)
    ("gpt.text.empty", "the text is empty: paste or upload some text to train on"),
    ("gpt.text.one_char", "the text uses only one character ({char}): there is nothing to predict; use text with at least two different characters"),
    ("gpt.text.too_long", "the text has {n} characters; the limit is {limit} (20 M)"),
    ("gpt.data.too_short", "the text is too short: block_size {block_size} needs more than {block_size} characters in both the 90 % train split ({train}) and the 10 % validation split ({val}); use at least {need} characters"),
    ("gpt.data.not_in_vocab", "characters not in the model's vocab: {chars}"),
    ("gpt.trainer.vocab_mismatch", "the text's vocab has {text_n} characters but the model has {model_n}"),
    // prompts and generation (sample.rs, wasm/gpt/lab.rs)
    ("gpt.sample.empty_prompt", "the prompt is empty: give at least one character"),
    ("gpt.prompt.empty", "the prompt is empty: type at least one character"),
    ("gpt.sample.bad_temperature", "temperature must be > 0 (or use greedy), got {value}"),
    ("gpt.generate.temperature_nan", "temperature must be a number"),
    ("gpt.generate.too_many", "at most {max} characters per call, asked for {n}"),
    ("gpt.sample.small_buffers", "activations for {b_max}×{t_max} cannot hold a context of block_size {block_size}"),
    ("gpt.explain.no_head", "no head {head} in layer {layer}: the model has {n_layer} layers of {n_head} heads"),
    // model.rs: what the forward pass is handed
    ("gpt.model.batch_too_big", "a batch of {b}×{t} does not fit buffers for {b_max}×{t_max} (block_size {block_size})"),
    ("gpt.model.ids_len", "{what} has {n} ids, expected {b}×{t}"),
    ("gpt.model.id_outside_vocab", "{what} contains id {id}, outside the vocab of {vocab_size}"),
    // checkpoint.rs: a .safetensors file
    ("gpt.checkpoint.not_safetensors", "not a valid safetensors checkpoint (corrupt or truncated?): {detail}"),
    ("gpt.checkpoint.invalid", "not a valid safetensors checkpoint: {detail}"),
    ("gpt.checkpoint.not_tensors", "not safetensors: {detail}"),
    ("gpt.checkpoint.no_metadata", "the safetensors file has no metadata: a GPT checkpoint needs vocab, vocab_size, block_size, n_layer, n_head, n_embd and bias"),
    ("gpt.checkpoint.meta_missing", "checkpoint metadata lacks {key}"),
    ("gpt.checkpoint.meta_not_number", "checkpoint metadata {key} is {value}, not a whole number"),
    ("gpt.checkpoint.meta_bias", "checkpoint metadata \"bias\" is {value}, expected \"true\" or \"false\""),
    ("gpt.checkpoint.bad_config", "checkpoint config: {reason}"),
    ("gpt.checkpoint.vocab_not_json", "checkpoint vocab is not a JSON array of strings: {detail}"),
    ("gpt.checkpoint.vocab_entry", "checkpoint vocab entry {entry} is not exactly one character"),
    ("gpt.checkpoint.vocab_size", "checkpoint vocab has {n} entries but vocab_size is {vocab_size}"),
    ("gpt.checkpoint.vocab_duplicate", "checkpoint vocab lists a character twice"),
    ("gpt.checkpoint.unexpected_tensor", "checkpoint has an unexpected tensor {name} for this config"),
    ("gpt.checkpoint.missing_tensor", "checkpoint lacks tensor {name}"),
    ("gpt.checkpoint.tensor_dtype", "tensor {name} is {dtype}, expected F32"),
    ("gpt.checkpoint.tensor_shape", "tensor {name} has shape {shape}, expected {expected}"),
    ("gpt.checkpoint.tensor_bytes", "tensor {name} has {n} bytes, expected {expected}"),
    // state.rs: a saved training run
    ("gpt.state.not_state", "this is not a saved training state"),
    ("gpt.state.truncated", "the saved training state is truncated"),
    ("gpt.state.damaged", "the saved training state is damaged: {detail}"),
    ("gpt.state.wrong_length", "the saved training state has {n} bytes after its header, expected {expected}"),
    ("gpt.state.wrong_length_more", "the saved training state has {n} bytes after its header, expected more"),
    ("gpt.state.moments", "the saved optimizer state has {n} values per moment; the model has {params} parameters"),
    // parallel.rs: data-parallel gradients (the page's workers)
    ("gpt.parallel.slice", "rows {start} to {end} (excluded) are not a slice of the batch: a slice has at least one row and ends at or before row {batch_size}"),
    ("gpt.parallel.rows", "a slice of {rows} rows does not fit a batch of {batch_rows} rows (batch_size {batch_size})"),
    ("gpt.parallel.params_len", "the weights have {n} values; the model has {expected}"),
    ("gpt.parallel.grads_len", "the gradient has {n} values; the model has {expected}"),
    ("gpt.parallel.bad_config", "the replica config is not valid: {detail}"),
    // trainer.rs, wasm/gpt/lab.rs: a loaded model the current text cannot train
    ("gpt.lab.text_cannot_train", "the current text cannot train this model: {reason}"),
    ("gpt.lab.no_text", "no training text was given with this model"),
    ("gpt.lab.untrainable", "this model cannot be trained here: {reason}"),
    // toy.rs: the induction task's text; heads.rs: the probe
    ("gpt.toy.alphabet", "the alphabet must have 2 to {max} characters, got {value}"),
    ("gpt.toy.lengths", "the repeated string's length must run from at least 1 to at most 1000 characters, got {min} to {max}"),
    ("gpt.toy.chars", "the task's text must have {need} to {limit} characters, got {value}"),
    // hf.rs: a Hugging Face GPT-2 folder (config.json, model.safetensors)
    ("gpt.hf.config_not_json", "config.json is not valid JSON: {detail}"),
    ("gpt.hf.not_gpt2", "this is a {model_type} model, not GPT-2: only GPT-2-family checkpoints (gpt2, distilgpt2, gpt2-medium…) open here"),
    ("gpt.hf.config_field", "config.json: {field} is {value}; {need}"),
    ("gpt.hf.activation", "config.json: activation_function {value} is not one the core runs (gelu_new, gelu_pytorch_tanh, gelu)"),
    ("gpt.hf.too_big", "this model has {n} parameters ({mb} MB as f32); the limit here is {limit} (a model this size would not fit in the page's memory)"),
    ("gpt.hf.out_of_memory", "the browser could not give the {mb} MB this model needs: close other tabs, or open a smaller model (distilgpt2 needs about 420 MB)"),
    ("gpt.hf.header", "model.safetensors is damaged: its header {detail}"),
    ("gpt.hf.tensor_dtype", "tensor {name} is {dtype}; the core reads F32, F16 and BF16"),
    ("gpt.hf.tensor_shape", "tensor {name} has shape {shape}, expected {expected} for this config.json"),
    ("gpt.hf.unexpected_tensor", "model.safetensors has a tensor {name} that GPT-2 does not: is it the model config.json describes?"),
    ("gpt.hf.missing_tensor", "model.safetensors lacks tensor {name}"),
    ("gpt.hf.truncated", "model.safetensors ended after {got} of {expected} bytes: the download or copy was cut short"),
    ("gpt.hf.too_long", "model.safetensors has more bytes than its header describes ({got}, expected {expected})"),
    ("gpt.hf.untied", "this checkpoint has its own lm_head (tie_word_embeddings is false); GPT-2's lm_head is wte"),
    ("gpt.hf.missing_file", "the folder lacks {file}: a GPT-2 folder has config.json, model.safetensors and tokenizer.json (or vocab.json and merges.txt)"),
    // bpe.rs: GPT-2's byte-level BPE tokenizer
    ("gpt.tokenizer.missing", "no tokenizer: give tokenizer.json, or vocab.json and merges.txt, with the model"),
    ("gpt.tokenizer.not_json", "{file} is not valid JSON: {detail}"),
    ("gpt.tokenizer.not_bpe", "tokenizer.json's model is {kind}, not byte-level BPE: only GPT-2's tokenizer is supported"),
    ("gpt.tokenizer.bad_vocab", "the tokenizer's vocab: {detail}"),
    ("gpt.tokenizer.bad_merge", "merge {line} is not two tokens separated by a space: {text}"),
    ("gpt.tokenizer.unknown_token", "merge {line} makes or uses a token not in the vocab: {token}"),
    ("gpt.tokenizer.vocab_size", "the tokenizer has {n} tokens but the model's vocab_size is {vocab_size}"),
    ("gpt.heads.probe", "a probe of {rows} sequences of {len} tokens, each written twice, needs rows ≥ 1, len ≥ 2 and 2 × len ≤ block_size ({block_size})"),
];

/// The gpt domain: its codes are those of `MESSAGES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpt;

impl Domain for Gpt {
    const TABLES: &'static [Messages] = &[MESSAGES];
}

/// A param's value: text, or the error a sentence wraps.
pub type Param = crate::error::Param<Gpt>;

/// Anything a learner's input can get wrong: a config, a checkpoint, a prompt.
/// `GptError::new(code, params)`, `e.code()`, `e.params()`.
pub type GptError = Coded<Gpt>;

/// The English text of `code`.
pub fn template(code: &str) -> Option<&'static str> {
    template_in::<Gpt>(code)
}

/// `GptError::new("gpt.some.code", params)` with params written `name = value` (or just
/// `name`, a variable of that name); a value is anything `Param: From` (text, numbers,
/// another GptError).
macro_rules! gpt_error {
    ($($arg:tt)*) => {
        $crate::error::coded!($crate::gpt::GptError, $($arg)*)
    };
}
pub(crate) use gpt_error;

// gpt code may build one param by hand, as `gpt_error!` does.
#[allow(unused_imports)]
pub(crate) use crate::error::param;

/// `return Err(gpt_error!(..))` in one line.
macro_rules! bail {
    ($($arg:tt)*) => { return Err($crate::gpt::error::gpt_error!($($arg)*)) };
}
pub(crate) use bail;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_fill_the_template_once() {
        let e = gpt_error!(
            "gpt.checkpoint.not_safetensors",
            detail = "must be `{`, {detail}"
        );
        assert_eq!(
            e.to_string(),
            "not a valid safetensors checkpoint (corrupt or truncated?): must be `{`, {detail}"
        );
        let inner = gpt_error!("gpt.state.truncated");
        let e = gpt_error!("gpt.checkpoint.bad_config", reason = inner);
        assert_eq!(
            e.to_string(),
            "checkpoint config: the saved training state is truncated"
        );
    }

    #[test]
    fn every_template_names_simple_params() {
        for (code, text) in MESSAGES {
            for part in text.split('{').skip(1) {
                let name = part.split('}').next().unwrap();
                assert!(
                    name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{code}: {{{name}}}"
                );
            }
        }
    }
}
