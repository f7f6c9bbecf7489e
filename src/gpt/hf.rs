//! Hugging Face GPT-2 folders: `config.json` and `model.safetensors` (gpt2, distilgpt2,
//! gpt2-medium, or a `GPT2LMHeadModel.save_pretrained`), read into our `Gpt`.
//!
//! What differs from a nanoGPT checkpoint (`checkpoint`):
//! - names: the hub's files say `h.0.attn.c_attn.weight`, `save_pretrained` says
//!   `transformer.h.0.…`; both map to ours;
//! - layout: GPT-2's `Conv1D` stores a weight (in, out) and computes x @ W + b, our Linear
//!   stores (out, in) and computes x @ Wᵀ + b, so c_attn, attn.c_proj, c_fc and mlp.c_proj
//!   are transposed on the way in (once; the inference pass then reads them as stored);
//! - `lm_head` is `wte` (tied): a stored `lm_head.weight` is skipped, an untied config
//!   refused; the causal-mask buffers (`attn.bias`, `attn.masked_bias`) of older files are
//!   skipped;
//! - the GELU is the tanh approximation (`gelu_new`), not the erf one (`config::Gelu`);
//! - F16 and BF16 files are widened to f32.
//!
//! The file is streamed: `HfLoader` takes it in chunks of any size, in order, and writes
//! each value straight into the model's weights, so a 500 MB file never has a second whole
//! copy in memory (the browser reads it from a `File` or a download, chunk by chunk).

use super::acts::Activations;
use super::bpe::Bpe;
use super::config::{Gelu, GptConfig};
use super::model::Gpt;
use super::params::ParamIndex;
use super::{bail, gpt_error, GptError};
use serde_json::{Map, Value};
use std::ops::Range;

/// Longest safetensors header read (gpt2's is 15 KB; a header of 100 MB is damage).
const MAX_HEADER: u64 = 100 << 20;

/// Most tokens a prompt is shown with (`Activations::for_inference`).
pub const MAX_PROMPT_TOKENS: usize = 256;

/// What `config.json` says, checked: our config (with `bias` on, as GPT-2's) and the GELU.
#[derive(Clone, Debug, PartialEq)]
pub struct HfConfig {
    pub config: GptConfig,
    pub gelu: Gelu,
}

