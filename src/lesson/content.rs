//! §3 The weights are computed from content, they are not parameters: the
//! same W_q, W_k, W_v give `hou` and `you` different attention weights.
//!
//! T = word length, C = 3 channels, d = head size. Letters: h, o, u are
//! one-hot (the lesson's x = identity(3)); y is our choice [1, 1, 0] (it
//! shares h's and o's features), since the one-hot vocabulary has no y.

use serde::Serialize;

use super::head_experiments::run_head;
use super::{clean_trace, fail, LessonError, TraceView};
use crate::attention::HeadWeights;
use crate::tensor::Matrix;

/// word over {h, o, u, y} -> x (T, 3): h, o, u one-hot, y = [1, 1, 0].
pub fn letters(word: &str) -> Result<Matrix, LessonError> {
    let rows: Result<Vec<[f64; 3]>, LessonError> = word
        .chars()
        .map(|c| match c {
            'h' => Ok([1.0, 0.0, 0.0]),
            'o' => Ok([0.0, 1.0, 0.0]),
            'u' => Ok([0.0, 0.0, 1.0]),
            'y' => Ok([1.0, 1.0, 0.0]),
            _ => fail!("lesson.content.no_vector", char = crate::error::quoted(c)),
        })
        .collect();
    let rows = rows?;
    if rows.is_empty() || rows.len() > 16 {
        return fail!("lesson.content.word");
    }
    Ok(Matrix::from_rows(&rows).expect("3 columns each"))
}

/// One word run through a head.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SequenceRun {
    pub word: String,
    pub x: Matrix,
    pub trace: TraceView,
}

/// Runs `word` (letters h, o, u, y) through the head w (C = 3).
pub fn run_word(
    word: &str,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
) -> Result<SequenceRun, LessonError> {
    let x = letters(word)?;
    let trace = clean_trace(run_head(&x, w, causal, scaled)?)?;
    Ok(SequenceRun {
        word: word.to_string(),
        x,
        trace,
    })
}

/// Two words through the same head: the weights come from content.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WordPair {
    pub a: SequenceRun,
    pub b: SequenceRun,
    /// max |weights_a − weights_b| over the cells both have (T = min of the two).
    pub weights_max_diff: f64,
}

/// Runs words a and b (letters h, o, u, y) through the same weights.
pub fn compare_words(
    a: &str,
    b: &str,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
) -> Result<WordPair, LessonError> {
    let (ra, rb) = (
        run_word(a, w, causal, scaled)?,
        run_word(b, w, causal, scaled)?,
    );
    let t = ra.x.rows.min(rb.x.rows);
    let (wa, wb) = (&ra.trace.weights, &rb.trace.weights);
    let weights_max_diff = (0..t)
        .flat_map(|i| (0..t).map(move |j| (wa.get(i, j) - wb.get(i, j)).abs()))
        .fold(0.0, f64::max);
    Ok(WordPair {
        a: ra,
        b: rb,
        weights_max_diff,
    })
}
