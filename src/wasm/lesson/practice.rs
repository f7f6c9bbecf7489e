//! §8 bindings: the exercises' numbers, the answer checker, quiz order.

use wasm_bindgen::prelude::*;

use super::reply;
use crate::lesson::answers::{check_answer, questions, quiz_order};
use crate::lesson::practice::{shift_values, weighted_output, wrong_axis};
use crate::wasm::to_js;

/// `weightedOutput([0, Math.LN2, 0], [2, 4, 10])` -> `{ scores, weights, values, output }`.
#[wasm_bindgen(js_name = weightedOutput)]
pub fn weighted_output_js(scores: Vec<f64>, values: Vec<f64>) -> Result<JsValue, JsValue> {
    reply(weighted_output(&scores, &values))
}

/// `wrongAxis(seed, B, T)` (B ≤ 4, T ≤ 16) -> `{ scores, right, wrong (lists of B
/// matrices), wrong_row_sums, wrong_col_sums, max_err }`.
#[wasm_bindgen(js_name = wrongAxis)]
pub fn wrong_axis_js(seed: u32, b: usize, t: usize) -> Result<JsValue, JsValue> {
    reply(wrong_axis(seed.into(), b, t))
}

/// `shiftValues(seed, T, d, c)` -> `{ c, out, out_shifted, max_err }`.
#[wasm_bindgen(js_name = shiftValues)]
pub fn shift_values_js(seed: u32, t: usize, d: usize, c: f64) -> Result<JsValue, JsValue> {
    reply(shift_values(seed.into(), t, d, c))
}

/// `checkAnswer("weights_ln2", "1/4, 1/2, 1/4")` -> `{ id, correct, given, expected,
/// exact, tolerance, wrong_positions, message }`; throws on text that is not numbers.
#[wasm_bindgen(js_name = checkAnswer)]
pub fn check_answer_js(id: &str, text: &str) -> Result<JsValue, JsValue> {
    reply(check_answer(id, text))
}

/// `practiceQuestions()` -> `[{ id, exact, expected, tolerance }]`.
#[wasm_bindgen(js_name = practiceQuestions)]
pub fn practice_questions() -> Result<JsValue, JsValue> {
    Ok(to_js(&questions())?)
}

/// `quizOrder(n, attempt)` -> a permutation of 0..n (n ≤ 16), fixed per attempt.
#[wasm_bindgen(js_name = quizOrder)]
pub fn quiz_order_js(n: usize, attempt: u32) -> Result<JsValue, JsValue> {
    reply(quiz_order(n, attempt.into()))
}
