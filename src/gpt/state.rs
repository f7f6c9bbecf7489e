//! Training state: everything a run needs to continue exactly where it stopped, for the
//! page's "Resume training from step N" (saved to IndexedDB) and the CLI.
//!
//! Container (little-endian):
//!   b"APGPTST1" · u32 header length · header JSON · checkpoint (safetensors) · m · v
//! header = { step, seed, sampler, adam_t, batch_size, lr, weight_decay, causal,
//!            n_params, checkpoint_len }; m and v are n_params f32 each (AdamW's moments,
//!            the layout of `Gpt::params`). `sampler` is the batch RNG's state, so the
//! batches after a restore are the ones an uninterrupted run would have drawn.

use serde::{Deserialize, Serialize};

use super::checkpoint;
use super::config::Hyperparams;
use super::data::Dataset;
use super::trainer::Trainer;
use super::{bail, gpt_error, GptError};

/// The first bytes of every training state (the page asks `checkpointInfo` for them).
pub const MAGIC: &[u8; 8] = b"APGPTST1";
/// A header is a few hundred bytes; anything longer is not ours.
const MAX_HEADER: usize = 64 * 1024;

#[derive(Serialize, Deserialize)]
struct Header {
    step: u64,
    seed: u64,
    sampler: u64,
    adam_t: u64,
    batch_size: usize,
    lr: f64,
    weight_decay: f64,
    causal: bool,
    n_params: usize,
    checkpoint_len: usize,
}

/// The trainer's full state (weights, AdamW m, v, t, step, seed, sampler position).
pub fn to_bytes(tr: &Trainer) -> Vec<u8> {
    let ckpt = tr.to_bytes();
    let n = tr.opt.m.len();
    let header = Header {
        step: tr.steps,
        seed: tr.seed,
        sampler: tr.sampler_state(),
        adam_t: tr.opt.t,
        batch_size: tr.hp.batch_size,
        lr: tr.hp.lr,
        weight_decay: tr.hp.weight_decay,
        causal: tr.model.causal,
        n_params: n,
        checkpoint_len: ckpt.len(),
    };
    let json = serde_json::to_vec(&header).expect("a header of numbers serialises");
    let mut out = Vec::with_capacity(12 + json.len() + ckpt.len() + 8 * n);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&ckpt);
    for x in tr.opt.m.iter().chain(&tr.opt.v) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A trainer from `to_bytes` output, training on `text` (which must be written in the
/// saved vocab: the same text as before gives the same batches).
pub fn from_bytes(bytes: &[u8], text: &str) -> Result<Trainer, GptError> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        bail!("gpt.state.not_state");
    }
    let hlen = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    if hlen > MAX_HEADER || bytes.len() < 12 + hlen {
        bail!("gpt.state.truncated");
    }
    let h: Header = serde_json::from_slice(&bytes[12..12 + hlen])
        .map_err(|e| gpt_error!("gpt.state.damaged", detail = e.to_string()))?;
    let rest = &bytes[12 + hlen..];
    let moments = h.n_params.checked_mul(8);
    let total = moments.and_then(|m| m.checked_add(h.checkpoint_len));
    match total {
        Some(t) if t == rest.len() => {}
        Some(t) => bail!("gpt.state.wrong_length", n = rest.len(), expected = t),
        None => bail!("gpt.state.wrong_length_more", n = rest.len()),
    }
    let (ckpt, moments) = rest.split_at(h.checkpoint_len);
    let (model, vocab) = checkpoint::from_bytes(ckpt)?;
    if model.params.len() != h.n_params {
        bail!(
            "gpt.state.moments",
            n = h.n_params,
            params = model.params.len()
        );
    }
    let data = Dataset::with_vocab(text, vocab)?;
    let c = &model.config;
    // The shape fields of the preset are replaced by the model's in on_model.
    let settings = Hyperparams {
        batch_size: h.batch_size,
        lr: h.lr,
        weight_decay: h.weight_decay,
        causal: h.causal,
        ..Hyperparams::preset("tiny")?
    };
    let hp = settings.on_model(c);
    hp.validate(c.vocab_size)?;
    let mut tr = Trainer::from_parts(model, data, hp, h.seed)?;
    let (m, v) = moments.split_at(4 * h.n_params);
    tr.opt.m = f32s(m);
    tr.opt.v = f32s(v);
    tr.opt.t = h.adam_t;
    tr.steps = h.step;
    tr.set_sampler_state(h.sampler);
    Ok(tr)
}
