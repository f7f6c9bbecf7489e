//! The GPT's matmul kernels as compiled for the browser (`wasm-pack test --headless
//! --chrome`): the explicit simd128 f32x4 tiles against the naive triple loops, on sizes
//! 0..11, odd and non-square shapes and strided views, with NaN poison outside the region
//! each kernel may write.
#![cfg(target_arch = "wasm32")]

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
