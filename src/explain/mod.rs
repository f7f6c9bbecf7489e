//! Every number explains itself: for any drawn cell, the operation that made
//! it and its operands with the actual numbers and the cells they came from,
//! so the page only lays them out and does no math.
//!
//! T_out / T_in = query / key length (T for self-attention), C = channels,
//! d = head size (d_k), d_v = value size.
//!
//! One implementation serves every widget: `build` holds the builders (sum of
//! products, mean, row normalisation, softmax), each repeating the forward
//! pass's own arithmetic; `head` explains one head's cells from any data
//! source (`Grid`: a `HeadTrace`'s matrices, a GPT's f32 buffers); `scheme`
//! explains the averaging schemes; `steps` walks through the formula.

mod body;
mod build;
mod error;
mod fraction;
mod grid;
mod head;
mod lesson;
mod scheme;
mod seeded;
mod steps;

use serde::Serialize;

pub use body::{
    Addend, Axis, Bilinear, Body, Dot, ExpRest, ExpTerm, Kept, MaskReason, Masked, Mean,
    NoValueReason, Normalise, Over, Rest, Scaling, Sinusoid, Softmax, SourceCell, Term,
};
pub use error::{Explain, ExplainError, ShapeCause, MESSAGES};
pub use fraction::{as_fraction, fraction_beside, Fraction};
pub use grid::{Grid, Strided};
pub use head::{explain_attention_cell, explain_head, Drawn, HeadInputs, HeadView, Projection};
pub use lesson::{
    explain_compat, explain_exercise, explain_normalize, explain_sinusoid, explain_wrong_axis,
};
pub use scheme::{explain_scheme, Scheme};
pub use seeded::{explain_batch, explain_future_change, explain_multihead, FutureGrid};
pub use steps::{formula_steps, Step, FORMULA};

/// How many terms a long sum lists before summarising the rest (a GPT head
/// has d = 64: the page shows the 8 largest and "+ 56 more").
pub const DEFAULT_MAX_TERMS: usize = 8;

/// Which drawn matrix a cell belongs to; serialised as the `HeadTrace` field name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Kind {
    #[serde(rename = "q")]
    Q,
    #[serde(rename = "k")]
    K,
    #[serde(rename = "v")]
    V,
    #[serde(rename = "scores")]
    Score,
    #[serde(rename = "masked_scores")]
    MaskedScore,
    #[serde(rename = "weights")]
    Weight,
    #[serde(rename = "out")]
    Out,
    // The lesson's other grids (`lesson`): not a head's matrices.
    /// M = W_qᵀ W_k (C, C).
    #[serde(rename = "M")]
    M,
    /// x M xᵀ (T, T): the scores through M.
    #[serde(rename = "x M xᵀ")]
    ViaM,
    /// The sinusoidal position table PE (T, C).
    #[serde(rename = "PE")]
    Pe,
    /// A normalised by rows, by columns, as a whole.
    #[serde(rename = "by_rows")]
    ByRows,
    #[serde(rename = "by_columns")]
    ByColumns,
    #[serde(rename = "whole")]
    Whole,
    /// The keepdim trap: A / A.sum(1, keepdim=True) and A / A.sum(1).
    #[serde(rename = "right")]
    Right,
    #[serde(rename = "wrong")]
    Wrong,
}

