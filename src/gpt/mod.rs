//! A small character-level GPT with nanoGPT's architecture, forward and backward by hand.
//!
//! B = batch, T = time (sequence length), C = channels (n_embd), NH = heads,
//! HS = head size (C / NH), V = vocab size, L = layers, BT = B·T.
//!
//! llm.c style: every differentiable op is a `*_forward` / `*_backward` pair in `ops`;
//! parameters live in one flat buffer with named views (`params`); the forward pass keeps
//! everything backward needs (and the page draws) in `Activations` (`model`).
//! Pure Rust, no clock: it compiles to wasm32-unknown-unknown as is. Data parallelism
//! (`parallel`) uses std threads natively and web workers in the page.

mod acts;
pub mod adamw;
mod block;
pub mod bpe;
pub mod checkpoint;
pub mod config;
pub mod data;
pub mod error;
pub mod heads;
pub mod hf;
pub mod kernels;
pub mod model;
pub mod naive;
pub mod ops;
pub mod parallel;
pub mod params;
pub mod profile;
pub mod sample;
pub mod seeded_draws;
pub mod state;
pub mod toy;
pub mod trainer;

pub use adamw::AdamW;
pub use checkpoint::{from_bytes, to_bytes};
pub use config::{Gelu, GptConfig, Hyperparams};
pub use data::{Dataset, Vocab};
pub use model::{ActGrads, Activations, BlockActs, Gpt};
pub use parallel::{split_rows, Parallel, ReplicaConfig, Worker};
pub use sample::SampleOptions;
pub use seeded_draws::Rng;
pub use trainer::Trainer;

pub(crate) use error::{bail, gpt_error};
pub use error::{GptError, Param};
