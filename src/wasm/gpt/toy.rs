//! The text of "Text to learn: repeated random strings" (`gpt::toy::RepeatTask`, its
//! default: the page's preset), made by the core so that the page and `gpt train --toy
//! repeat` train on the very same characters. In the lesson's build too: the trainer's
//! settings ask the page's core for it, and show the learner its first lines.
//!
//!   gptRepeatText(seed) → string

use wasm_bindgen::prelude::*;

use crate::gpt::toy::RepeatTask;

/// The default task's text from `seed` (the CLI's default seed is 1337).
#[wasm_bindgen(js_name = gptRepeatText)]
pub fn gpt_repeat_text(seed: u32) -> Result<String, JsValue> {
    RepeatTask::default()
        .text(seed as u64)
        .map_err(|e| crate::wasm::thrown(&e))
}
