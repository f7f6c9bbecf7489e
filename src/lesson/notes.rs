//! §5 Notes 1–4: attention as message passing on a graph the mask draws;
//! sequences in a batch never talk (BatchNorm as the counterexample);
//! encoder versus decoder is one line. (Note 5, cross-attention, is
//! `attention::cross_forward`; note 6, the √d_k scale, is `scaling`.)
//!
//! B = batch, T = time, C = channels, d = head size.

use serde::Serialize;

use super::portable_draws::Rng;
use super::{check_size, clean_trace, LessonError, TraceView};
use crate::attention::{attend, linear_forward, score_scale, HeadWeights};
use crate::tensor::{causal_mask, causal_or_none, Mask, Matrix};

/// One edge of the attention graph: receiver `to` reads source `from` with `weight`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub weight: f64,
}

/// weights (T_out, T_in), mask -> the edges that exist (allowed cells only).
pub fn graph_edges(weights: &Matrix, mask: &Mask) -> Vec<Edge> {
    let mut edges = Vec::new();
    for t in 0..weights.rows {
        for s in 0..weights.cols {
            if mask.get(t, s) {
                edges.push(Edge {
                    from: s,
                    to: t,
                    weight: weights.get(t, s),
                });
            }
        }
    }
    edges
}

/// (B·T, C) x of a whole batch -> B traces: the projections run on all
/// B·T rows at once (as PyTorch does), attention within each sequence.
pub fn batched_head(
    xs: &[Matrix],
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
) -> Vec<crate::attention::HeadTrace> {
    let t_len = xs.first().map_or(0, |x| x.rows);
    let c = w.w_q.cols;
    let mut stacked = Matrix::zeros(xs.len() * t_len, c); // (B·T, C)
    for (b, x) in xs.iter().enumerate() {
        assert_eq!((x.rows, x.cols), (t_len, c), "batched_head: ragged batch");
        stacked.data[b * t_len * c..(b + 1) * t_len * c].copy_from_slice(&x.data);
    }
    let q = linear_forward(&stacked, &w.w_q); // (B·T, C) @ (C, d) -> (B·T, d)
    let k = linear_forward(&stacked, &w.w_k);
    let v = linear_forward(&stacked, &w.w_v);
    let rows =
        |m: &Matrix, b: usize| Matrix::from_fn(t_len, m.cols, |t, j| m.get(b * t_len + t, j));
    let mask = causal_or_none(causal, t_len, t_len);
    let scale = score_scale(q.cols, scaled);
    (0..xs.len())
        .map(|b| attend(rows(&q, b), rows(&k, b), rows(&v, b), &mask, scale))
        .collect()
}

/// Replace sequence 1 of a batch of two; sequence 0's output must not move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BatchIndependence {
    /// The two input sequences before, each (T, C).
    pub x_before: Vec<Matrix>,
    /// The batch after sequence 1 was redrawn.
    pub x_after: Vec<Matrix>,
    pub before: Vec<TraceView>,
    pub after: Vec<TraceView>,
    /// max |out₀ after − out₀ before|: exactly 0.
    pub seq0_max_change: f64,
    pub seq0_bit_identical: bool,
    /// max |out₁ after − out₁ before|: it changed, of course.
    pub seq1_max_change: f64,
}

/// seed, T, C, d (each ≤ 16) -> the batch-independence check on N(0, 1) data.
pub fn batch_independence(
    seed: u64,
    t_len: usize,
    c: usize,
    d: usize,
) -> Result<BatchIndependence, LessonError> {
    let (w, x_before, x_after) = batch_draws(seed, t_len, c, d)?;
    let run = |xs: &[Matrix]| -> Result<Vec<TraceView>, LessonError> {
        batched_head(xs, &w, true, true)
            .into_iter()
            .map(clean_trace)
            .collect()
    };
    let (before, after) = (run(&x_before)?, run(&x_after)?);
    Ok(BatchIndependence {
        seq0_max_change: after[0].out.max_abs_diff(&before[0].out),
        seq0_bit_identical: after[0]
            .out
            .data
            .iter()
            .zip(&before[0].out.data)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        seq1_max_change: after[1].out.max_abs_diff(&before[1].out),
        x_before,
        x_after,
        before,
        after,
    })
}

