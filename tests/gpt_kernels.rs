//! The tiled matmuls against the naive triple loops (every instruction set this CPU has:
//! AVX-512, AVX2, then the portable body), on sizes 0..11, odd and non-square shapes, also
//! on strided views, with NaN poison outside the written region; exp and the normal CDF
//! against f64.

use attention_playground::gpt::kernels::{self, *};
use attention_playground::gpt::Rng;
use std::sync::Mutex;

fn random(n: usize, rng: &mut Rng) -> Vec<f32> {
    (0..n).map(|_| rng.normal(0.0, 1.0)).collect()
}

/// The instruction set is one process-wide setting and the tests run on parallel
/// threads: each pass over the levels holds this lock, or a test on another thread
/// switches the level under it (seen: "avx2+fma" asserted while "avx512" was set).
static LEVEL: Mutex<()> = Mutex::new(());

/// Runs `f` with every instruction set this CPU has (AVX-512, AVX2, portable).
fn both_levels(mut f: impl FnMut(&str)) {
    let _only_us = LEVEL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for level in kernels::available_levels() {
        assert!(kernels::force_level(level));
        assert_eq!(kernels::simd_level(), level);
        f(level);
    }
    kernels::force_portable(false);
}

fn close(got: &[f32], want: &[f32], k: usize, what: &str) {
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        // k products of N(0,1) numbers in a different order: ~k·ulp of their sum
        let tol = 1e-5 * (k as f32 + 1.0) * w.abs().max(1.0);
        assert!((g - w).abs() <= tol, "{what} [{i}]: fast {g} vs naive {w}");
    }
}

#[test]
fn matmul_nn_equals_naive() {
    let mut rng = Rng::new(1);
    let sizes = (0..12).chain([13, 17, 31, 33, 65, 97]);
    for n in sizes.clone() {
        for k in [0, 1, 2, 3, 7, 16, 33] {
            for m in sizes.clone() {
                let (a, b) = (random(n * k, &mut rng), random(k * m, &mut rng));
                let c0 = random(n * m, &mut rng);
                let mut want = c0.clone();
                matmul_nn_naive(&mut want, &a, &b, n, k, m);
                both_levels(|level| {
                    let mut got = c0.clone();
                    got.push(f32::NAN); // poison past the end: must stay untouched
                    matmul_nn(&mut got, &a, &b, n, k, m);
                    assert!(got.pop().unwrap().is_nan());
                    close(&got, &want, k, &format!("nn {n}×{k}×{m} {level}"));
                });
            }
        }
    }
}

#[test]
fn matmul_tn_equals_naive() {
    let mut rng = Rng::new(2);
    let sizes = (0..12).chain([13, 17, 31, 33, 65]);
    for n in [0, 1, 2, 5, 16, 37] {
        for m in sizes.clone() {
            for p in sizes.clone() {
                let (a, b) = (random(n * m, &mut rng), random(n * p, &mut rng));
                let c0 = random(m * p, &mut rng);
                let mut want = c0.clone();
                matmul_tn_naive(&mut want, &a, &b, n, m, p);
                both_levels(|level| {
                    let mut got = c0.clone();
                    got.push(f32::NAN);
                    matmul_tn(&mut got, &a, &b, n, m, p);
                    assert!(got.pop().unwrap().is_nan());
                    close(&got, &want, n, &format!("tn {n}×{m}×{p} {level}"));
                });
            }
        }
    }
}

/// rows×cols with row stride ld; the gaps between rows hold NaN (never read or written).
fn strided(rows: usize, cols: usize, ld: usize, rng: &mut Rng) -> Vec<f32> {
    let mut v = vec![f32::NAN; rows * ld + 1];
    for i in 0..rows {
        for j in 0..cols {
            v[i * ld + j] = rng.normal(0.0, 1.0);
        }
    }
    v
}

fn view(data: &[f32], ld: usize) -> Strided<'_> {
    Strided { data, ld }
}

fn gather(v: &[f32], rows: usize, cols: usize, ld: usize) -> Vec<f32> {
    (0..rows * cols)
        .map(|x| v[x / cols * ld + x % cols])
        .collect()
}

