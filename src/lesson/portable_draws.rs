//! Every random number the lesson draws, the same bits in the browser and in
//! `cargo test`: the crate's generator (`crate::splitmix`), SplitMix64 bits with the
//! polar Box–Muller normal and a `ln` of +, −, ×, ÷ only.

pub use crate::splitmix::{ln, PolarRng as Rng};
