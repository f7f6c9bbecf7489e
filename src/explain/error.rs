//! `ExplainError`: why a cell cannot be explained, as a stable code (`explain.out_of_range`)
//! and named params (`{ matrix, rows, cols, row, col }`), so that the page says it in the
//! learner's language (`err.<code>` in www/js/i18n/errors-explain.js). `Display` is the
//! English text of `MESSAGES` with the params filled in; the page's English table says
//! the same (tests/explain).

use std::fmt;

use super::{Kind, Scheme};
use crate::lesson::LessonError;

/// Every code and its English text; `{name}` is a param.
pub const MESSAGES: &[(&str, &str)] = &[
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

/// The English text of `code`.
pub fn template(code: &str) -> Option<&'static str> {
    MESSAGES.iter().find(|(c, _)| *c == code).map(|(_, t)| *t)
}

/// A shape or size that does not fit: a code of `MESSAGES` (`explain.shape.*`,
/// `explain.zero_sum.*`) and its params, numbers written as digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeCause {
    code: &'static str,
    params: Vec<(&'static str, String)>,
}

impl ShapeCause {
    pub fn new(code: &'static str, params: Vec<(&'static str, String)>) -> ShapeCause {
        debug_assert!(template(code).is_some(), "{code} is not in MESSAGES");
        ShapeCause { code, params }
    }
}

/// `ExplainError::Shape` of `code` with params written `name = value`.
macro_rules! shape_error {
    ($code:literal $(, $k:ident = $v:expr)* $(,)?) => {
        $crate::explain::ExplainError::Shape($crate::explain::ShapeCause::new(
            $code,
            vec![$((stringify!($k), $v.to_string())),*],
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
    /// The stable name of the page's string `err.<code>`; a `Lesson` error has the
    /// lesson's own (`lesson.error` until lesson errors have codes).
    pub fn code(&self) -> &'static str {
        match self {
            ExplainError::UnknownKind(_) => "explain.unknown_kind",
            ExplainError::UnknownScheme(_) => "explain.unknown_scheme",
            ExplainError::UnknownGrid(_) => "explain.unknown_grid",
            ExplainError::OutOfRange { .. } => "explain.out_of_range",
            ExplainError::NotInScheme { .. } => "explain.not_in_scheme",
            ExplainError::NoProjection(_) => "explain.no_projection",
            ExplainError::Shape(s) => s.code,
            ExplainError::NotHere { what, .. } => match *what {
                "probe" => "explain.not_here.probe",
                "normalise" => "explain.not_here.normalise",
                "position" => "explain.not_here.position",
                "exercise" => "explain.not_here.exercise",
                "wrong_axis" => "explain.not_here.wrong_axis",
                _ => "explain.not_here.head",
            },
            ExplainError::Lesson(_) => "lesson.error",
        }
    }

    /// The named params, as text.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let s = |v: &dyn ToString| v.to_string();
        match self {
            ExplainError::UnknownKind(name)
            | ExplainError::UnknownScheme(name)
            | ExplainError::UnknownGrid(name) => vec![("name", name.clone())],
            ExplainError::OutOfRange {
                kind,
                row,
                col,
                rows,
                cols,
            } => vec![
                ("matrix", s(&kind.name())),
                ("rows", s(rows)),
                ("cols", s(cols)),
                ("row", s(row)),
                ("col", s(col)),
            ],
            ExplainError::NotInScheme { scheme, kind } => {
                vec![("scheme", s(&scheme.name())), ("matrix", s(&kind.name()))]
            }
            ExplainError::NoProjection(kind) | ExplainError::NotHere { kind, .. } => {
                vec![("matrix", s(&kind.name()))]
            }
            ExplainError::Shape(c) => c.params.clone(),
            ExplainError::Lesson(e) => vec![("reason", e.to_string())],
        }
    }
}

impl fmt::Display for ExplainError {
    /// The English text: the template with every `{name}` replaced by its param.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ExplainError::Lesson(e) = self {
            return e.fmt(f);
        }
        let Some(mut rest) = template(self.code()) else {
            return write!(f, "{} {:?}", self.code(), self.params());
        };
        let params = self.params();
        while let Some(open) = rest.find('{') {
            f.write_str(&rest[..open])?;
            let after = &rest[open + 1..];
            let found = after.find('}').and_then(|c| {
                let name = &after[..c];
                params.iter().find(|(k, _)| *k == name).map(|(_, v)| (c, v))
            });
            match found {
                Some((c, v)) => {
                    f.write_str(v)?;
                    rest = &after[c + 1..];
                }
                None => {
                    f.write_str("{")?;
                    rest = after;
                }
            }
        }
        f.write_str(rest)
    }
}

impl std::error::Error for ExplainError {}

impl From<LessonError> for ExplainError {
    fn from(e: LessonError) -> ExplainError {
        ExplainError::Lesson(e)
    }
}
