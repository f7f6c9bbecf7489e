//! The tiled matmuls against the naive triple loops (every instruction set this CPU has:
//! AVX-512, AVX2, then the portable body), on sizes 0..11, odd and non-square shapes, also
//! on strided views, with NaN poison outside the written region; exp and the normal CDF
//! against f64.

#[path = "gpt_util/kernels.rs"]
mod kernel_util;

use attention_playground::gpt::kernels::{self, *};
use attention_playground::gpt::naive;
use kernel_util::*;

#[test]
fn matmul_nn_equals_naive() {
    let sizes: Vec<usize> = (0..12).chain([13, 17, 31, 33, 65, 97]).collect();
    check_matmul_nn(&sizes, &[0, 1, 2, 3, 7, 16, 33], 1);
}

#[test]
fn matmul_nt_equals_naive() {
    let sizes: Vec<usize> = (0..10).chain([12, 13, 17, 31]).collect();
    check_matmul_nt(&sizes, &[0, 1, 3, 4, 8, 9, 33, 64], 4);
}

#[test]
fn matmul_tn_equals_naive() {
    let sizes: Vec<usize> = (0..12).chain([13, 17, 31, 33, 65]).collect();
    check_matmul_tn(&[0, 1, 2, 5, 16, 37], &sizes, 2);
}

/// The strided views (attention's heads inside qkv) against the naive loops on copies;
/// the NaN gaps between rows stay NaN and never reach C.
#[test]
fn strided_matmuls_equal_naive() {
    let sizes = [0, 1, 2, 3, 5, 8, 9, 11, 16, 17, 32, 33, 41];
    check_strided_matmuls(&sizes, &[0, 1, 4, 7, 16, 32], 3);
}

#[test]
fn identity_matmul_copies() {
    let n = 9;
    let eye: Vec<f32> = (0..n * n)
        .map(|i| if i / n == i % n { 1.0 } else { 0.0 })
        .collect();
    let a: Vec<f32> = (0..n * n).map(|i| i as f32 - 40.0).collect();
    both_levels(|level| {
        let mut c = vec![0.0; n * n];
        matmul_nn(&mut c, &a, &eye, n, n, n);
        assert_eq!(c, a, "A @ I = A ({level})");
    });
}

#[test]
fn exp_is_accurate() {
    let mut worst = 0.0f64;
    for i in -870_000..=880_000 {
        let x = i as f32 * 1e-4;
        let want = (x as f64).exp();
        let rel = ((kernels::exp(x) as f64 - want) / want).abs();
        worst = worst.max(rel);
    }
    assert!(worst < 3e-7, "exp max relative error {worst:e}");
    assert_eq!(kernels::exp(f32::NEG_INFINITY), 0.0);
    assert_eq!(kernels::exp(-100.0), 0.0);
    assert_eq!(kernels::exp(0.0), 1.0);
}

/// Φ(x) against the f64 reference `naive::normal_cdf` (erfc by its Taylor series and
/// continued fraction).
#[test]
fn normal_cdf_is_accurate() {
    let mut worst = 0.0f64;
    for i in -6000..=6000 {
        let x = i as f32 * 1e-3;
        let want = naive::normal_cdf(x as f64);
        let got = kernels::normal_cdf(x) as f64;
        // GELU = x·Φ(x) adds to activations of order 1: the absolute error is what counts
        // (in the far tail f32's rounding of z² alone makes the relative error ~1e-6)
        worst = worst.max((got - want).abs());
    }
    assert!(worst < 2e-7, "Φ max absolute error {worst:e}");
}

/// GELU within 1e-6 of the exact erf form on [−10, 10], forward and backward.
#[test]
fn gelu_is_accurate() {
    both_levels(|_| check_gelu_accuracy(1e-6));
}

/// GELU's fast loops equal the scalar formula's (every tail length, NaN poison).
#[test]
fn gelu_equals_scalar_loop() {
    check_gelu_twin(5);
}
