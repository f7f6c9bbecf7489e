//! The GPT's seeded generator is the crate's (`crate::rng`): SplitMix64, init weights,
//! batch offsets, sampling.

pub use crate::rng::Rng;
