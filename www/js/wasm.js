// Loads the lesson's Rust core (WebAssembly, www/pkg/: every export but the GPT's, which
// only the GPT's workers load from www/pkg-gpt*/, see wasm-build.js) once and hands out
// its exports.
// The .wasm file is found next to the generated glue, relative to this module,
// so the page works from any folder of any static server.

import init, * as core from '../pkg/attention_playground.js';

let ready = null;

/** Resolves to the wasm-bindgen module (HeadLab, parseNumber, …) once initialised. */
export function loadCore() {
  ready ??= init().then(() => core);
  return ready;
}
