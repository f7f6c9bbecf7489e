// The lesson's core (www/pkg/, built by build.sh) in Node, for the build-time tools.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PKG = fileURLToPath(new URL('../www/pkg/', import.meta.url));

/** The wasm-bindgen module of www/pkg/, initialised. */
export async function nodeCore() {
  const core = await import(pathToFileURL(path.join(PKG, 'attention_playground.js')).href);
  core.initSync({ module: readFileSync(path.join(PKG, 'attention_playground_bg.wasm')) });
  return core;
}
