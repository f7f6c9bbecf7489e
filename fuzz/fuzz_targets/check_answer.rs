//! §8's typed answers: `parse_numbers` and `check_answer` (any question id, any text)
//! return a verdict or an Err with a message, never panic; the quiz order is a permutation.
//! Input: byte q (question, or an unknown id when ≥ 200), then the typed UTF-8 text.
#![no_main]

use attention_playground::lesson::answers::{check_answer, parse_numbers, questions, quiz_order};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&q, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(v) = parse_numbers(text) {
        assert!(!v.is_empty() && v.iter().all(|x| x.is_finite()));
    }
    let qs = questions();
    let id = if q >= 200 {
        text
    } else {
        qs[q as usize % qs.len()].id
    };
    if let Ok(check) = check_answer(id, text) {
        let same_len = check.given.len() == check.expected.len();
        assert_eq!(check.correct, same_len && check.wrong_positions.is_empty());
    }
    if let Ok(order) = quiz_order(q as usize % 20, text.len() as u64) {
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..q as usize % 20).collect::<Vec<_>>());
    }
});
