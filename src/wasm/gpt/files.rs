//! What the page needs to know of a file the learner picked for "Train a GPT" before it
//! hands the bytes to the worker: asked of the core, so that no JavaScript reads a format
//! Rust owns (www/js/widgets/gpt/gpt-files.js calls it).
//!
//!   checkpointInfo(bytes: Uint8Array) → { bytes, safetensors, state }
//!
//! The step of a saved training state needs no export: the worker reads it from its
//! `GptLab` (`steps()`) at the moment it takes the state's bytes.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A safetensors file begins with its header's length (u64, little-endian) and then the
/// JSON header itself, an object.
const HEADER_LEN_BYTES: u32 = 8;

#[derive(Serialize)]
struct CheckpointInfo {
    /// The file's length in bytes.
    bytes: u32,
    /// Whether the file begins as a safetensors file does (an 8-byte length, then `{`).
    /// False for an image, a text, an empty file: the page names such a file as not a
    /// checkpoint at all. True does not mean valid: the worker's `GptLab.fromBytes` reads
    /// the whole file and says what is damaged (truncated, corrupt header, wrong shapes)
    /// with the codes of `gpt.checkpoint.*`.
    safetensors: bool,
    /// Whether the file begins as a training state does (`gpt::state::MAGIC`): the
    /// trainer's "Download training state", which the page loads back to train on from
    /// its step. As for `safetensors`, the worker's `GptLab.fromState` reads the rest.
    state: bool,
}

/// `{ bytes, safetensors }` of checkpoint `bytes` (see `CheckpointInfo`). Reads only the
/// first bytes it needs (a checkpoint of 100 MB is not copied into wasm memory). Never
/// fails: every byte string gets an answer.
#[wasm_bindgen(js_name = checkpointInfo)]
pub fn checkpoint_info(bytes: &js_sys::Uint8Array) -> Result<JsValue, JsValue> {
    let n = bytes.length();
    let safetensors = n > HEADER_LEN_BYTES && bytes.get_index(HEADER_LEN_BYTES) == b'{';
    let magic = crate::gpt::state::MAGIC;
    let state = n as usize >= magic.len()
        && (0..magic.len()).all(|i| bytes.get_index(i as u32) == magic[i]);
    let info = CheckpointInfo {
        bytes: n,
        safetensors,
        state,
    };
    Ok(crate::wasm::to_js(&info)?)
}
