//! The lesson's seeded generator is the crate's (`crate::rng`): SplitMix64 bits with
//! the polar Box–Muller normal, the same bits in the browser and in `cargo test`.

pub use crate::rng::{ln, PolarRng as Rng};
