//! The per-op profile of one GPT training step in this browser's wasm (bench.html
//! `?profile=1`, `tools/bench_wasm.mjs --profile`): `gpt::profile` on `performance.now()`.
//!
//!   gptProfile(preset: string, reps: number) → { preset, table, profile: { b, t, c, l,
//!   simd, rows: [{ op, ms, gflops }], total_ms } }
//!
//! `table` is the text `gpt profile` prints natively, so no script formats the rows.
//!
//! `performance` is read from the global object, so it runs in a worker as on a page.

use crate::gpt::profile::{self, Profile};
use crate::gpt::Hyperparams;
use crate::wasm::{thrown, to_js};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// ms since the time origin of this page or worker (`performance.now()`).
fn performance_now() -> Result<impl FnMut() -> f64, JsValue> {
    let perf = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))?;
    let now: js_sys::Function = js_sys::Reflect::get(&perf, &JsValue::from_str("now"))?.into();
    Ok(move || {
        now.call0(&perf)
            .ok()
            .and_then(|t| t.as_f64())
            .unwrap_or(f64::NAN)
    })
}

#[derive(Serialize)]
struct Out<'a> {
    preset: &'a str,
    table: String,
    profile: Profile,
}

/// Every op of one training step of `preset` (vocab 65) timed alone, the fastest of
/// `reps` calls each (see `gpt::profile::Profile`); an unknown preset is refused.
#[wasm_bindgen(js_name = gptProfile)]
pub fn gpt_profile(preset: &str, reps: u32) -> Result<JsValue, JsValue> {
    let hp = Hyperparams::preset(preset).map_err(|e| thrown(&e))?;
    let mut clock = performance_now()?;
    let profile = profile::profile(&hp, reps as usize, &mut clock).map_err(|e| thrown(&e))?;
    let table = profile.table(preset);
    Ok(to_js(&Out {
        preset,
        table,
        profile,
    })?)
}

/// Which instruction set the GPT's kernels were built for: "wasm-relaxed-simd" (the FMA
/// build, www/pkg-fma/) or "wasm-simd128" (www/pkg/).
#[wasm_bindgen(js_name = gptSimdLevel)]
pub fn gpt_simd_level() -> String {
    crate::gpt::kernels::simd_level().to_string()
}

#[derive(Serialize)]
struct AttentionBench {
    op: &'static str,
    t: u32,
    d: u32,
    ms_median: f64,
    iters: u32,
    engine: &'static str,
    simd: &'static str,
}

/// The causal attention forward alone (one head, T = `t`, head size `d`): the median ms
/// of `iters` timings (`gpt::profile::attention_forward_ms`), as `tools/gpt_torch.py
/// bench-attention` prints PyTorch's. Sizes outside 1..=1024 are refused.
#[wasm_bindgen(js_name = gptAttentionBench)]
pub fn gpt_attention_bench(t: u32, d: u32, iters: u32) -> Result<JsValue, JsValue> {
    if !(1..=1024).contains(&t) || !(1..=1024).contains(&d) {
        return Err(JsError::new("t and d must be between 1 and 1024").into());
    }
    let mut clock = performance_now()?;
    let ms_median =
        profile::attention_forward_ms(t as usize, d as usize, iters as usize, &mut clock);
    Ok(to_js(&AttentionBench {
        op: "attention forward (causal)",
        t,
        d,
        ms_median,
        iters,
        engine: "rust-wasm",
        simd: crate::gpt::kernels::simd_level(),
    })?)
}
