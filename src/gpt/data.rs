//! Character data: the vocab (sorted distinct chars), the 90/10 split, seeded batches and
//! loss estimates, as the reference's `load_corpus`, `get_batch` and `estimate_loss`.
//!
//! B = batch, T = time.

use super::model::{Activations, Gpt};
use super::seeded_draws::Rng;
use super::{bail, GptError};
use std::collections::HashMap;

/// The characters a model knows; id = position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vocab {
    pub chars: Vec<char>,
}

impl Vocab {
    /// sorted(set(text)).
    pub fn from_text(text: &str) -> Vocab {
        let mut chars: Vec<char> = text.chars().collect();
        chars.sort_unstable();
        chars.dedup();
        Vocab { chars }
    }

    pub fn len(&self) -> usize {
        self.chars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The id of `ch`. A linear scan: checkpoint vocabs need not be sorted.
    pub fn id(&self, ch: char) -> Option<u32> {
        self.chars.iter().position(|&c| c == ch).map(|i| i as u32)
    }

    /// Ids of `text`; Err naming the characters outside the vocab.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, GptError> {
        // a map, not `id`'s scan: 20 M characters over thousands of distinct ones (any
        // CJK text) would take N·V steps, minutes in the browser
        let mut stoi = HashMap::with_capacity(self.chars.len());
        for (i, &ch) in self.chars.iter().enumerate().rev() {
            stoi.insert(ch, i as u32); // rev: the first occurrence wins, as in `id`
        }
        let ids: Vec<Option<u32>> = text.chars().map(|ch| stoi.get(&ch).copied()).collect();
        if ids.iter().any(Option::is_none) {
            let mut bad: Vec<char> = text.chars().filter(|ch| !stoi.contains_key(ch)).collect();
            bad.sort_unstable();
            bad.dedup();
            bail!("gpt.data.not_in_vocab", chars = format!("{bad:?}"));
        }
        Ok(ids.into_iter().flatten().collect())
    }

    /// A text a model of this vocab can always be wrapped in when the learner's own text
    /// does not fit it: every character, repeated, long enough for `block_size`. Such a
    /// trainer can be inspected and sampled but not trained (`Trainer::from_checkpoint`).
    pub fn placeholder_text(&self, block_size: usize) -> String {
        let need = 10 * (block_size + 1) + 1;
        self.chars
            .iter()
            .cycle()
            .take(need.max(self.len()))
            .collect()
    }

    /// The text of `ids`; ids outside the vocab become U+FFFD.
    pub fn decode(&self, ids: &[u32]) -> String {
        ids.iter()
            .map(|&i| self.chars.get(i as usize).copied().unwrap_or('\u{FFFD}'))
            .collect()
    }
}

/// Longest training text accepted (characters): ids and the text stay well under 100 MB.
pub const MAX_TEXT_CHARS: usize = 20_000_000;

/// Refuses a text no model can learn from (empty, one character repeated, longer than
/// `MAX_TEXT_CHARS`): what the page checks of the learner's text before a trainer
/// is made from it.
pub fn check_text(text: &str) -> Result<(), GptError> {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        bail!("gpt.text.empty");
    };
    if chars.clone().all(|c| c == first) {
        bail!("gpt.text.one_char", char = crate::error::quoted(first));
    }
    let n = 1 + chars.count();
    if n > MAX_TEXT_CHARS {
        bail!("gpt.text.too_long", n, limit = MAX_TEXT_CHARS);
    }
    Ok(())
}

/// A corpus as ids: the first 90 % train, the rest validation.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub vocab: Vocab,
    pub train: Vec<u32>,
    pub val: Vec<u32>,
}

impl Dataset {
    /// Vocab from the text itself.
    pub fn new(text: &str) -> Result<Dataset, GptError> {
        Dataset::with_vocab(text, Vocab::from_text(text))
    }

    /// A corpus encoded with a given vocab (e.g. a checkpoint's); Err on unknown chars.
    pub fn with_vocab(text: &str, vocab: Vocab) -> Result<Dataset, GptError> {
        let ids = vocab.encode(text)?;
        let n = (0.9 * ids.len() as f64) as usize; // Python: int(0.9 * len(data))
        Ok(Dataset {
            vocab,
            val: ids[n..].to_vec(),
            train: ids[..n].to_vec(),
        })
    }

    /// Err unless both splits hold more than `t` ids (a batch needs t + 1).
    pub fn check_fits(&self, t: usize) -> Result<(), GptError> {
        let (tr, va) = (self.train.len(), self.val.len());
        if tr <= t || va <= t {
            bail!(
                "gpt.data.too_short",
                block_size = t,
                train = tr,
                val = va,
                need = 10 * (t + 1) + 1
            );
        }
        Ok(())
    }
}

/// x, y (B,T) = b random windows of `data` and the same shifted by one; offsets uniform in
/// [0, len − T) as `torch.randint(len(data) - T, (B,))`. Needs data.len() > t.
pub fn get_batch(data: &[u32], b: usize, t: usize, rng: &mut Rng, x: &mut [u32], y: &mut [u32]) {
    for (xr, yr) in x[..b * t]
        .chunks_exact_mut(t)
        .zip(y[..b * t].chunks_exact_mut(t))
    {
        let i = rng.below(data.len() - t);
        xr.copy_from_slice(&data[i..i + t]);
        yr.copy_from_slice(&data[i + 1..i + t + 1]);
    }
}

/// Mean loss over `iters` batches of (b, t) from `data`, the same batches every call
/// (an RNG seeded with `seed + 1`, as the reference). x, y are scratch of b·t.
#[allow(clippy::too_many_arguments)]
pub fn estimate_loss(
    model: &Gpt,
    acts: &mut Activations,
    data: &[u32],
    b: usize,
    t: usize,
    seed: u64,
    iters: usize,
    x: &mut [u32],
    y: &mut [u32],
) -> f32 {
    let mut rng = Rng::new(seed.wrapping_add(1));
    let mut total = 0.0f64;
    for _ in 0..iters {
        get_batch(data, b, t, &mut rng, x, y);
        total += model
            .forward(acts, &x[..b * t], Some(&y[..b * t]), b, t)
            .unwrap_or(0.0) as f64;
    }
    (total / iters.max(1) as f64) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: encoding was a linear scan of the vocab per character (N·V steps).
    /// 200 000 characters over 20 000 distinct ones took seconds in debug; now a map
    /// lookup each. Unsorted vocabs (a checkpoint's) and unknown characters still work.
    #[test]
    fn encoding_a_large_vocab_is_a_lookup_per_character() {
        let text: String = (0..200_000u32)
            .map(|i| char::from_u32(0x4E00 + (i * 7919) % 20_000).unwrap())
            .collect();
        let vocab = Vocab::from_text(&text);
        assert_eq!(vocab.len(), 20_000);
        let ids = vocab.encode(&text).unwrap();
        assert_eq!(vocab.decode(&ids), text);
        let unsorted = Vocab {
            chars: vec!['z', 'a', 'm'],
        };
        assert_eq!(unsorted.encode("maz").unwrap(), vec![2, 1, 0]);
        let e = unsorted.encode("mbxb").unwrap_err().to_string();
        assert!(e.contains("['b', 'x']"), "{e}");
    }
}