impl HfConfig {
    /// Reads a GPT-2 `config.json`; a clear Err for another architecture (`model_type`
    /// llama, bert…), a field the core cannot honour, or a model over `MAX_INFER_PARAMS`.
    pub fn parse(json: &str) -> Result<HfConfig, GptError> {
        let v: Value = serde_json::from_str(json)
            .map_err(|e| gpt_error!("gpt.hf.config_not_json", detail = e.to_string()))?;
        let Some(obj) = v.as_object() else {
            bail!("gpt.hf.config_not_json", detail = "not a JSON object");
        };
        let model_type = obj.get("model_type").and_then(Value::as_str).unwrap_or("");
        if model_type != "gpt2" {
            let model_type = if model_type.is_empty() {
                "unknown".to_string()
            } else {
                format!("{model_type:?}")
            };
            bail!("gpt.hf.not_gpt2", model_type);
        }
        let size = |keys: &[&str]| -> Result<usize, GptError> {
            let found = keys.iter().find_map(|k| obj.get(*k).map(|v| (*k, v)));
            let Some((key, value)) = found else {
                bail!(
                    "gpt.hf.config_field",
                    field = keys[0],
                    value = "missing",
                    need = "a whole number is needed"
                );
            };
            match value.as_u64() {
                Some(n) if n > 0 => Ok(n as usize),
                _ => bail!(
                    "gpt.hf.config_field",
                    field = key,
                    value = value.to_string(),
                    need = "a whole number is needed"
                ),
            }
        };
        let config = GptConfig {
            vocab_size: size(&["vocab_size"])?,
            block_size: size(&["n_positions", "n_ctx"])?,
            n_layer: size(&["n_layer"])?,
            n_head: size(&["n_head"])?,
            n_embd: size(&["n_embd"])?,
            bias: true,
        };
        let gelu = match obj.get("activation_function").and_then(Value::as_str) {
            None | Some("gelu_new" | "gelu_pytorch_tanh" | "gelu_fast") => Gelu::Tanh,
            Some("gelu") => Gelu::Erf,
            Some(other) => bail!("gpt.hf.activation", value = format!("{other:?}")),
        };
        // what else would change the numbers: each must be GPT-2's
        let flag =
            |key: &str, default: bool| obj.get(key).and_then(Value::as_bool).unwrap_or(default);
        let want = |field: &str, ok: bool, value: String, need: &str| {
            if ok {
                Ok(())
            } else {
                Err(gpt_error!("gpt.hf.config_field", field, value, need))
            }
        };
        let inner = obj.get("n_inner").unwrap_or(&Value::Null);
        want(
            "n_inner",
            inner.is_null() || inner.as_u64() == Some(4 * config.n_embd as u64),
            inner.to_string(),
            "the core runs an MLP of 4 × n_embd",
        )?;
        let eps = obj
            .get("layer_norm_epsilon")
            .and_then(Value::as_f64)
            .unwrap_or(1e-5);
        want(
            "layer_norm_epsilon",
            eps == 1e-5,
            eps.to_string(),
            "the core's LayerNorm uses 1e-5, as GPT-2",
        )?;
        want(
            "scale_attn_weights",
            flag("scale_attn_weights", true),
            "false".into(),
            "the core scales scores by 1/√head_size, as GPT-2",
        )?;
        want(
            "scale_attn_by_inverse_layer_idx",
            !flag("scale_attn_by_inverse_layer_idx", false),
            "true".into(),
            "the core does not scale scores by layer",
        )?;
        want(
            "add_cross_attention",
            !flag("add_cross_attention", false),
            "true".into(),
            "the core runs GPT-2 without cross-attention",
        )?;
        if !flag("tie_word_embeddings", true) {
            bail!("gpt.hf.untied");
        }
        config.validate_inference()?;
        Ok(HfConfig { config, gelu })
    }

    /// Bytes the model takes in memory to show prompts of up to `t_max` tokens: its f32
    /// weights and `Activations::for_inference`.
    pub fn memory_bytes(&self, t_max: usize) -> u128 {
        let weights = ParamIndex::new(&self.config).len as u128;
        (weights + Activations::inference_floats(&self.config, t_max)) * 4
    }
}

/// A stored element type the loader widens to f32.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Dtype {
    F32,
    F16,
    Bf16,
}

impl Dtype {
    fn size(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F16 | Dtype::Bf16 => 2,
        }
    }

    fn to_f32(self, b: &[u8]) -> f32 {
        match self {
            Dtype::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            Dtype::F16 => f16_to_f32(u16::from_le_bytes([b[0], b[1]])),
            Dtype::Bf16 => f32::from_bits((u16::from_le_bytes([b[0], b[1]]) as u32) << 16),
        }
    }
}

