// Loads the lesson's Rust core (WebAssembly, www/pkg/: every export but the GPT's, which
// only the GPT's workers load from www/pkg-gpt*/, see wasm-build.js) once and hands out
// its exports.
// The .wasm file is found next to the generated glue, relative to this module,
// so the page works from any folder of any static server.

import init, * as core from '../../pkg/attention_playground.js';

let ready = null;
let bytes = null;

/** Resolves to the wasm-bindgen module (HeadLab, parseNumber, …) once initialised. */
export function loadCore() {
  ready ??= init(bytes ? { module_or_path: bytes } : undefined).then(() => core);
  return ready;
}

/** The core's .wasm as bytes, for a host where this module has no URL to find it by (the
 *  notebook ESM, imported from a blob: URL); called before the first loadCore(). */
export function provideCore(wasm) {
  bytes = wasm;
}
