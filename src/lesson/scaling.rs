//! §5 note 6 and §6's slider: why scores are scaled by 1/√d_k.
//! With q, k ~ N(0, 1) per component, Var(q · k) = d_k; unscaled, the scores
//! spread as √d_k and softmax turns one-hot; scaled, the spread stays ≈ 1.
//!
//! T = 6 tokens in the slider, d_k = head size (its first d_k of D_MAX
//! dimensions), n = samples per dimension in the variance experiment.
//! All draws come from `portable_draws::Rng` (SplitMix64 + Box–Muller), so the page and
//! the tests see the same numbers for the same seed.

use serde::Serialize;

use super::portable_draws::Rng;
use super::{check_count, check_finite, check_size, fail, LessonError, MAX_SIDE};
use crate::tensor::{causal_or_none, dot, masked_fill, softmax_row, softmax_rows, Matrix};

/// Tokens in the slider demo.
pub const SLIDER_T: usize = 6;
/// Largest d_k the slider offers (Q and K are drawn this wide once).
pub const D_MAX: usize = 512;

/// The slider's 6×6 attention at one d_k.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DkSlider {
    pub d_k: usize,
    /// 1/√d_k when scaled, else 1.
    pub scale: f64,
    /// (T, d_k) the first d_k dimensions of the seeded q and k.
    pub q: Matrix,
    pub k: Matrix,
    /// (T, T) q kᵀ · scale over the first d_k dimensions.
    pub scores: Matrix,
    /// (T, T) scores with −∞ above the diagonal when the mask is on.
    pub masked_scores: Matrix,
    /// (T, T) softmax by rows.
    pub weights: Matrix,
    /// Standard deviation of all T·T scores (≈ √d_k unscaled, ≈ 1 scaled).
    pub score_std: f64,
    /// Mean over rows of the largest weight: 1 means one-hot.
    pub mean_max_weight: f64,
    pub row_sums: Vec<f64>,
}

/// seed, d_k in 1..=512 -> q, k ~ N(0,1) of shape (6, 512), cut to (6, d_k); scores, weights.
pub fn dk_slider(
    seed: u64,
    d_k: usize,
    scaled: bool,
    causal: bool,
) -> Result<DkSlider, LessonError> {
    check_size("d_k", d_k, D_MAX)?;
    let mut rng = Rng::new(seed);
    let q_full = rng.normal_matrix(SLIDER_T, D_MAX, 1.0); // (T, D_MAX)
    let k_full = rng.normal_matrix(SLIDER_T, D_MAX, 1.0);
    let cut = |m: &Matrix| Matrix::from_fn(SLIDER_T, d_k, |t, j| m.get(t, j)); // (T, d_k)
    let (q, k) = (cut(&q_full), cut(&k_full));
    let scale = if scaled {
        1.0 / (d_k as f64).sqrt()
    } else {
        1.0
    };
    let scores = q.matmul_t(&k).scale(scale); // (T, d_k) @ (d_k, T) -> (T, T)
    let mask = causal_or_none(causal, SLIDER_T, SLIDER_T);
    let masked_scores = masked_fill(&scores, &mask, f64::NEG_INFINITY);
    let (weights, _) = softmax_rows(&masked_scores); // the diagonal is never masked
    let max_weights: Vec<f64> = (0..SLIDER_T)
        .map(|t| weights.row(t).iter().copied().fold(0.0, f64::max))
        .collect();
    Ok(DkSlider {
        d_k,
        scale,
        score_std: variance(&scores.data).sqrt(),
        mean_max_weight: max_weights.iter().sum::<f64>() / SLIDER_T as f64,
        row_sums: weights.row_sums(),
        q,
        k,
        scores,
        masked_scores,
        weights,
    })
}

/// Population variance Σ(x − mean)² / n (NumPy's `var()`).
pub fn variance(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n
}

/// One row of the variance experiment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarianceRow {
    pub d: usize,
    pub n: usize,
    /// Var(q · k) ≈ d.
    pub var_unscaled: f64,
    /// Var(q · k / √d) ≈ 1.
    pub var_scaled: f64,
    /// √Var(q · k) ≈ √d (≈ 22.6 at d = 512).
    pub std_unscaled: f64,
}