/// The strided views (attention's heads inside qkv) against the naive loops on copies;
/// the NaN gaps between rows stay NaN and never reach C.
#[test]
fn strided_matmuls_equal_naive() {
    let mut rng = Rng::new(3);
    let sizes = [0, 1, 2, 3, 5, 8, 9, 11, 16, 17, 32, 33, 41];
    for n in sizes {
        for k in [0, 1, 4, 7, 16, 32] {
            for m in sizes {
                let (lda, ldb, ldc) = (k + 3, m + 5, m + 2);
                let (a, b) = (strided(n, k, lda, &mut rng), strided(k, m, ldb, &mut rng));
                let c0 = strided(n, m, ldc, &mut rng);
                let mut want = gather(&c0, n, m, ldc);
                matmul_nn_naive(
                    &mut want,
                    &gather(&a, n, k, lda),
                    &gather(&b, k, m, ldb),
                    n,
                    k,
                    m,
                );
                both_levels(|level| {
                    let mut c = c0.clone();
                    let cv = StridedMut {
                        data: &mut c,
                        ld: ldc,
                    };
                    matmul_nn_strided(cv, view(&a, lda), view(&b, ldb), n, k, m);
                    for (i, x) in c.iter().enumerate() {
                        let inside = i / ldc < n && i % ldc < m;
                        assert!(
                            inside != x.is_nan(),
                            "nn strided {n}×{k}×{m} {level}: [{i}]"
                        );
                    }
                    let got = gather(&c, n, m, ldc);
                    close(&got, &want, k, &format!("nn strided {n}×{k}×{m} {level}"));
                });
                // tn: C (k×m) += Aᵀ B with A (n×k), B (n×m)
                let b2 = strided(n, m, ldb, &mut rng);
                let c0 = strided(k, m, ldc, &mut rng);
                let mut want = gather(&c0, k, m, ldc);
                let (ag, bg) = (gather(&a, n, k, lda), gather(&b2, n, m, ldb));
                matmul_tn_naive(&mut want, &ag, &bg, n, k, m);
                both_levels(|level| {
                    let mut c = c0.clone();
                    let cv = StridedMut {
                        data: &mut c,
                        ld: ldc,
                    };
                    matmul_tn_strided(cv, view(&a, lda), view(&b2, ldb), n, k, m);
                    for (i, x) in c.iter().enumerate() {
                        let inside = i / ldc < k && i % ldc < m;
                        assert!(
                            inside != x.is_nan(),
                            "tn strided {n}×{k}×{m} {level}: [{i}]"
                        );
                    }
                    let got = gather(&c, k, m, ldc);
                    close(&got, &want, n, &format!("tn strided {n}×{k}×{m} {level}"));
                });
            }
        }
    }
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

/// Φ(x) against an f64 reference: erfc by its continued fraction for |z| ≥ 2, series below.
#[test]
fn normal_cdf_is_accurate() {
    fn erfc(z: f64) -> f64 {
        if z.abs() < 2.0 {
            // erf z = 2/√π Σ (−1)ⁿ z^(2n+1) / (n! (2n+1))
            let (mut term, mut sum) = (z, z);
            for n in 1..60 {
                term *= -z * z / n as f64;
                sum += term / (2 * n + 1) as f64;
            }
            1.0 - sum * 2.0 / std::f64::consts::PI.sqrt()
        } else if z < 0.0 {
            2.0 - erfc(-z)
        } else {
            // erfc z = e^(−z²)/√π · 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + ...))))
            let mut f = z;
            for k in (1..80).rev() {
                f = z + (k as f64 / 2.0) / f;
            }
            (-z * z).exp() / std::f64::consts::PI.sqrt() / f
        }
    }
    let mut worst = 0.0f64;
    for i in -6000..=6000 {
        let x = i as f32 * 1e-3;
        let want = 0.5 * erfc(-(x as f64) / std::f64::consts::SQRT_2);
        let got = kernels::normal_cdf(x) as f64;
        // GELU = x·Φ(x) adds to activations of order 1: the absolute error is what counts
        // (in the far tail f32's rounding of z² alone makes the relative error ~1e-6)
        worst = worst.max((got - want).abs());
    }
    assert!(worst < 2e-7, "Φ max absolute error {worst:e}");
}
