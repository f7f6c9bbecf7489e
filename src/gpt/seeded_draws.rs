//! Every random number the GPT draws: init weights, batch offsets, sampling. The
//! generator is the crate's (`crate::splitmix`): SplitMix64, with the normal rounded to
//! f32 for the init; its state is saved with a training state, so a run resumes exactly.

pub use crate::splitmix::Rng;