/// IEEE 754 half → single, exactly (every f16 is an f32): normals rebias the exponent,
/// subnormals are m·2⁻²⁴, infinities and NaNs keep their payload.
fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = (h & 0x3ff) as u32;
    let magnitude = match exp {
        0 => {
            let v = man as f32 * 2f32.powi(-24);
            return if sign != 0 { -v } else { v };
        }
        0x1f => 0x7f80_0000 | (man << 13),
        _ => ((exp as u32 + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(sign | magnitude)
}

/// Where one stored tensor's values go.
#[derive(Clone, Debug)]
enum Dest {
    /// A causal-mask buffer or the tied lm_head: read past.
    Skip,
    /// Into `range` of the weights in stored order.
    Copy(Range<usize>),
    /// A Conv1D weight stored (rows = in, cols = out), into `range` as (out, in).
    Transpose {
        range: Range<usize>,
        rows: usize,
        cols: usize,
    },
}

/// One tensor's bytes in the data section, and where its values go.
#[derive(Clone, Debug)]
struct Slot {
    start: u64,
    end: u64,
    dtype: Dtype,
    dest: Dest,
}

/// The four Conv1D weights of a block, stored (in, out).
const CONV1D: [&str; 4] = [
    "attn.c_attn.weight",
    "attn.c_proj.weight",
    "mlp.c_fc.weight",
    "mlp.c_proj.weight",
];

/// Reads `model.safetensors` chunk by chunk into a model of an `HfConfig`:
/// `new` (reserves the weights), `push` each chunk in order, `finish`.
pub struct HfLoader {
    model: Gpt,
    /// Bytes taken so far.
    pos: u64,
    /// The header's length (from the first 8 bytes) and, until complete, its bytes.
    header_len: Option<u64>,
    head: Vec<u8>,
    /// Tensors in file order, and the one being filled.
    slots: Vec<Slot>,
    slot: usize,
    /// Bytes of one element split across two chunks.
    carry: Vec<u8>,
    /// Where the data section ends (8 + header_len + its largest end offset).
    end: u64,
}

impl HfLoader {
    /// A loader for `cfg`'s model; Err `gpt.hf.out_of_memory` if the weights, or the
    /// activations of a prompt after them, cannot be had.
    pub fn new(cfg: &HfConfig) -> Result<HfLoader, GptError> {
        let model = Gpt::for_inference(cfg.config.clone(), cfg.gelu)?;
        // ask for the activations' memory too, and give it back: the allocator keeps it, so
        // `Activations::for_inference` later finds it instead of aborting the tab's wasm
        let t = cfg.config.block_size.min(MAX_PROMPT_TOKENS);
        let floats = Activations::inference_floats(&cfg.config, t);
        let mut probe: Vec<f32> = Vec::new();
        if usize::try_from(floats).map_or(true, |n| probe.try_reserve_exact(n).is_err()) {
            bail!("gpt.hf.out_of_memory", mb = cfg.memory_bytes(t) >> 20);
        }
        drop(probe);
        Ok(HfLoader {
            model,
            pos: 0,
            header_len: None,
            head: Vec::new(),
            slots: Vec::new(),
            slot: 0,
            carry: Vec::new(),
            end: 0,
        })
    }

    /// Bytes taken so far.
    pub fn bytes_read(&self) -> u64 {
        self.pos
    }

    /// The file's length once its header is read (0 before).
    pub fn bytes_total(&self) -> u64 {
        self.end
    }

    /// Takes the next `chunk` of the file.
    pub fn push(&mut self, mut chunk: &[u8]) -> Result<(), GptError> {
        while !chunk.is_empty() {
            if self.slots.is_empty() {
                // the header: 8 bytes of length, then that much JSON
                let want = match self.header_len {
                    None => 8,
                    Some(n) => 8 + n,
                };
                let take = ((want - self.pos) as usize).min(chunk.len());
                self.head.extend_from_slice(&chunk[..take]);
                (self.pos, chunk) = (self.pos + take as u64, &chunk[take..]);
                if self.pos < want {
                    continue;
                }
                match self.header_len {
                    None => {
                        let n = u64::from_le_bytes(self.head[..8].try_into().expect("8 bytes"));
                        if n == 0 || n > MAX_HEADER {
                            bail!(
                                "gpt.hf.header",
                                detail = format!("claims {n} bytes (not a safetensors file?)")
                            );
                        }
                        self.header_len = Some(n);
                    }
                    Some(_) => {
                        self.plan()?;
                        self.head = Vec::new();
                        if self.slots.is_empty() {
                            bail!("gpt.hf.header", detail = "lists no tensors");
                        }
                    }
                }
                continue;
            }
            if self.pos >= self.end {
                bail!(
                    "gpt.hf.too_long",
                    got = self.pos + chunk.len() as u64,
                    expected = self.end
                );
            }
            let taken = self.fill(chunk);
            chunk = &chunk[taken..];
        }
        Ok(())
    }

    /// The model, once every byte has come; Err if the file ended early.
    pub fn finish(self) -> Result<Gpt, GptError> {
        if self.slots.is_empty() || self.pos < self.end {
            bail!(
                "gpt.hf.truncated",
                got = self.pos,
                expected = self.end.max(8)
            );
        }
        Ok(self.model)
    }

    /// Parses the header: every tensor named, typed and shaped as the config says, each
    /// one our model needs present; the slots in file order.
    fn plan(&mut self) -> Result<(), GptError> {
        let header: Map<String, Value> = serde_json::from_slice(&self.head[8..])
            .map_err(|e| gpt_error!("gpt.hf.header", detail = format!("is not JSON: {e}")))?;
        let index = &self.model.index;
        let cfg = &self.model.config;
        let data_start = self.pos;
        let mut seen = vec![false; index.specs.len()];
        let mut slots = Vec::new();
        for (name, info) in &header {
            if name == "__metadata__" {
                continue;
            }
            let bad =
                |what: &str| gpt_error!("gpt.hf.header", detail = format!("entry {name:?} {what}"));
            let dtype = match info.get("dtype").and_then(Value::as_str) {
                Some("F32") => Dtype::F32,
                Some("F16") => Dtype::F16,
                Some("BF16") => Dtype::Bf16,
                Some(other) => bail!(
                    "gpt.hf.tensor_dtype",
                    name = format!("{name:?}"),
                    dtype = other
                ),
                None => return Err(bad("has no dtype")),
            };
            let shape: Vec<usize> = info
                .get("shape")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
                .ok_or_else(|| bad("has no shape"))?;
            let offsets: Vec<u64> = info
                .get("data_offsets")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(Value::as_u64).collect())
                .ok_or_else(|| bad("has no data_offsets"))?;
            let [start, end] = offsets[..] else {
                return Err(bad("has data_offsets that are not [start, end]"));
            };
            let numel = shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d as u64));
            if end < start
                || numel.and_then(|n| n.checked_mul(dtype.size() as u64)) != Some(end - start)
            {
                return Err(bad(
                    "has data_offsets that do not match its shape and dtype",
                ));
            }
            let ours = format!(
                "transformer.{}",
                name.strip_prefix("transformer.").unwrap_or(name)
            );
            let expect = |expected: Vec<usize>| -> Result<(), GptError> {
                if shape != expected {
                    bail!(
                        "gpt.hf.tensor_shape",
                        name = format!("{name:?}"),
                        shape = format!("{shape:?}"),
                        expected = format!("{expected:?}")
                    );
                }
                Ok(())
            };
            let dest = if let Some(i) = index.specs.iter().position(|s| s.name == ours) {
                let spec = &index.specs[i];
                seen[i] = true;
                if CONV1D.iter().any(|w| ours.ends_with(w)) {
                    // ours (out, in), stored (in, out)
                    let (out, inp) = (spec.shape[0], spec.shape[1]);
                    expect(vec![inp, out])?;
                    Dest::Transpose {
                        range: spec.range.clone(),
                        rows: inp,
                        cols: out,
                    }
                } else {
                    expect(spec.shape.clone())?;
                    Dest::Copy(spec.range.clone())
                }
            } else if name == "lm_head.weight" {
                expect(vec![cfg.vocab_size, cfg.n_embd])?;
                Dest::Skip
            } else if ours.ends_with(".attn.bias") || ours.ends_with(".attn.masked_bias") {
                Dest::Skip
            } else {
                bail!("gpt.hf.unexpected_tensor", name = format!("{name:?}"));
            };
            slots.push(Slot {
                start: data_start + start,
                end: data_start + end,
                dtype,
                dest,
            });
        }
        if let Some(i) = seen.iter().position(|&s| !s) {
            let name = index.specs[i]
                .name
                .strip_prefix("transformer.")
                .unwrap_or(&index.specs[i].name);
            bail!("gpt.hf.missing_tensor", name = format!("{name:?}"));
        }
        slots.sort_by_key(|s| s.start);
        for pair in slots.windows(2) {
            if pair[1].start < pair[0].end {
                bail!(
                    "gpt.hf.header",
                    detail = "lists tensors whose bytes overlap"
                );
            }
        }
        self.end = slots.last().map_or(data_start, |s| s.end);
        self.slots = slots;
        Ok(())
    }

    /// Writes what it can of `chunk` (which starts at `pos`, in the data section) into
    /// the weights; returns how many bytes it took.
    fn fill(&mut self, chunk: &[u8]) -> usize {
        let mut taken = 0;
        while taken < chunk.len() && self.slot < self.slots.len() {
            let slot = &self.slots[self.slot];
            if self.pos < slot.start {
                // a gap between tensors (allowed by the format): skip it
                let n = ((slot.start - self.pos) as usize).min(chunk.len() - taken);
                (self.pos, taken) = (self.pos + n as u64, taken + n);
                continue;
            }
            let n = ((slot.end - self.pos) as usize).min(chunk.len() - taken);
            let bytes = &chunk[taken..taken + n];
            let (size, dtype) = (slot.dtype.size(), slot.dtype);
            let first = ((self.pos - slot.start) as usize) / size; // element of `carry`, or of bytes[0]
            let params = &mut self.model.params;
            let mut put = |k: usize, x: f32| match &slot.dest {
                Dest::Skip => {}
                Dest::Copy(r) => params[r.start + k] = x,
                Dest::Transpose { range, rows, cols } => {
                    let (i, o) = (k / cols, k % cols);
                    params[range.start + o * rows + i] = x;
                }
            };
            let mut rest = bytes;
            let mut k = first;
            if !self.carry.is_empty() {
                let need = (size - self.carry.len()).min(rest.len());
                self.carry.extend_from_slice(&rest[..need]);
                rest = &rest[need..];
                if self.carry.len() == size {
                    put(k, dtype.to_f32(&self.carry));
                    self.carry.clear();
                    k += 1;
                }
            }
            let whole = rest.len() / size * size;
            for e in rest[..whole].chunks_exact(size) {
                put(k, dtype.to_f32(e));
                k += 1;
            }
            self.carry.extend_from_slice(&rest[whole..]);
            (self.pos, taken) = (self.pos + n as u64, taken + n);
            if self.pos == slot.end {
                self.slot += 1;
            }
        }
        taken
    }
}

