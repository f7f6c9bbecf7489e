//! §1 Why the split model starts near ln V: the loss at initialisation of
//! `Embedding(V, V)` (logits ~ N(0, 1)) against `Embedding(V, n_embd)` then
//! `Linear(n_embd, V)` (weights and bias ~ U(−1/√n_embd, 1/√n_embd), so the
//! logits start small and softmax starts near uniform), next to the uniform
//! guess ln V and the count model's own loss.
//!
//! V = vocabulary size, n_embd = embedding size. Every loss is the mean
//! cross-entropy over all consecutive pairs of the corpus, computed exactly
//! from the counts: L = Σ_ab N[a][b] · −ln softmax(logits[a])[b] / Σ_ab N[a][b].

use serde::Serialize;

use super::bigram::Bigram;
use super::portable_draws::Rng;
use super::{check_size, LessonError};
use crate::tensor::Matrix;

/// Losses at initialisation and after counting.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InitialLosses {
    pub vocab_size: usize,
    pub n_embd: usize,
    /// ln V: every character equally likely.
    pub uniform: f64,
    /// `Embedding(V, V)` with N(0, 1) logits: worse than uniform.
    pub bigram_init: f64,
    /// `Embedding(V, n_embd)` + `Linear(n_embd, V)` at PyTorch's init: close to ln V.
    pub split_init: f64,
    /// The count model itself (smoothed): the best a bigram can do on this text.
    pub count_model: f64,
}

/// logits (V, V) -> mean over corpus pairs of −ln softmax(logits[a])[b].
pub fn corpus_loss(model: &Bigram, logits: &Matrix) -> f64 {
    let v = model.vocab_size();
    let (mut total, mut n) = (0.0, 0u64);
    for a in 0..v {
        let row = logits.row(a);
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log_z = max + row.iter().map(|l| (l - max).exp()).sum::<f64>().ln();
        for (b, &l) in row.iter().enumerate() {
            let c = model.count(a, b);
            total += c as f64 * (log_z - l);
            n += c;
        }
    }
    total / n as f64
}

/// seed, n_embd ≤ 1024 -> the four losses on the model's corpus.
pub fn initial_losses(
    model: &Bigram,
    n_embd: usize,
    seed: u64,
) -> Result<InitialLosses, LessonError> {
    check_size("n_embd", n_embd, 1024)?;
    let v = model.vocab_size();
    let mut rng = Rng::new(seed);
    let bound = 1.0 / (n_embd as f64).sqrt();
    let table = rng.normal_matrix(v, v, 1.0); // Embedding(V, V): N(0, 1)
    let wte = rng.normal_matrix(v, n_embd, 1.0); // Embedding(V, n_embd): N(0, 1)
    let w = rng.uniform_matrix(v, n_embd, bound); // Linear weight (V, n_embd)
    let b = rng.uniform_matrix(1, v, bound); // Linear bias (V,)
    let split = wte.matmul_t(&w); // (V, n_embd) @ (n_embd, V) -> (V, V)
    let split = Matrix::from_fn(v, v, |a, c| split.get(a, c) + b.get(0, c));
    let rows: Vec<Vec<f64>> = (0..v).map(|a| model.logits_row(a)).collect();
    let counted = Matrix::from_rows(&rows).expect("V rows of V");
    Ok(InitialLosses {
        vocab_size: v,
        n_embd,
        uniform: (v as f64).ln(),
        bigram_init: corpus_loss(model, &table),
        split_init: corpus_loss(model, &split),
        count_model: corpus_loss(model, &counted),
    })
}
