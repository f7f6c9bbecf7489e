//! The GPT's kernels as compiled for the browser (`wasm-pack test --headless --chrome`),
//! run under both wasm builds (build.sh layer 2 and 2b): the explicit f32x4 tiles against
//! the naive triple loops, on sizes 0..11, odd and non-square shapes and strided views,
//! with NaN poison outside the region each kernel may write; GELU against f64; the tiny
//! GPT's logits, gradients and ten AdamW steps against PyTorch.
//!
//! The FMA build's `f32x4_relaxed_madd` may round once (fused) or twice (as simd128): a
//! tile cell of k products then differs from the naive loop's by at most ~k roundings of
//! the running sum, which `close`'s 1e-5·(k + 1)·max(|want|, 1) covers (f32's ulp is
//! 1.2e-7 relative), as it covers a different summation order. The fixture keeps
//! `tests/gpt_reference.rs`'s tolerances.
#![cfg(target_arch = "wasm32")]

mod gpt_util;
#[path = "gpt_util/kernels.rs"]
mod kernel_util;

use attention_playground::gpt::kernels::*;
use kernel_util::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SIZES: [usize; 17] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 17, 33, 41];

#[wasm_bindgen_test]
fn simd128_matmul_nn_equals_naive() {
    let want = if cfg!(target_feature = "relaxed-simd") {
        "wasm-relaxed-simd"
    } else {
        "wasm-simd128"
    };
    assert_eq!(simd_level(), want);
    check_matmul_nn(&SIZES, &[0, 1, 2, 3, 7, 16, 33], 1);
}

/// The inference pass's C += A·Bᵀ (GPT-2 in the page): its f32x4 tiles, their leftovers,
/// and k's tail past a multiple of 4.
#[wasm_bindgen_test]
fn simd128_matmul_nt_equals_naive() {
    check_matmul_nt(&SIZES, &[0, 1, 3, 4, 5, 8, 9, 33, 64], 4);
}

#[wasm_bindgen_test]
fn simd128_matmul_tn_equals_naive() {
    check_matmul_tn(&[0, 1, 2, 5, 16, 37], &SIZES, 2);
}

/// Attention's per-head views: the gaps stay NaN and never reach C.
#[wasm_bindgen_test]
fn simd128_strided_matmuls_equal_naive() {
    let sizes = [0, 1, 3, 4, 5, 8, 9, 11, 16, 17, 32];
    check_strided_matmuls(&sizes, &[0, 1, 4, 7, 16], 3);
}

/// GELU forward and backward within 1e-6 of the exact erf form on [−10, 10].
#[wasm_bindgen_test]
fn gelu_is_accurate() {
    check_gelu_accuracy(1e-6);
}

/// The tiny GPT from PyTorch's init: logits and loss (1e-5), every gradient (1e-4), ten
/// AdamW losses and the weights after them, as natively.
#[wasm_bindgen_test]
fn tiny_gpt_matches_pytorch() {
    gpt_util::reference::check_fixture("gpt_tiny", None);
}

/// GELU's fast loops equal the scalar formula's (every tail length, NaN poison).
#[wasm_bindgen_test]
fn gelu_equals_scalar_loop() {
    check_gelu_twin(5);
}

/// `gptProfile` on `performance.now()`: every op of a tiny step, named by this build.
#[wasm_bindgen_test]
fn gpt_profile_times_every_op_of_a_step() {
    use attention_playground::wasm::gpt::profile::{gpt_profile, gpt_simd_level};
    let get = |v: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).unwrap();
    let out = gpt_profile("tiny", 2).expect("the tiny preset profiles");
    let profile = get(&out, "profile");
    assert_eq!(get(&profile, "simd").as_string(), Some(gpt_simd_level()));
    assert_eq!(gpt_simd_level(), simd_level());
    let rows = js_sys::Array::from(&get(&profile, "rows"));
    assert_eq!(rows.length(), 19, "10 matmul rows, 9 others");
    for row in rows.iter() {
        let ms = get(&row, "ms").as_f64().expect("ms is a number");
        assert!(ms.is_finite() && ms >= 0.0, "{ms}");
    }
    let table = get(&out, "table").as_string().unwrap();
    assert!(
        table.starts_with("tiny (B=32, T=8, C=32, L=1), simd wasm-"),
        "{table}"
    );
    assert!(
        gpt_profile("huge", 1).is_err(),
        "an unknown preset is refused"
    );
}
