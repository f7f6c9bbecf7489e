//! Checkpoints as safetensors bytes: nanoGPT's tensor names and PyTorch layouts, f32,
//! without `lm_head.weight` (it is wte), and string metadata vocab (JSON array of
//! one-character strings in id order), vocab_size, block_size, n_layer, n_head, n_embd,
//! bias ("true"/"false"). Bytes in, bytes out: the browser has no filesystem.

use super::config::GptConfig;
use super::data::Vocab;
use super::model::Gpt;
use super::params::ParamIndex;
use super::{bail, gpt_error, GptError};
use safetensors::{Dtype, SafeTensors};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// The checkpoint of `model` with `vocab`. The same model always gives the same bytes:
/// the header is written here with a fixed key order (the crate's writer orders the
/// metadata by a randomly seeded HashMap), then read back with the `safetensors` crate.
pub fn to_bytes(model: &Gpt, vocab: &Vocab) -> Vec<u8> {
    let c = &model.config;
    let vocab_json: Vec<String> = vocab.chars.iter().map(|ch| ch.to_string()).collect();
    let mut meta = Map::new();
    for (k, v) in [
        (
            "vocab",
            serde_json::to_string(&vocab_json).expect("strings serialise"),
        ),
        ("vocab_size", c.vocab_size.to_string()),
        ("block_size", c.block_size.to_string()),
        ("n_layer", c.n_layer.to_string()),
        ("n_head", c.n_head.to_string()),
        ("n_embd", c.n_embd.to_string()),
        ("bias", c.bias.to_string()),
    ] {
        meta.insert(k.to_string(), Value::String(v));
    }
    let mut header = Map::new();
    header.insert("__metadata__".to_string(), Value::Object(meta));
    let mut offset = 0;
    for spec in &model.index.specs {
        let n = spec.range.len() * 4;
        header.insert(
            spec.name.clone(),
            json!({"dtype": "F32", "shape": spec.shape, "data_offsets": [offset, offset + n]}),
        );
        offset += n;
    }
    let mut header = serde_json::to_vec(&Value::Object(header)).expect("json serialises");
    header.resize(header.len().next_multiple_of(8), b' ');
    let mut out = Vec::with_capacity(8 + header.len() + offset);
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(&header);
    for spec in &model.index.specs {
        for x in &model.params[spec.range.clone()] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

fn meta_usize(meta: &HashMap<String, String>, key: &str) -> Result<usize, GptError> {
    let Some(s) = meta.get(key) else {
        bail!("gpt.checkpoint.meta_missing", key = format!("{key:?}"))
    };
    s.parse().map_err(|_| {
        gpt_error!(
            "gpt.checkpoint.meta_not_number",
            key = format!("{key:?}"),
            value = format!("{s:?}")
        )
    })
}

/// Config and vocab from a checkpoint's metadata, checked against each other.
fn read_meta(meta: &HashMap<String, String>) -> Result<(GptConfig, Vocab), GptError> {
    let bias = match meta.get("bias").map(String::as_str) {
        Some("true") => true,
        Some("false") => false,
        Some(s) => bail!("gpt.checkpoint.meta_bias", value = format!("{s:?}")),
        None => bail!("gpt.checkpoint.meta_missing", key = "\"bias\""),
    };
    let config = GptConfig {
        vocab_size: meta_usize(meta, "vocab_size")?,
        block_size: meta_usize(meta, "block_size")?,
        n_layer: meta_usize(meta, "n_layer")?,
        n_head: meta_usize(meta, "n_head")?,
        n_embd: meta_usize(meta, "n_embd")?,
        bias,
    };
    config
        .validate()
        .map_err(|e| gpt_error!("gpt.checkpoint.bad_config", reason = e))?;
    let Some(vocab_json) = meta.get("vocab") else {
        bail!("gpt.checkpoint.meta_missing", key = "\"vocab\"")
    };
    let entries: Vec<String> = serde_json::from_str(vocab_json)
        .map_err(|e| gpt_error!("gpt.checkpoint.vocab_not_json", detail = e.to_string()))?;
    let mut chars = Vec::with_capacity(entries.len());
    for e in &entries {
        let mut it = e.chars();
        match (it.next(), it.next()) {
            (Some(ch), None) => chars.push(ch),
            _ => bail!("gpt.checkpoint.vocab_entry", entry = format!("{e:?}")),
        }
    }
    if chars.len() != config.vocab_size {
        bail!(
            "gpt.checkpoint.vocab_size",
            n = chars.len(),
            vocab_size = config.vocab_size
        );
    }
    let mut sorted = chars.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != chars.len() {
        bail!("gpt.checkpoint.vocab_duplicate");
    }
    Ok((config, Vocab { chars }))
}

/// The model and vocab in checkpoint `bytes`; a clear Err for anything else (not
/// safetensors, truncated, bad metadata, a missing, extra, non-f32 or wrong-shape tensor).
pub fn from_bytes(bytes: &[u8]) -> Result<(Gpt, Vocab), GptError> {
    let (_, metadata) = SafeTensors::read_metadata(bytes)
        .map_err(|e| gpt_error!("gpt.checkpoint.not_safetensors", detail = e.to_string()))?;
    let Some(meta) = metadata.metadata() else {
        bail!("gpt.checkpoint.no_metadata");
    };
    let (config, vocab) = read_meta(meta)?;
    let tensors = SafeTensors::deserialize(bytes)
        .map_err(|e| gpt_error!("gpt.checkpoint.invalid", detail = e.to_string()))?;
    // names, dtypes and shapes first: a file that lies about its config is refused
    // before the weights are allocated
    let index = ParamIndex::new(&config);
    for name in tensors.names() {
        if index.spec(name).is_none() {
            bail!(
                "gpt.checkpoint.unexpected_tensor",
                name = format!("{name:?}")
            );
        }
    }
    for spec in &index.specs {
        let view = tensors.tensor(&spec.name).map_err(|_| {
            gpt_error!(
                "gpt.checkpoint.missing_tensor",
                name = format!("{:?}", spec.name)
            )
        })?;
        if view.dtype() != Dtype::F32 {
            bail!(
                "gpt.checkpoint.tensor_dtype",
                name = format!("{:?}", spec.name),
                dtype = format!("{:?}", view.dtype())
            );
        }
        if view.shape() != spec.shape.as_slice() {
            bail!(
                "gpt.checkpoint.tensor_shape",
                name = format!("{:?}", spec.name),
                shape = format!("{:?}", view.shape()),
                expected = format!("{:?}", spec.shape)
            );
        }
    }
    let mut model = Gpt::zeros(config)?;
    for spec in &index.specs {
        let view = tensors.tensor(&spec.name).expect("checked above");
        let data = view.data();
        if data.len() != spec.range.len() * 4 {
            bail!(
                "gpt.checkpoint.tensor_bytes",
                name = format!("{:?}", spec.name),
                n = data.len(),
                expected = spec.range.len() * 4
            );
        }
        let dst = &mut model.params[spec.range.clone()];
        for (d, chunk) in dst.iter_mut().zip(data.chunks_exact(4)) {
            *d = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
    }
    Ok((model, vocab))
}

/// Tensors by name: (shape, row-major data).
pub type NamedTensors = HashMap<String, (Vec<usize>, Vec<f32>)>;

/// Tensors of a plain safetensors file (e.g. the reference's grads.safetensors) by name,
/// f32 only: for tests and tools.
pub fn read_f32_tensors(bytes: &[u8]) -> Result<NamedTensors, GptError> {
    let tensors = SafeTensors::deserialize(bytes)
        .map_err(|e| gpt_error!("gpt.checkpoint.not_tensors", detail = e.to_string()))?;
    let mut out = HashMap::new();
    for (name, view) in tensors.tensors() {
        if view.dtype() != Dtype::F32 {
            bail!(
                "gpt.checkpoint.tensor_dtype",
                name = format!("{name:?}"),
                dtype = format!("{:?}", view.dtype())
            );
        }
        let data = view
            .data()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        out.insert(name, (view.shape().to_vec(), data));
    }
    Ok(out)
}