/// Most products q_i k_i one experiment may draw (n · Σd).
pub const MAX_WORK: usize = 25_000_000;

/// For each d: n dot products of q, k ~ N(0, 1)^d; Var(q · k) and Var(q · k / √d).
/// Each d draws from its own stream (seed, d), so adding a d changes no other row.
pub fn variance_experiment(
    seed: u64,
    dims: &[usize],
    n: usize,
) -> Result<Vec<VarianceRow>, LessonError> {
    check_count("lesson.size.dimensions", dims.len(), 8)?;
    if !(2..=200_000).contains(&n) {
        return fail!("lesson.scaling.samples", n);
    }
    for &d in dims {
        check_count("lesson.size.each_d", d, 4096)?;
    }
    let work: usize = dims.iter().map(|d| d * n).sum();
    if work > MAX_WORK {
        return fail!("lesson.scaling.too_much_work", work, limit = MAX_WORK);
    }
    Ok(dims
        .iter()
        .map(|&d| {
            let mut rng = Rng::new(seed ^ ((d as u64) << 32));
            let (mut q, mut k) = (vec![0.0; d], vec![0.0; d]);
            let dots: Vec<f64> = (0..n)
                .map(|_| {
                    q.iter_mut().for_each(|v| *v = rng.normal());
                    k.iter_mut().for_each(|v| *v = rng.normal());
                    dot(&q, &k)
                })
                .collect();
            let scaled: Vec<f64> = dots.iter().map(|v| v / (d as f64).sqrt()).collect();
            let var_unscaled = variance(&dots);
            VarianceRow {
                d,
                n,
                var_unscaled,
                var_scaled: variance(&scaled),
                std_unscaled: var_unscaled.sqrt(),
            }
        })
        .collect())
}

/// softmax(s · factor) for one factor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sharpened {
    pub factor: f64,
    pub weights: Vec<f64>,
    pub max_weight: f64,
}

/// s (n,), factors -> softmax(s · f) for each f ([0.1,−0.2,0.3,−0.2,0.5] at ×1, ×4, ×8).
pub fn softmax_sharpening(scores: &[f64], factors: &[f64]) -> Result<Vec<Sharpened>, LessonError> {
    check_count("lesson.size.scores", scores.len(), MAX_SIDE)?;
    check_count("lesson.size.factors", factors.len(), 16)?;
    check_finite("scores", scores)?;
    check_finite("factors", factors)?;
    factors
        .iter()
        .map(|&f| {
            let scaled: Vec<f64> = scores.iter().map(|s| s * f).collect();
            let Some(weights) = softmax_row(&scaled) else {
                return fail!("lesson.scaling.overflow", factor = f);
            };
            Ok(Sharpened {
                factor: f,
                max_weight: weights.iter().copied().fold(0.0, f64::max),
                weights,
            })
        })
        .collect()
}

/// Mean largest softmax weight, unscaled and scaled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MaxWeight {
    pub rows: usize,
    pub keys: usize,
    pub d: usize,
    /// mean_r max softmax(S_r), S ~ N(0, 1)·√d: 0.958 in the lesson's run (d = 512, 8 keys).
    pub unscaled: f64,
    /// mean_r max softmax(S_r / √d): 0.365 in the lesson's run.
    pub scaled: f64,
}

/// seed, rows ≤ 20 000, keys ≤ 64, d ≤ 4096 -> the average max weight experiment.
pub fn avg_max_weight(
    seed: u64,
    rows: usize,
    keys: usize,
    d: usize,
) -> Result<MaxWeight, LessonError> {
    check_count("lesson.size.rows", rows, 20_000)?;
    check_count("lesson.size.keys", keys, MAX_SIDE)?;
    check_size("d", d, 4096)?;
    let mut rng = Rng::new(seed);
    let std = (d as f64).sqrt();
    let s = rng.normal_matrix(rows, keys, std); // (rows, keys) unscaled scores
    let mean_max = |m: &Matrix| {
        let (p, _) = softmax_rows(m);
        (0..rows)
            .map(|r| p.row(r).iter().copied().fold(0.0, f64::max))
            .sum::<f64>()
            / rows as f64
    };
    Ok(MaxWeight {
        rows,
        keys,
        d,
        unscaled: mean_max(&s),
        scaled: mean_max(&s.scale(1.0 / std)),
    })
}