/// The draws behind `batch_independence`: the head (d, C) with std 1/√C, the
/// batch before (two (T, C) sequences) and after sequence 1 was redrawn (and behind
/// `explain::explain_batch`, which explains its cells).
pub(crate) fn batch_draws(
    seed: u64,
    t_len: usize,
    c: usize,
    d: usize,
) -> Result<(HeadWeights, Vec<Matrix>, Vec<Matrix>), LessonError> {
    check_size("T", t_len, 16)?;
    check_size("C", c, 16)?;
    check_size("d", d, 16)?;
    let mut rng = Rng::new(seed);
    let std = 1.0 / (c as f64).sqrt();
    let w = HeadWeights {
        w_q: rng.normal_matrix(d, c, std),
        w_k: rng.normal_matrix(d, c, std),
        w_v: rng.normal_matrix(d, c, std),
    };
    let x_before = vec![
        rng.normal_matrix(t_len, c, 1.0),
        rng.normal_matrix(t_len, c, 1.0),
    ];
    let x_after = vec![x_before[0].clone(), rng.normal_matrix(t_len, c, 1.0)];
    Ok((w, x_before, x_after))
}

/// The same sample normalised inside two different batches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NormCounterexample {
    /// (C,) the shared sample.
    pub sample: Vec<f64>,
    /// (B, C) the two batches; row 0 of each is the sample.
    pub batches: Vec<Matrix>,
    /// (C,) BatchNorm of the sample in batch 0 and in batch 1: they differ.
    pub batchnorm: Vec<Vec<f64>>,
    /// (C,) LayerNorm of the sample in batch 0 and in batch 1: identical.
    pub layernorm: Vec<Vec<f64>>,
    pub batchnorm_max_diff: f64,
    pub layernorm_max_diff: f64,
}

/// (B, C) -> (B, C): (x − mean over rows of each column) / √(var + ε), BatchNorm's axis.
pub fn batchnorm(x: &Matrix) -> Matrix {
    normalise(&x.transpose()).transpose()
}

/// (B, C) -> (B, C): (x − mean of each row) / √(var + ε), LayerNorm's axis.
pub fn layernorm(x: &Matrix) -> Matrix {
    normalise(x)
}

fn normalise(x: &Matrix) -> Matrix {
    let eps = 1e-5;
    let mut out = x.clone();
    for r in 0..x.rows {
        let row = x.row(r);
        let n = row.len() as f64;
        let mean = row.iter().sum::<f64>() / n;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let rstd = 1.0 / (var + eps).sqrt();
        for (o, v) in out.row_mut(r).iter_mut().zip(row) {
            *o = (v - mean) * rstd;
        }
    }
    out
}

/// seed -> one sample (C = 4) in two batches of 4 with different neighbours.
pub fn norm_counterexample(seed: u64) -> NormCounterexample {
    let (b, c) = (4, 4);
    let mut rng = Rng::new(seed);
    let sample: Vec<f64> = (0..c).map(|_| rng.normal()).collect();
    let batches: Vec<Matrix> = (0..2)
        .map(|_| {
            let mut m = rng.normal_matrix(b, c, 1.0);
            m.row_mut(0).copy_from_slice(&sample);
            m
        })
        .collect();
    let first_row = |m: Matrix| m.row(0).to_vec();
    let batchnorm: Vec<Vec<f64>> = batches.iter().map(|m| first_row(batchnorm(m))).collect();
    let layernorm: Vec<Vec<f64>> = batches.iter().map(|m| first_row(layernorm(m))).collect();
    NormCounterexample {
        batchnorm_max_diff: super::max_abs_diff(&batchnorm[0], &batchnorm[1]),
        layernorm_max_diff: super::max_abs_diff(&layernorm[0], &layernorm[1]),
        sample,
        batches,
        batchnorm,
        layernorm,
    }
}

/// The same head as decoder (causal mask) and encoder (no mask).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EncoderDecoder {
    pub decoder: TraceView,
    pub encoder: TraceView,
    /// Decoder edges: s ≤ t only.
    pub decoder_edges: Vec<Edge>,
    /// Encoder edges: every pair.
    pub encoder_edges: Vec<Edge>,
}

/// x (T, C), weights (d, C) -> both traces and their graphs; only the mask differs.
pub fn encoder_decoder(
    x: &Matrix,
    w: &HeadWeights,
    scaled: bool,
) -> Result<EncoderDecoder, LessonError> {
    let dec = super::head_experiments::run_head(x, w, true, scaled)?;
    let enc = super::head_experiments::run_head(x, w, false, scaled)?;
    let t = x.rows;
    Ok(EncoderDecoder {
        decoder_edges: graph_edges(&dec.weights, &causal_mask(t, t)),
        encoder_edges: graph_edges(&enc.weights, &Mask::none(t, t)),
        decoder: clean_trace(dec)?,
        encoder: clean_trace(enc)?,
    })
}