/// A GPT-2 folder's model read in one go (the command line and tests; the page streams).
pub fn load_model(config_json: &str, safetensors: &[u8]) -> Result<Gpt, GptError> {
    let cfg = HfConfig::parse(config_json)?;
    let mut loader = HfLoader::new(&cfg)?;
    for chunk in safetensors.chunks(1 << 20) {
        loader.push(chunk)?;
    }
    loader.finish()
}

/// The tokenizer of a GPT-2 folder: `tokenizer.json` if given, else `vocab.json` and
/// `merges.txt`; Err if neither is, or if it has more tokens than the model's vocab_size
/// (fewer is fine: a vocab padded for speed has ids no text makes).
pub fn tokenizer(
    tokenizer_json: Option<&str>,
    vocab_json: Option<&str>,
    merges_txt: Option<&str>,
    vocab_size: usize,
) -> Result<Bpe, GptError> {
    let bpe = match (tokenizer_json, vocab_json, merges_txt) {
        (Some(json), _, _) => Bpe::from_tokenizer_json(json)?,
        (None, Some(vocab), Some(merges)) => Bpe::from_vocab_merges(vocab, merges)?,
        _ => bail!("gpt.tokenizer.missing"),
    };
    if bpe.len() > vocab_size {
        bail!("gpt.tokenizer.vocab_size", n = bpe.len(), vocab_size);
    }
    Ok(bpe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_widens_exactly() {
        // 1, −2, 65504 (the largest), 2⁻¹⁴ (smallest normal), 2⁻²⁴ (smallest subnormal)
        for (h, f) in [
            (0x3c00u16, 1.0f32),
            (0xc000, -2.0),
            (0x7bff, 65504.0),
            (0x0400, 2f32.powi(-14)),
            (0x0001, 2f32.powi(-24)),
            (0x8001, -(2f32.powi(-24))),
            (0x3555, 0.333_251_95),
            (0x0000, 0.0),
        ] {
            assert_eq!(f16_to_f32(h), f, "{h:#06x}");
        }
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    fn gpt2_config(extra: &str) -> String {
        format!(
            r#"{{"model_type": "gpt2", "vocab_size": 10, "n_positions": 8, "n_layer": 1,
               "n_head": 2, "n_embd": 4, "activation_function": "gelu_new"{extra}}}"#
        )
    }

    #[test]
    fn config_says_what_it_cannot_run() {
        let ok = HfConfig::parse(&gpt2_config("")).unwrap();
        assert_eq!(ok.gelu, Gelu::Tanh);
        assert_eq!(
            (ok.config.n_layer, ok.config.block_size, ok.config.bias),
            (1, 8, true)
        );
        let code = |json: &str| HfConfig::parse(json).unwrap_err().code().to_string();
        assert_eq!(code(r#"{"model_type": "llama"}"#), "gpt.hf.not_gpt2");
        assert_eq!(code("{"), "gpt.hf.config_not_json");
        assert_eq!(
            code(&gpt2_config(r#", "activation_function": "relu""#)),
            "gpt.hf.activation"
        );
        assert_eq!(
            code(&gpt2_config(r#", "n_inner": 7"#)),
            "gpt.hf.config_field"
        );
        assert_eq!(
            code(&gpt2_config(r#", "tie_word_embeddings": false"#)),
            "gpt.hf.untied"
        );
        assert_eq!(
            code(&gpt2_config(r#", "n_head": 3"#)),
            "gpt.config.heads_divide"
        );
        let big = r#"{"model_type": "gpt2", "vocab_size": 50257, "n_positions": 1024,
            "n_layer": 36, "n_head": 20, "n_embd": 1280}"#; // gpt2-large, 774 M
        assert_eq!(code(big), "gpt.hf.too_big");
        let e = HfConfig::parse(r#"{"model_type": "bert"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"bert\" model, not GPT-2"), "{e}");
    }

    /// A safetensors file of `tensors` (name, shape, f32 values) in that order.
    fn safetensors(tensors: &[(String, Vec<usize>, Vec<f32>)]) -> Vec<u8> {
        let (mut header, mut data) = (serde_json::Map::new(), Vec::new());
        for (name, shape, values) in tensors {
            let start = data.len();
            values
                .iter()
                .for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
            let entry = serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]});
            header.insert(name.clone(), entry);
        }
        let header = serde_json::to_vec(&header).unwrap();
        let mut out = (header.len() as u64).to_le_bytes().to_vec();
        out.extend(header);
        out.extend(data);
        out
    }

    /// GPT-2's tensors for `gpt2_config("")`, each value its own (tensor, index) number;
    /// `prefix` before each name; Conv1D weights (in, out) as GPT-2 stores them.
    fn gpt2_tensors(prefix: &str) -> Vec<(String, Vec<usize>, Vec<f32>)> {
        let (v, t, c) = (10, 8, 4);
        let mut shapes = vec![
            ("wte.weight".to_string(), vec![v, c]),
            ("wpe.weight".into(), vec![t, c]),
        ];
        for (n, shape) in [
            ("ln_1.weight", vec![c]),
            ("ln_1.bias", vec![c]),
            ("attn.c_attn.weight", vec![c, 3 * c]),
            ("attn.c_attn.bias", vec![3 * c]),
            ("attn.c_proj.weight", vec![c, c]),
            ("attn.c_proj.bias", vec![c]),
            ("ln_2.weight", vec![c]),
            ("ln_2.bias", vec![c]),
            ("mlp.c_fc.weight", vec![c, 4 * c]),
            ("mlp.c_fc.bias", vec![4 * c]),
            ("mlp.c_proj.weight", vec![4 * c, c]),
            ("mlp.c_proj.bias", vec![c]),
        ] {
            shapes.push((format!("h.0.{n}"), shape));
        }
        shapes.push(("ln_f.weight".into(), vec![c]));
        shapes.push(("ln_f.bias".into(), vec![c]));
        (shapes.into_iter().enumerate())
            .map(|(k, (name, shape))| {
                let n: usize = shape.iter().product();
                let values = (0..n).map(|i| k as f32 + i as f32 / 1000.0).collect();
                (format!("{prefix}{name}"), shape, values)
            })
            .collect()
    }

    /// The hub's own layout (no `transformer.`, the causal-mask buffers, a stored tied
    /// lm_head) reads as save_pretrained's does, in chunks of any size (an f32 split
    /// across two chunks included); Conv1D weights land transposed.
    #[test]
    fn the_hubs_layout_and_any_chunking_read_the_same() {
        let ours = safetensors(&gpt2_tensors("transformer."));
        let mut hub = gpt2_tensors("");
        hub.push(("h.0.attn.bias".into(), vec![1, 1, 8, 8], vec![1.0; 64]));
        hub.push(("h.0.attn.masked_bias".into(), vec![], vec![-1e4]));
        let wte = hub[0].2.clone();
        hub.push(("lm_head.weight".into(), vec![10, 4], wte));
        hub.reverse(); // another order in the file
        let hub = safetensors(&hub);
        let config = gpt2_config("");
        let want = load_model(&config, &ours).unwrap();
        for (bytes, chunk) in [(&hub, 1 << 20), (&hub, 1), (&hub, 3), (&ours, 7)] {
            let mut loader = HfLoader::new(&HfConfig::parse(&config).unwrap()).unwrap();
            bytes
                .chunks(chunk)
                .for_each(|piece| loader.push(piece).unwrap());
            let got = loader.finish().unwrap();
            assert_eq!(got.params, want.params, "chunks of {chunk}");
        }
        // c_attn stored (4, 12) = (in, out); ours (12, 4): ours[o][i] = stored[i][o]
        let c_attn = want.param("transformer.h.0.attn.c_attn.weight").unwrap();
        let stored = &gpt2_tensors("")[4].2;
        assert_eq!((c_attn[4], stored[1]), (stored[1], 4.001)); // ours[1][0] = stored[0][1]
        assert_eq!(c_attn[1], stored[12]); // ours[0][1] = stored[1][0]
                                           // a file cut short, or with bytes past its last tensor, says so
        let err = |bytes: &[u8]| load_model(&config, bytes).unwrap_err().code().to_string();
        assert_eq!(err(&ours[..ours.len() - 1]), "gpt.hf.truncated");
        assert_eq!(err(&[&ours[..], &[0u8; 4][..]].concat()), "gpt.hf.too_long");
        assert_eq!(err(&ours[..20]), "gpt.hf.truncated");
    }

    /// The memory the page announces is what `Activations::for_inference` allocates.
    #[test]
    fn the_memory_said_is_the_memory_taken() {
        let cfg = HfConfig::parse(&gpt2_config("")).unwrap().config;
        let acts = Activations::for_inference(&cfg, 6);
        let blocks: usize = (acts.blocks.iter())
            .map(|b| {
                [
                    &b.ln_1,
                    &b.ln_1_mean,
                    &b.ln_1_rstd,
                    &b.qkv,
                    &b.preatt,
                    &b.att,
                    &b.atty,
                    &b.attproj,
                    &b.residual2,
                    &b.ln_2,
                    &b.ln_2_mean,
                    &b.ln_2_rstd,
                    &b.fch,
                    &b.fch_gelu,
                    &b.fcproj,
                    &b.residual3,
                ]
                .iter()
                .map(|v| v.len())
                .sum::<usize>()
            })
            .sum();
        let top = [
            &acts.encoded,
            &acts.ln_f,
            &acts.ln_f_mean,
            &acts.ln_f_rstd,
            &acts.logits,
        ]
        .iter()
        .chain(
            [
                &acts.probs,
                &acts.losses,
                &acts.scratch.weight_t,
                &acts.scratch.attn,
            ]
            .iter(),
        )
        .map(|v| v.len())
        .sum::<usize>();
        assert_eq!(
            Activations::inference_floats(&cfg, 6),
            (blocks + top) as u128
        );
    }
}
