//! `GptLab.stateBytes` / `GptLab.fromState` in a real browser: a run saved at step k and
//! restored continues with bit-identical losses; bytes that are not a state are refused.
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::gpt::GptLab;
use wasm_bindgen_test::*;
use web_util::message;

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

fn corpus() -> String {
    "the cat sat. a dog ran! 夏 🙂\n".repeat(60)
}

const SMALL_TINY: &str =
    r#"{"preset": "tiny", "n_embd": 16, "n_head": 2, "batch_size": 8, "lr": 0.01}"#;

fn bits(v: Vec<f32>) -> Vec<u32> {
    v.into_iter().map(f32::to_bits).collect()
}

#[wasm_bindgen_test]
fn a_restored_run_continues_bit_for_bit() {
    let text = corpus();
    let mut whole = GptLab::new(SMALL_TINY, &text, 5).unwrap();
    whole.step(7).unwrap();
    let saved = whole.state_bytes();
    let want = bits(whole.step(9).unwrap());
    let mut resumed = GptLab::from_state(&saved, &text).unwrap();
    assert_eq!(resumed.steps(), 7.0);
    assert_eq!(bits(resumed.step(9).unwrap()), want);
    assert_eq!(resumed.to_bytes(), whole.to_bytes());
}

#[wasm_bindgen_test]
fn bytes_that_are_not_a_state_are_refused() {
    let text = corpus();
    let lab = GptLab::new(SMALL_TINY, &text, 5).unwrap();
    assert!(
        message(GptLab::from_state(&lab.to_bytes(), &text)).contains("not a saved training state")
    );
    let state = lab.state_bytes();
    assert!(message(GptLab::from_state(&state[..state.len() / 2], &text)).contains("expected"));
    assert!(message(GptLab::from_state(&state, "")).contains("empty"));
}
