//! The hot loops, fast: matmuls with register tiles, exp and GELU without libm calls.
//!
//! Naive first, clever second, tested equal: `matmul_nn_naive` / `matmul_tn_naive` are the
//! reference loops, `tests/gpt_kernels.rs` holds the tiled ones equal to them.
//! Each kernel is one `#[inline(always)]` Rust body. On x86_64 the same body is also compiled
//! with AVX2+FMA and with AVX-512 and picked at run time (the crate builds for baseline
//! x86-64, SSE2 only); on wasm32 it compiles to simd128 (`.cargo/config.toml`).
//!
//! - `dispatch`: which instruction set runs, and the macro that compiles a body for each;
//! - `matmul`: the tiled matmuls on (strided) row-major views, and their naive twins;
//! - `matmul_nt`: C += A·Bᵀ on a weight as stored (out, in), for the inference pass;
//! - `simd128`: wasm's explicit f32x4 tiles (only compiled for wasm32), relaxed
//!   multiply-adds in the FMA build (`+relaxed-simd`);
//! - `simd128_elementwise`: wasm's f32x4 GELU forward and backward;
//! - `rows`: one row at a time: dot, sum, max, axpy, softmax;
//! - `elementwise`: exp, the normal CDF and density, GELU forward and backward.

mod dispatch;
mod elementwise;
mod matmul;
mod matmul_nt;
mod rows;
#[cfg(target_arch = "wasm32")]
mod simd128;
#[cfg(target_arch = "wasm32")]
mod simd128_elementwise;

#[cfg(target_arch = "x86_64")]
pub(crate) use dispatch::level; // for `dispatch!`, which only asks on x86_64
pub use dispatch::{available_levels, force_level, force_portable, simd_level};
pub(crate) use dispatch::{dispatch, kernel};
pub use elementwise::{exp, gelu, gelu_grad, normal_cdf, normal_pdf};
pub use matmul::{
    matmul_nn, matmul_nn_naive, matmul_nn_strided, matmul_tn, matmul_tn_naive, matmul_tn_strided,
    transpose, Strided, StridedMut,
};
pub(crate) use matmul::{nn_strided, tn_strided};
pub use matmul_nt::{matmul_nt, matmul_nt_naive};
pub use rows::{axpy, dot, exp_shifted, max, softmax, sum};
