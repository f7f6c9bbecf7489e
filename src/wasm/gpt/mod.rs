//! Bindings for “Train a GPT” (`crate::gpt`): one `GptLab` = one `Trainer`, driven by the
//! page's worker (www/js/gpt/worker.js) with coarse calls: n training steps, a loss
//! estimate, a generated text, every head's attention for a prompt, checkpoint bytes.
//!
//! T = time (prompt length ≤ block_size), NH = heads, L = layers, V = vocab.
//!
//! The config travels as JSON: `{ preset?: "tiny" | "small" | "cpu", n_layer?, n_head?,
//! n_embd?, block_size?, batch_size?, lr?, weight_decay?, bias?, causal? }`, the preset's
//! values (default tiny) overridden by any field given. Every export that takes the
//! learner's text, numbers or file returns `Result<_, JsValue>`: a JS Error with a
//! message to act on and the `GptError`'s `code` and `params` (see `lab::err`), which the
//! page says in the learner's language. `lab` is the lab; `config` holds what the page
//! sends and is told about the config, `inspect` the attention and its explanations,
//! `replica` the data-parallel workers' calls (the lab as coordinator, `GptReplica`),
//! `profile` one training step timed op by op: all of them with feature `gpt` only.
//! `files` says what a file the learner picked is (`checkpointInfo`); it is in the
//! lesson's build too, whose core the page asks before it loads the GPT's, as is `toy`,
//! the repeated-strings task's text. `heads` measures what each head has learned.
//! `gpt2` opens a Hugging Face GPT-2 (`Gpt2Loader`, `Gpt2Lab`) with the inspector's calls.

pub mod files;
pub mod toy;

#[cfg(feature = "gpt")]
mod config;
#[cfg(feature = "gpt")]
mod gpt2;
#[cfg(feature = "gpt")]
mod heads;
#[cfg(feature = "gpt")]
mod inspect;
#[cfg(feature = "gpt")]
mod lab;
#[cfg(feature = "gpt")]
pub mod profile;
#[cfg(feature = "gpt")]
mod replica;

#[cfg(feature = "gpt")]
pub use gpt2::{gpt2_plan, Gpt2Lab, Gpt2Loader};
#[cfg(feature = "gpt")]
pub use lab::{gpt_presets, GptLab};
#[cfg(feature = "gpt")]
pub use replica::{gpt_split_rows, GptReplica};
