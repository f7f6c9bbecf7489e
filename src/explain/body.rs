//! What an explanation holds: the operation (`Body`, tagged `op` for the page)
//! and its operands with the actual numbers and the cells they came from.

use serde::Serialize;

use super::fraction::Fraction;

/// A cell of a named matrix ("x", "W_q", "q", "scores", "weights", "tril", …),
/// so the page can highlight where an operand came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SourceCell {
    pub matrix: &'static str,
    pub row: usize,
    pub col: usize,
}

/// One product aᵢ·bᵢ of a sum of products.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Term {
    pub a: f64,
    pub b: f64,
    pub product: f64,
    pub a_src: SourceCell,
    pub b_src: SourceCell,
    /// a and b as small fractions (1/3) when they are such non-integers.
    pub a_fraction: Option<Fraction>,
    pub b_fraction: Option<Fraction>,
}

/// One number of a plain sum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Addend {
    pub value: f64,
    pub src: SourceCell,
    pub fraction: Option<Fraction>,
}

/// The items of a long sum that are not listed: how many, and their sum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rest {
    pub count: usize,
    pub sum: f64,
}

/// Scaled attention's 1/√d_k: value = sum · factor = sum / sqrt_d_k.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scaling {
    pub d_k: usize,
    pub sqrt_d_k: f64,
    /// 1/√d_k, what the code multiplies by.
    pub factor: f64,
}

/// value = (Σᵢ aᵢ·bᵢ + bias) · factor: a projection, a score or a weighted sum.
/// `sum` is the exact left-to-right sum of every product (listed and `rest`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dot {
    pub terms: Vec<Term>,
    pub rest: Option<Rest>,
    pub sum: f64,
    pub bias: Option<Addend>,
    /// Present when scores are scaled; `sum` is then the value before ÷√d_k.
    pub scale: Option<Scaling>,
}

/// value = (Σᵢ xᵢ) / count: the loop's running sum, then ÷(t+1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mean {
    pub terms: Vec<Addend>,
    pub rest: Option<Rest>,
    pub sum: f64,
    pub count: usize,
}

/// value = numerator / denominator with denominator = Σ of the row (`terms` + `rest`):
/// one entry of a row-normalised matrix.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Normalise {
    pub numerator: Addend,
    pub terms: Vec<Addend>,
    pub rest: Option<Rest>,
    pub denominator: f64,
}

/// One key s′ of a softmax row: e^score, and e^(score − max) as the code computes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExpTerm {
    pub score: f64,
    /// score − max.
    pub shifted: f64,
    /// e^score (+∞ when score > 709: then only the shifted form is meaningful).
    pub exp: f64,
    /// e^(score − max).
    pub shifted_exp: f64,
    /// The mask forbids this key: score −∞, exp 0.
    pub masked: bool,
    pub src: SourceCell,
}

/// The keys of a long softmax row that are not listed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExpRest {
    pub count: usize,
    pub exp_sum: f64,
    pub shifted_exp_sum: f64,
}

/// value = e^(m_s − max) / Σ_s′ e^(m_s′ − max), identical to e^m_s / Σ e^m_s′
/// (the e^−max cancels); the code subtracts the max so nothing overflows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Softmax {
    /// max_s′ m_s′, subtracted from every score.
    pub max: f64,
    /// The denominator's terms; the target key is always listed.
    pub terms: Vec<ExpTerm>,
    pub rest: Option<ExpRest>,
    /// e^m_s and Σ e^m_s′ (the formula as written; may be +∞).
    pub numerator: f64,
    pub denominator: f64,
    /// e^(m_s − max) and Σ e^(m_s′ − max) (what the code divides).
    pub numerator_shifted: f64,
    pub denominator_shifted: f64,
    /// The target key is masked: e^−∞ = 0, so its weight is exactly 0.
    pub target_masked: bool,
}

/// Why the mask forbids query t from reading key s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MaskReason {
    /// s > t: key s is in the future of query t.
    Future,
    /// A mask that is not the causal one forbids the pair.
    Forbidden,
}

/// value = −∞: the mask forbids this pair, so after softmax its weight is exactly 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Masked {
    /// The score before masking (what −∞ replaced).
    pub score: f64,
    pub score_src: SourceCell,
    pub reason: MaskReason,
    /// The weight this pair gets: exactly 0.
    pub weight: f64,
}

/// value = the score unchanged: the mask allows this pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Kept {
    pub score: f64,
    pub score_src: SourceCell,
}

/// Why a weight or output has no value (the matrix holds 0 there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoValueReason {
    /// The mask forbids every key of this query: softmax has no denominator.
    FullyMasked,
    /// A score overflowed (±∞ or NaN): use smaller weights or inputs.
    Overflow,
}

/// The operation that produced a cell, with its operands.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Body {
    Dot(Dot),
    Mean(Mean),
    Normalise(Normalise),
    Softmax(Softmax),
    Masked(Masked),
    Kept(Kept),
    NoValue { reason: NoValueReason },
}
