//! §8 Practice, the learner's side: typed answers judged against the exact
//! value, and the quiz's option order for each retake.
//!
//! Expected answers are computed by the core (never typed in twice) and
//! compared at the lesson's printed rounding (the question's tolerance).

use serde::Serialize;

use super::portable_draws::Rng;
use super::practice::weighted_output;
use super::{check_count, fail, LessonError, MAX_SIDE};
use crate::parse::parse_number;
use crate::tensor::softmax_row;

/// The exercises of §8, with the numbers the page shows after an answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Question {
    pub id: &'static str,
    /// The exact answer as the lesson writes it.
    pub exact: String,
    pub expected: Vec<f64>,
    /// |given − expected| ≤ tolerance counts as right (the printed rounding).
    pub tolerance: f64,
}

/// Every question the checker knows, its expected numbers computed here.
pub fn questions() -> Vec<Question> {
    let ln2 = weighted_output(&[0.0, 2f64.ln(), 0.0], &[2.0, 4.0, 10.0]).expect("fixed");
    let shifted = weighted_output(&ln2.scores, &[5.0, 7.0, 13.0]).expect("fixed");
    let masked = softmax_row(&[2.0, -1.0, 3.0, f64::NEG_INFINITY]).expect("fixed");
    let params = super::bigram::param_counts(65, 32).expect("fixed");
    let q = |id, exact: &str, expected: Vec<f64>, tolerance| Question {
        id,
        exact: exact.to_string(),
        expected,
        tolerance,
    };
    vec![
        q("weights_ln2", "[1/4, 1/2, 1/4]", ln2.weights, 0.005),
        q("output_ln2", "5", vec![ln2.output], 0.005),
        q("shift_c", "5 + 3 = 8", vec![shifted.output], 0.005),
        q("masked_softmax", "[0.27, 0.01, 0.72, 0]", masked, 0.005),
        q(
            "params_split",
            "65·32 + 32·65 + 65 = 4225",
            vec![params.split as f64],
            0.5,
        ),
        q(
            "initial_loss",
            "ln 65 = 4.17",
            vec![params.initial_loss],
            0.005,
        ),
        q("var_dk_64", "64", vec![64.0], 0.5),
        q("std_512", "√512 ≈ 22.6", vec![512f64.sqrt()], 0.7),
        q("loop_iterations", "64 · 256 = 16384", vec![16384.0], 0.5),
    ]
}

/// A typed answer judged against the exact value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerCheck {
    pub id: &'static str,
    pub correct: bool,
    pub given: Vec<f64>,
    pub expected: Vec<f64>,
    pub exact: String,
    pub tolerance: f64,
    /// Indices of the numbers that are off.
    pub wrong_positions: Vec<usize>,
    pub message: String,
}

/// Splits "1/4, 1/2, 1/4", "[0.25 0.5 0.25]" or "0,25; 0,5" into numbers
/// (`;` separates when present, else commas and spaces; `a / b` is one number).
pub fn parse_numbers(text: &str) -> Result<Vec<f64>, LessonError> {
    let cleaned: String = text
        .chars()
        .map(|c| {
            if matches!(c, '[' | ']' | '(' | ')') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let cleaned = cleaned
        .split('/')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("/");
    let parts: Vec<&str> = if cleaned.contains(';') {
        cleaned.split(';').collect()
    } else {
        cleaned
            .split(|c: char| c == ',' || c.is_whitespace())
            .collect()
    };
    let parts: Vec<&str> = parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return fail!("lesson.answer.empty");
    }
    check_count("lesson.size.numbers", parts.len(), MAX_SIDE)?;
    parts
        .iter()
        .map(|p| parse_number(p).map_err(LessonError::from))
        .collect()
}

/// Judges `text` for question `id`: right when every number is within the tolerance.
pub fn check_answer(id: &str, text: &str) -> Result<AnswerCheck, LessonError> {
    let Some(q) = questions().into_iter().find(|q| q.id == id) else {
        let ids: Vec<&str> = questions().iter().map(|q| q.id).collect();
        return fail!("lesson.answer.unknown_question", id, ids = ids.join(", "));
    };
    // A lone number may use a decimal comma ("4,17"); lists are split first.
    let lone = text
        .trim()
        .trim_matches(|c| matches!(c, '[' | ']' | '(' | ')'));
    let given = match (q.expected.len(), parse_number(lone)) {
        (1, Ok(v)) => vec![v],
        _ => parse_numbers(text)?,
    };
    let wrong_positions: Vec<usize> = if given.len() == q.expected.len() {
        (0..given.len())
            .filter(|&i| (given[i] - q.expected[i]).abs() > q.tolerance + 1e-12)
            .collect()
    } else {
        (0..q.expected.len()).collect()
    };
    let correct = given.len() == q.expected.len() && wrong_positions.is_empty();
    let message = if correct {
        format!("right: {}", q.exact)
    } else if given.len() != q.expected.len() {
        format!(
            "the answer has {} number(s), you typed {}; it is {}",
            q.expected.len(),
            given.len(),
            q.exact
        )
    } else {
        format!("not quite: the answer is {}", q.exact)
    };
    Ok(AnswerCheck {
        id: q.id,
        correct,
        given,
        expected: q.expected,
        exact: q.exact,
        tolerance: q.tolerance,
        wrong_positions,
        message,
    })
}

/// The order to show n quiz options on retake number `attempt` (a permutation of 0..n).
pub fn quiz_order(n: usize, attempt: u64) -> Result<Vec<usize>, LessonError> {
    check_count("lesson.size.options", n, 16)?;
    Ok(Rng::new(attempt.wrapping_mul(0x2545_F491_4F6C_DD1D)).permutation(n))
}
