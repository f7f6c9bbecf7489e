// Which of the two GPT wasm builds this browser runs (both built by build.sh; the lesson
// widgets load neither, only www/pkg/, see wasm.js):
// pkg-gpt-fma/ uses relaxed SIMD (fused multiply-add in the GPT's f32 kernels: Chromium ≥ 114,
// Firefox ≥ 146), pkg-gpt/ plain simd128 (everywhere else, Safari included). A 40-byte probe
// module holding one f32x4.relaxed_madd tells them apart, as ONNX Runtime Web does.
// The lesson's f64 numbers come from the same code in both: no relaxed op touches them.

// (module (func (result v128) (f32x4.relaxed_madd (i32x4.splat (i32.const 1)) … ×3)))
const RELAXED_MADD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17, 0,
  65, 1, 253, 17, 65, 1, 253, 17, 65, 1, 253, 17, 253, 133, 2, 11,
]);

// Each build's JS glue and its wasm, by literal URLs: a bundler that takes these modules (the
// npm package in a Vite or webpack site) emits both files and rewrites the URLs. The wasm is
// handed to the glue (its own URL for it, relative to itself, is not one a bundler sees).
const MODULES = {
  fma: new URL('../../pkg-gpt-fma/attention_playground.js', import.meta.url).href,
  simd128: new URL('../../pkg-gpt/attention_playground.js', import.meta.url).href,
};
const WASM = {
  fma: new URL('../../pkg-gpt-fma/attention_playground_bg.wasm', import.meta.url).href,
  simd128: new URL('../../pkg-gpt/attention_playground_bg.wasm', import.meta.url).href,
};

/** Imports build `b`'s glue (by URL: a bundler must leave the import alone) and starts its
 *  wasm; resolves to the glue module's exports. */
export async function startBuild(b) {
  const wasm = await import(/* webpackIgnore: true */ /* @vite-ignore */ b.module);
  await wasm.default({ module_or_path: b.wasmUrl });
  return wasm;
}

/** True when this engine validates relaxed SIMD's f32x4.relaxed_madd. */
export function hasRelaxedSimd() {
  try {
    return WebAssembly.validate(RELAXED_MADD_PROBE);
  } catch {
    return false;
  }
}

/** { name: 'fma' | 'simd128', module: URL of its JS glue, wasmUrl: of its wasm }: `forced`
 *  ('fma', 'simd128') when given and runnable, else the fastest this browser runs. */
export function pickBuild(forced) {
  const name = forced === 'simd128' || !hasRelaxedSimd() ? 'simd128' : 'fma';
  return { name, module: MODULES[name], wasmUrl: WASM[name] };
}

/** Build `name` as pickBuild gives it, runnable here or not (the bench page times both). */
export const buildNamed = (name) => ({ name, module: MODULES[name], wasmUrl: WASM[name] });
export const BUILD_NAMES = Object.keys(MODULES);

/** Imports and starts the build pickBuild(forced) names; falls back to simd128 if the FMA
 *  build is missing (a site that copied pkg-gpt/ only) or fails to start. Resolves to
 *  { name, module, wasm } (wasm: the module's exports). */
export async function loadBuild(forced) {
  const build = pickBuild(forced);
  try {
    const wasm = await startBuild(build);
    return { ...build, wasm };
  } catch (err) {
    if (build.name === 'simd128') throw err;
    return loadBuild('simd128');
  }
}
