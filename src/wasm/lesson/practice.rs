//! §8 bindings: the exercises' numbers, the answer checker, quiz order.

use crate::lesson::answers::{check_answer, questions, quiz_order};
use crate::lesson::practice::{shift_values, weighted_output, wrong_axis};

exports! {
    #[doc = " `weightedOutput([0, Math.LN2, 0], [2, 4, 10])` -> `{ scores, weights, values, output }`."]
    weightedOutput = fn weighted_output_js(scores: Vec<f64>, values: Vec<f64>)
        => weighted_output(&scores, &values);

    #[doc = " `wrongAxis(seed, B, T)` (B ≤ 4, T ≤ 16) -> `{ scores, right, wrong (lists of B"]
    #[doc = " matrices), wrong_row_sums, wrong_col_sums, max_err }`."]
    wrongAxis = fn wrong_axis_js(seed: u32, b: usize, t: usize) => wrong_axis(seed.into(), b, t);

    #[doc = " `shiftValues(seed, T, d, c)` -> `{ c, out, out_shifted, max_err }`."]
    shiftValues = fn shift_values_js(seed: u32, t: usize, d: usize, c: f64)
        => shift_values(seed.into(), t, d, c);

    #[doc = " `checkAnswer(\"weights_ln2\", \"1/4, 1/2, 1/4\")` -> `{ id, correct, given, expected,"]
    #[doc = " exact, tolerance, wrong_positions, message }`; throws on text that is not numbers."]
    checkAnswer = fn check_answer_js(id: &str, text: &str) => check_answer(id, text);

    #[doc = " `practiceQuestions()` -> `[{ id, exact, expected, tolerance }]`."]
    practiceQuestions = fn practice_questions() => Ok(questions());

    #[doc = " `quizOrder(n, attempt)` -> a permutation of 0..n (n ≤ 16), fixed per attempt."]
    quizOrder = fn quiz_order_js(n: usize, attempt: u32) => quiz_order(n, attempt.into());
}