impl Kind {
    /// The `HeadTrace` field (and page matrix) name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Q => "q",
            Kind::K => "k",
            Kind::V => "v",
            Kind::Score => "scores",
            Kind::MaskedScore => "masked_scores",
            Kind::Weight => "weights",
            Kind::Out => "out",
            Kind::M => "M",
            Kind::ViaM => "x M xᵀ",
            Kind::Pe => "PE",
            Kind::ByRows => "by_rows",
            Kind::ByColumns => "by_columns",
            Kind::Whole => "whole",
            Kind::Right => "right",
            Kind::Wrong => "wrong",
        }
    }

    /// One of a head's matrices (q … out), which `explain_head` explains.
    pub fn is_head(self) -> bool {
        matches!(
            self,
            Kind::Q
                | Kind::K
                | Kind::V
                | Kind::Score
                | Kind::MaskedScore
                | Kind::Weight
                | Kind::Out
        )
    }

    /// `parse`, plus the lesson's other grids: "M", "x M xᵀ" (or "xMx"), "PE",
    /// "by_rows", "by_columns", "whole", "right", "wrong".
    pub fn parse_any(name: &str) -> Result<Kind, ExplainError> {
        Ok(match name {
            "M" => Kind::M,
            "x M xᵀ" | "xMx" | "via_m" => Kind::ViaM,
            "PE" | "pe" => Kind::Pe,
            "by_rows" => Kind::ByRows,
            "by_columns" => Kind::ByColumns,
            "whole" => Kind::Whole,
            "right" => Kind::Right,
            "wrong" => Kind::Wrong,
            _ => return Kind::parse(name),
        })
    }

    /// Parses a field name; the singular ("score", "weight", "masked_score") also works.
    pub fn parse(name: &str) -> Result<Kind, ExplainError> {
        Ok(match name {
            "q" => Kind::Q,
            "k" => Kind::K,
            "v" => Kind::V,
            "scores" | "score" => Kind::Score,
            "masked_scores" | "masked_score" => Kind::MaskedScore,
            "weights" | "weight" | "wei" => Kind::Weight,
            "out" => Kind::Out,
            _ => return Err(ExplainError::UnknownKind(name.to_string())),
        })
    }
}

/// Cell (row, col) of matrix `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub kind: Kind,
    pub row: usize,
    pub col: usize,
}

impl Cell {
    pub fn new(kind: Kind, row: usize, col: usize) -> Cell {
        Cell { kind, row, col }
    }

    /// Errors unless the cell lies inside a (rows, cols) matrix.
    fn check(self, (rows, cols): (usize, usize)) -> Result<(), ExplainError> {
        if self.row < rows && self.col < cols {
            return Ok(());
        }
        Err(ExplainError::OutOfRange {
            kind: self.kind,
            row: self.row,
            col: self.col,
            rows,
            cols,
        })
    }
}

/// One cell explained: `value` = the operation `body` applied to its operands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    pub kind: Kind,
    pub row: usize,
    pub col: usize,
    /// The cell's number by the forward pass's own arithmetic: −∞ for a masked
    /// score, 0 (as drawn) where `op` is `no_value`.
    pub value: f64,
    /// `value` as p/q (q ≤ 12) when it is such a non-integer.
    pub fraction: Option<Fraction>,
    /// Every cell of another matrix this one was computed from (for highlighting).
    pub sources: Vec<SourceCell>,
    /// The drawn grid, when a widget draws several of one kind (the proofs' four
    /// outputs: "masked_before", …); None when `kind` names it.
    pub grid: Option<&'static str>,
    /// The source matrices the widget does not draw, each with what it is, so that the
    /// page names them where it cannot outline them.
    pub elsewhere: Vec<Elsewhere>,
    #[serde(flatten)]
    pub body: Body,
}

/// A source matrix not drawn beside the explained cell: `matrix` (a `SourceCell`
/// name) is `what`, a stable key the page says in words (`c.from.<what>`):
/// "head_weights" (the head's W_q and W_k), "head_q", "head_k", "head_input",
/// "exercise_scores", "practice_scores", "proof_weights_masked",
/// "proof_weights_unmasked", "proof_v_before", "proof_v_after".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Elsewhere {
    pub matrix: &'static str,
    pub what: &'static str,
}

impl Explanation {
    fn new(cell: Cell, value: f64, body: Body, sources: Vec<SourceCell>) -> Explanation {
        Explanation {
            kind: cell.kind,
            row: cell.row,
            col: cell.col,
            value,
            fraction: fraction_beside(value),
            sources,
            grid: None,
            elsewhere: Vec::new(),
            body,
        }
    }

    /// Names the source matrices in `elsewhere` (matrix, what) that this widget does
    /// not draw; a name no source has is left out.
    fn not_drawn(mut self, elsewhere: &[(&'static str, &'static str)]) -> Explanation {
        for &(matrix, what) in elsewhere {
            if self.sources.iter().any(|s| s.matrix == matrix) {
                self.elsewhere.push(Elsewhere { matrix, what });
            }
        }
        self
    }
}
