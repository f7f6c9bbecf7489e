//! `ExplainError`: why a cell cannot be explained, as a stable code (`explain.out_of_range`)
//! and named params (`{ matrix, rows, cols, row, col }`), so that the page says it in the
//! learner's language (`err.<code>`; the Chinese in www/js/i18n/errors-explain.js).
//! `Display` is the English text of `MESSAGES` with the params filled in; the page's
//! English table is generated from `MESSAGES` (tools/error-tables.mjs).

use std::fmt;

use super::{Kind, Scheme};
use crate::error::{Coded, Domain, Messages, Param};
use crate::lesson::error::{MESSAGES as LESSON_MESSAGES, NUMBER_MESSAGES};
use crate::lesson::LessonError;
use crate::tensor::SHAPE_MESSAGES;

/// Every code and its English text; `{name}` is a param.
pub const MESSAGES: Messages = &[
    ("explain.unknown_kind", "unknown matrix “{name}”: use q, k, v, scores, masked_scores, weights or out"),
    ("explain.unknown_scheme", "unknown scheme “{name}”: use loop, matrix or softmax"),
    ("explain.unknown_grid", "unknown grid “{name}”: use masked_before, masked_after, unmasked_before or unmasked_after"),
    ("explain.out_of_range", "{matrix} is {rows}×{cols}: there is no cell ({row}, {col})"),
    ("explain.not_in_scheme", "the {scheme} scheme has no {matrix} matrix"),
    ("explain.no_projection", "{matrix} cannot be explained here: the head's inputs and weights are not known"),
    // A widget asked for a matrix it does not draw.
    ("explain.not_here.head", "an attention head has no {matrix} matrix to explain"),
    ("explain.not_here.probe", "the head probe has no {matrix} matrix to explain"),
    ("explain.not_here.normalise", "the normalising widget has no {matrix} matrix to explain"),
    ("explain.not_here.position", "the position table has no {matrix} matrix to explain"),
    ("explain.not_here.exercise", "the exercise has no {matrix} matrix to explain"),
    ("explain.not_here.wrong_axis", "the wrong-axis exercise has no {matrix} matrix to explain"),
    // Shapes that do not fit together (`Shape`).
    ("explain.shape.head_size", "q has {d} columns but k has {d_k}: q and k need the same head size"),
    ("explain.shape.values", "k has {t_in} rows but v has {t_v}"),
    ("explain.shape.mask", "the mask is {rows}×{cols} but scores are {t_out}×{t_in}"),
    ("explain.shape.projection", "{x} ({t}×{c}) times {w}ᵀ ({d}×{c_w}) does not give a {rows}×{cols} matrix"),
    ("explain.shape.drawn", "the stored masked_scores, weights and out are {got}, expected {want}"),
    ("explain.shape.window", "a {rows}×{cols} window at offset {offset} with row stride {stride} does not fit in {len} numbers"),
    ("explain.shape.keepdim_square", "the keepdim trap needs a square matrix, not {rows}×{cols}"),
    ("explain.shape.size", "{name} must be 1 to {max}, got {n}"),
    ("explain.shape.no_batch", "there are {b} batches: no batch {batch}"),
    ("explain.zero_sum.row", "row {i} of A sums to 0: this matrix is not drawn"),
    ("explain.zero_sum.column", "column {i} of A sums to 0: this matrix is not drawn"),
    ("explain.zero_sum.all", "A sums to 0: this matrix is not drawn"),
];

/// The explanations' domain: their own codes, and those of the lesson functions they
/// call, whose errors they pass on as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explain;

impl Domain for Explain {
    const TABLES: &'static [Messages] =
        &[MESSAGES, LESSON_MESSAGES, SHAPE_MESSAGES, NUMBER_MESSAGES];
}

/// A shape or size that does not fit: a code of `MESSAGES` (`explain.shape.*`,
/// `explain.zero_sum.*`) and its params.
pub type ShapeCause = Coded<Explain>;

/// `ExplainError::Shape` of `code` with params written `name = value`.
macro_rules! shape_error {
    ($($arg:tt)*) => {
        $crate::explain::ExplainError::Shape($crate::error::coded!(
            $crate::explain::ShapeCause,
            $($arg)*
        ))
    };
}
pub(crate) use shape_error;

/// Why a cell cannot be explained; `Display` is the learner-facing message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainError {
    UnknownKind(String),
    UnknownScheme(String),
    UnknownGrid(String),
    OutOfRange {
        kind: Kind,
        row: usize,
        col: usize,
        rows: usize,
        cols: usize,
    },
    /// This scheme draws no such matrix.
    NotInScheme {
        scheme: Scheme,
        kind: Kind,
    },
    /// q, k or v was asked of a head whose inputs and weights are not known.
    NoProjection(Kind),
    Shape(ShapeCause),
    /// The widget (`what`: "head", "probe", "normalise", "position", "exercise",
    /// "wrong_axis") draws no such matrix.
    NotHere {
        kind: Kind,
        what: &'static str,
    },
    /// The lesson function the widget drew with refused the arguments.
    Lesson(LessonError),
}

impl ExplainError {
    /// The error as the crate's one coded error: a code of `Explain::TABLES` and named
    /// params; a `Lesson` error keeps the lesson's own code.
    pub fn coded(&self) -> Coded<Explain> {
        let text = |v: &dyn ToString| Param::Text(v.to_string());
        let (code, params) = match self {
            ExplainError::Shape(c) => return c.clone(),
            ExplainError::Lesson(e) => return e.coded().clone().into_domain(),
            ExplainError::UnknownKind(name) => ("explain.unknown_kind", vec![("name", text(name))]),
            ExplainError::UnknownScheme(name) => {
                ("explain.unknown_scheme", vec![("name", text(name))])
            }
            ExplainError::UnknownGrid(name) => ("explain.unknown_grid", vec![("name", text(name))]),
            ExplainError::OutOfRange {
                kind,
                row,
                col,
                rows,
                cols,
            } => (
                "explain.out_of_range",
                vec![
                    ("matrix", text(&kind.name())),
                    ("rows", text(rows)),
                    ("cols", text(cols)),
                    ("row", text(row)),
                    ("col", text(col)),
                ],
            ),
            ExplainError::NotInScheme { scheme, kind } => (
                "explain.not_in_scheme",
                vec![
                    ("scheme", text(&scheme.name())),
                    ("matrix", text(&kind.name())),
                ],
            ),
            ExplainError::NoProjection(kind) => (
                "explain.no_projection",
                vec![("matrix", text(&kind.name()))],
            ),
            ExplainError::NotHere { kind, what } => {
                let code = match *what {
                    "probe" => "explain.not_here.probe",
                    "normalise" => "explain.not_here.normalise",
                    "position" => "explain.not_here.position",
                    "exercise" => "explain.not_here.exercise",
                    "wrong_axis" => "explain.not_here.wrong_axis",
                    _ => "explain.not_here.head",
                };
                (code, vec![("matrix", text(&kind.name()))])
            }
        };
        Coded::new(code, params)
    }

    /// The stable name of the page's string `err.<code>`.
    pub fn code(&self) -> &'static str {
        self.coded().code()
    }

    /// The named params, as English text.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let coded = self.coded();
        coded
            .params()
            .iter()
            .map(|(k, v)| (*k, v.to_string()))
            .collect()
    }
}

impl fmt::Display for ExplainError {
    /// The English text of the code with the params filled in.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.coded().fmt(f)
    }
}

impl std::error::Error for ExplainError {}

impl From<LessonError> for ExplainError {
    fn from(e: LessonError) -> ExplainError {
        ExplainError::Lesson(e)
    }
}
