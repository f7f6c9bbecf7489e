//! Generation: greedy (argmax, lowest id on ties) or temperature + top-k sampling, the
//! context cropped to the last block_size ids, as the reference's `sample`.

use super::kernels::softmax;
use super::model::{Activations, Gpt};
use super::seeded_draws::Rng;
use super::{bail, GptError};

#[derive(Clone, Debug, PartialEq)]
pub struct SampleOptions {
    /// Argmax at every step; temperature, top_k and seed are then unused.
    pub greedy: bool,
    /// Logits are divided by it; must be > 0.
    pub temperature: f32,
    /// Keep only the k most likely ids (ties with the k-th kept); None = all.
    pub top_k: Option<usize>,
    pub seed: u64,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            greedy: false,
            temperature: 1.0,
            top_k: None,
            seed: 1337,
        }
    }
}

/// The id with the largest logit; the lowest such id on ties (torch.argmax).
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &x) in logits.iter().enumerate() {
        if x > logits[best] {
            best = i;
        }
    }
    best as u32
}

/// Draws an id from softmax(logits / temperature) restricted to the top k.
/// `probs` (V) is scratch and holds the distribution afterwards.
pub fn sample_logits(
    logits: &[f32],
    opts: &SampleOptions,
    rng: &mut Rng,
    probs: &mut [f32],
) -> u32 {
    let mut scaled: Vec<f32> = logits.iter().map(|&l| l / opts.temperature).collect();
    let kth = match opts.top_k {
        Some(k) if k > 0 && k < logits.len() => {
            let mut sorted = scaled.clone();
            sorted.sort_unstable_by(|a, b| b.total_cmp(a));
            sorted[k - 1]
        }
        _ => f32::NEG_INFINITY,
    };
    scaled
        .iter_mut()
        .filter(|l| **l < kth)
        .for_each(|l| *l = f32::NEG_INFINITY); // weight 0 below the top k
    let probs = &mut probs[..scaled.len()];
    softmax(probs, &scaled);
    let sum: f64 = probs.iter().map(|&p| p as f64).sum();
    let mut u = rng.uniform() * sum;
    let mut last = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            last = i;
            if u < p as f64 {
                return i as u32;
            }
            u -= p as f64;
        }
    }
    last as u32 // rounding left u ≥ the last weight
}

/// Appends `n` generated ids to `ids` (which holds the prompt, non-empty).
/// `acts` must fit (1, block_size).
pub fn generate(
    model: &Gpt,
    acts: &mut Activations,
    ids: &mut Vec<u32>,
    n: usize,
    opts: &SampleOptions,
) -> Result<(), GptError> {
    if ids.is_empty() {
        bail!("gpt.sample.empty_prompt");
    }
    let positive = opts.temperature > 0.0 && opts.temperature.is_finite();
    if !opts.greedy && !positive {
        bail!("gpt.sample.bad_temperature", value = opts.temperature);
    }
    let (bs, v) = (model.config.block_size, model.config.vocab_size);
    // buffers for a prompt (`Activations::for_inference`, GPT-2) see the last t_max ids;
    // a model's own buffers must hold a whole block, as the reference crops to block_size
    let last_only = acts.last_only();
    let window = if last_only { bs.min(acts.t_max) } else { bs };
    if acts.b_max < 1 || acts.t_max < window {
        bail!(
            "gpt.sample.small_buffers",
            b_max = acts.b_max,
            t_max = acts.t_max,
            block_size = bs
        );
    }
    model.check_batch(
        acts,
        &ids[ids.len().saturating_sub(window)..],
        None,
        1,
        ids.len().min(window),
    )?;
    let mut rng = Rng::new(opts.seed);
    let mut probs = vec![0.0f32; v];
    for _ in 0..n {
        let start = ids.len().saturating_sub(window);
        let t = ids.len() - start;
        let logits = if last_only {
            model.forward_last(acts, &ids[start..])?;
            &acts.logits[..v]
        } else {
            model.forward(acts, &ids[start..], None, 1, t);
            &acts.logits[(t - 1) * v..][..v]
        };
        let next = if opts.greedy {
            argmax(logits)
        } else {
            sample_logits(logits, opts, &mut rng, &mut probs)
        };
        ids.push(next);
    }
    Ok(())
}
