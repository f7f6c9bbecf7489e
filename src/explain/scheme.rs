//! The averaging schemes (LESSON §2) explained with the same builders as a head.
//! Matrix names: x (T, C) the input, tril (T, T) lower-triangular ones,
//! scores (T, T) the softmax scheme's zeros, masked_scores, weights, out.

use super::body::{Body, Kept, MaskReason, Masked, SourceCell};
use super::build::{self, Operand};
use super::{Cell, ExplainError, Explanation, Kind};
use crate::schemes::{lower_triangular_ones, matrix_average, softmax_average};
use crate::tensor::{causal_mask, masked_fill, Matrix};

/// The schemes with cells to explain; scheme 4 is a head (`explain_head`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Scheme 1: out[t] = mean(x[0..=t]).
    Loop,
    /// Scheme 2: weights = tril / rowsum(tril); out = weights x.
    Matrix,
    /// Scheme 3: weights = softmax(masked zeros); out = weights x.
    Softmax,
}

impl Scheme {
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Loop => "loop",
            Scheme::Matrix => "matrix",
            Scheme::Softmax => "softmax",
        }
    }

    /// "loop", "matrix" or "softmax".
    pub fn parse(name: &str) -> Result<Scheme, ExplainError> {
        match name {
            "loop" => Ok(Scheme::Loop),
            "matrix" => Ok(Scheme::Matrix),
            "softmax" => Ok(Scheme::Softmax),
            _ => Err(ExplainError::UnknownScheme(name.to_string())),
        }
    }
}

fn src(matrix: &'static str, row: usize, col: usize) -> SourceCell {
    SourceCell { matrix, row, col }
}

/// Explains a cell of a scheme run on x (T, C): weights (T, T) and out (T, C)
/// for every scheme, masked_scores (T, T) for the softmax scheme.
pub fn explain_scheme(
    scheme: Scheme,
    x: &Matrix,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let t_len = x.rows;
    let shape = match (scheme, cell.kind) {
        (_, Kind::Weight) | (Scheme::Softmax, Kind::MaskedScore) => (t_len, t_len),
        (_, Kind::Out) => (t_len, x.cols),
        (_, kind) => return Err(ExplainError::NotInScheme { scheme, kind }),
    };
    cell.check(shape)?;
    let (t, s) = (cell.row, cell.col);
    let (value, body, sources) = match (scheme, cell.kind) {
        (Scheme::Loop, Kind::Out) => {
            let column: Vec<Operand> = (0..=t).map(|r| (x.get(r, s), src("x", r, s))).collect();
            let (value, mean, sources) = build::mean(&column, max_terms);
            (value, Body::Mean(mean), sources)
        }
        (_, Kind::Weight) if scheme != Scheme::Softmax => {
            let tril = lower_triangular_ones(t_len);
            let row: Vec<Operand> = (0..t_len)
                .map(|c| (tril.get(t, c), src("tril", t, c)))
                .collect();
            let (value, norm, sources) = build::normalise(&row, s, max_terms);
            (value, Body::Normalise(norm), sources)
        }
        (_, Kind::MaskedScore) => masked_zero(t, s),
        (_, Kind::Weight) => {
            let zeros = masked_fill(
                &Matrix::zeros(t_len, t_len),
                &causal_mask(t_len, t_len),
                f64::NEG_INFINITY,
            );
            let row: Vec<Operand> = (0..t_len)
                .map(|c| (zeros.get(t, c), src("masked_scores", t, c)))
                .collect();
            let masked: Vec<bool> = (0..t_len).map(|c| c > t).collect();
            let (value, softmax, sources) =
                build::softmax(&row, &masked, s, max_terms).expect("the diagonal is never masked");
            (value, Body::Softmax(softmax), sources)
        }
        _ => weighted_sum(scheme, x, t, s, max_terms),
    };
    Ok(Explanation::new(cell, value, body, sources))
}

/// The softmax scheme's masked_scores[t][s]: the zero score, or −∞ for s > t.
fn masked_zero(t: usize, s: usize) -> (f64, Body, Vec<SourceCell>) {
    let score_src = src("scores", t, s);
    if s <= t {
        let body = Body::Kept(Kept {
            score: 0.0,
            score_src,
        });
        return (0.0, body, vec![score_src]);
    }
    let body = Body::Masked(Masked {
        score: 0.0,
        score_src,
        reason: MaskReason::Future,
        weight: 0.0,
    });
    (f64::NEG_INFINITY, body, vec![score_src])
}

/// out[t][c] = Σ_s weights[t][s]·x[s][c] with the scheme's own weights.
fn weighted_sum(
    scheme: Scheme,
    x: &Matrix,
    t: usize,
    c: usize,
    max_terms: usize,
) -> (f64, Body, Vec<SourceCell>) {
    let weights = match scheme {
        Scheme::Softmax => softmax_average(x).weights,
        _ => matrix_average(x).weights,
    };
    let a: Vec<Operand> = (0..x.rows)
        .map(|s| (weights.get(t, s), src("weights", t, s)))
        .collect();
    let b: Vec<Operand> = (0..x.rows).map(|s| (x.get(s, c), src("x", s, c))).collect();
    let (dot, sources) = build::dot(&a, &b, max_terms);
    (dot.sum, Body::Dot(dot), sources)
}
