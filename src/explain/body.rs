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

/// Which numbers a normalised entry is divided by the sum of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Over {
    /// Its own row: rows sum to 1 (`a / a.sum(1, keepdim=True)`).
    Row,
    /// Its own column: columns sum to 1.
    Column,
    /// Every entry of the matrix: the whole matrix sums to 1.
    All,
    /// Row c for the entry in column c: the lost-keepdim trap `a / a.sum(1)`,
    /// where the (T,) row sums broadcast along the wrong axis.
    RowOfColumn,
}

/// value = numerator / denominator with denominator = Σ `terms` (+ `rest`): the
/// numerator's row (`over` = row), its column, the whole matrix, or (the keepdim
/// trap) the row whose index is the numerator's column.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Normalise {
    pub numerator: Addend,
    pub terms: Vec<Addend>,
    pub rest: Option<Rest>,
    pub denominator: f64,
    pub over: Over,
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

/// Which way a softmax runs: along a row (`axis=-1`, the right way for
/// attention) or down a column (`axis=-2`, every receiver competing for one key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    Row,
    Column,
}

/// value = e^(m_s − max) / Σ_s′ e^(m_s′ − max), identical to e^m_s / Σ e^m_s′
/// (the e^−max cancels); the code subtracts the max so nothing overflows.
/// The s′ run along the row of the cell, or down its column (`axis`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Softmax {
    pub axis: Axis,
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
    /// Every score the softmax divides by is −∞, and NumPy's softmax computes
    /// −∞ − (−∞) = NaN: the cell holds NaN (the lesson-1 exercise's wrong masks).
    Nan,
}

/// value = (x_t M) · x_s, computed as `x.matmul(M).matmul_t(x)` does: first the
/// row x_t M (entry j = Σ_c x[t][c]·M[c][j]), then its dot product with x_s.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bilinear {
    /// Entry j of x_t M as its sum of products (`sum` is the entry).
    pub first: Vec<Dot>,
    /// Σ_j (x_t M)[j]·x[s][j]; its `a` operands are the sums of `first` (matrix "x M").
    pub then: Dot,
}

/// value = sin(angle) for an even column 2i, cos(angle) for the odd column 2i + 1,
/// with angle = pos / 10000^(2i/d): one entry of the fixed sinusoidal position table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sinusoid {
    /// The position (the table's row).
    pub pos: usize,
    /// i: columns 2i and 2i + 1 share one frequency.
    pub pair: usize,
    /// 2i.
    pub two_i: usize,
    /// d: the table's width (channels).
    pub d: usize,
    /// 2i / d.
    pub exponent: f64,
    /// 10000^(2i/d).
    pub wavelength: f64,
    /// pos / 10000^(2i/d), in radians.
    pub angle: f64,
    /// true: cos (odd column); false: sin (even column).
    pub cos: bool,
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
    Bilinear(Bilinear),
    Sinusoid(Sinusoid),
    NoValue { reason: NoValueReason },
}
