//! Attention Playground: the Rust core behind the page.
//!
//! Pure Rust modules (tested natively) compute every number the page shows;
//! `wasm` is the only module that knows about JavaScript.

pub mod attention;
mod decimal;
pub mod error;
pub mod explain;
mod largest_first;
pub mod lesson;
pub mod parse;
pub mod schemes;
mod serialize;
pub mod splitmix;
pub mod tensor;

pub mod gpt;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
