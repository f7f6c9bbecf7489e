//! `checkpointInfo` (src/wasm/gpt/files.rs) in a real browser: what the page learns of a
//! picked file before the worker loads it. Real checkpoints and damaged copies of them
//! begin as safetensors files do (the loader then names the damage); images, texts, empty
//! files and a saved training state do not, and the loader refuses every one of them too.
//! A saved training state, and only it, begins as one (the page trains on from its step).
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::gpt::files::checkpoint_info;
use attention_playground::wasm::gpt::GptLab;
use serde::Deserialize;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

const FIXTURES: [(&str, &[u8]); 4] = [
    ("init", include_bytes!("fixtures/gpt_tiny/init.safetensors")),
    (
        "after",
        include_bytes!("fixtures/gpt_tiny/after.safetensors"),
    ),
    (
        "trained",
        include_bytes!("fixtures/gpt_tiny/trained.safetensors"),
    ),
    (
        "grads",
        include_bytes!("fixtures/gpt_tiny/grads.safetensors"),
    ),
];

#[derive(Deserialize, Debug, PartialEq)]
struct Info {
    bytes: u32,
    safetensors: bool,
    state: bool,
}

/// Asserts that `checkpointInfo(bytes)` is `{ bytes: bytes.len(), safetensors, state }`.
fn assert_info(name: &str, bytes: &[u8], safetensors: bool, state: bool) {
    let js = checkpoint_info(&js_sys::Uint8Array::from(bytes)).expect("checkpointInfo never fails");
    let info: Info = web_util::from_value(js).expect("{ bytes, safetensors, state }");
    let expected = Info {
        bytes: bytes.len() as u32,
        safetensors,
        state,
    };
    assert_eq!(info, expected, "{name}");
}

/// The `code` of the loader's error for `bytes` (None when it loads).
fn load_code(bytes: &[u8]) -> Option<String> {
    let err = GptLab::from_bytes(bytes, None, None, 1).err()?;
    let code = js_sys::Reflect::get(&err, &JsValue::from_str("code")).expect("a coded error");
    Some(code.as_string().expect("code is a string"))
}

#[wasm_bindgen_test]
fn real_checkpoints_are_safetensors() {
    for (name, bytes) in FIXTURES {
        assert_info(name, bytes, true, false);
    }
    assert_eq!(load_code(FIXTURES[0].1), None, "init.safetensors loads");
}

#[wasm_bindgen_test]
fn damaged_checkpoints_are_safetensors_the_loader_refuses() {
    let good = FIXTURES[0].1;
    let mut corrupt = good.to_vec();
    corrupt[20..60].fill(0xff); // inside the JSON header
    let mut no_tensors = 2u64.to_le_bytes().to_vec();
    no_tensors.extend_from_slice(b"{}"); // a valid safetensors file without a model
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "truncated",
            &good[..good.len() / 2],
            "gpt.checkpoint.not_safetensors",
        ),
        ("header cut", &good[..100], "gpt.checkpoint.not_safetensors"),
        ("nine bytes", &good[..9], "gpt.checkpoint.not_safetensors"),
        ("corrupt header", &corrupt, "gpt.checkpoint.not_safetensors"),
        ("no tensors", &no_tensors, "gpt.checkpoint.no_metadata"),
    ];
    for (name, bytes, code) in cases {
        assert_info(name, bytes, true, false);
        assert_eq!(load_code(bytes).as_deref(), Some(code), "{name}");
    }
}

#[wasm_bindgen_test]
fn other_files_are_not_safetensors_and_do_not_load() {
    let png = [
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44,
        0x52,
    ];
    let text = "just some words, not weights\n".repeat(50);
    let mut lab = GptLab::new(r#"{"preset": "tiny", "n_embd": 16, "n_head": 2}"#, &text, 1)
        .expect("a tiny model on the text");
    lab.step(3).expect("three steps");
    let state = lab.state_bytes();
    let cases: [(&str, &[u8], bool); 7] = [
        ("empty", &[], false),
        ("eight bytes", &FIXTURES[0].1[..8], false),
        ("png", &png, false),
        ("text", text.as_bytes(), false),
        ("a saved training state", &state, true),
        ("a state's magic cut short", &state[..7], false),
        ("a brace one byte late", b"\x02\0\0\0\0\0\0\0 {}", false),
    ];
    for (name, bytes, is_state) in cases {
        assert_info(name, bytes, false, is_state);
        assert!(
            load_code(bytes).is_some(),
            "{name}: the loader refuses it too"
        );
    }
    // what begins as a state is one: the state loader takes it back, at its step
    let back = GptLab::from_state(&state, &text).expect("the state loads");
    assert_eq!(back.steps(), 3.0, "at the step it was saved");
    assert!(
        GptLab::from_state(&state[..state.len() / 2], &text).is_err(),
        "a cut state is refused"
    );
}
