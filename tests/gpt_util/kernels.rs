//! Helpers shared by the native and the wasm kernel tests (`gpt_kernels.rs`,
//! `web_kernels.rs`, `gpt_ops.rs`): random inputs, strided views with NaN gaps, a pass
//! over every instruction set, closeness, and the matmul checks themselves.
#![allow(dead_code)]

use attention_playground::gpt::kernels::{self, *};
use attention_playground::gpt::Rng;
use std::sync::Mutex;

pub fn random(n: usize, rng: &mut Rng) -> Vec<f32> {
    (0..n).map(|_| rng.normal(0.0, 1.0)).collect()
}

/// The instruction set is one process-wide setting and the tests run on parallel
/// threads: each pass over the levels holds this lock, or a test on another thread
/// switches the level under it (seen: "avx2+fma" asserted while "avx512" was set).
static LEVEL: Mutex<()> = Mutex::new(());

/// Runs `f` with every instruction set this CPU has (AVX-512, AVX2, portable; on wasm
/// portable only, which is the simd128 body).
pub fn both_levels(mut f: impl FnMut(&str)) {
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

/// got ≈ want element by element, each within 1e-5·(k + 1)·max(|want|, 1): k products or
/// terms summed in a different order are ~k·ulp of their sum apart. Equal infinities
/// (attention's masked scores) are equal; NaN never is.
pub fn close(got: &[f32], want: &[f32], k: usize, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let tol = 1e-5 * (k as f32 + 1.0) * w.abs().max(1.0);
        let same_inf = g.is_infinite() && g == w;
        assert!(
            same_inf || (g - w).abs() <= tol,
            "{what} [{i}]: fast {g} vs naive {w}"
        );
    }
}

/// rows×cols with row stride ld; the gaps between rows hold NaN (never read or written).
pub fn strided(rows: usize, cols: usize, ld: usize, rng: &mut Rng) -> Vec<f32> {
    let mut v = vec![f32::NAN; rows * ld + 1];
    for i in 0..rows {
        for j in 0..cols {
            v[i * ld + j] = rng.normal(0.0, 1.0);
        }
    }
    v
}

pub fn view(data: &[f32], ld: usize) -> Strided<'_> {
    Strided { data, ld }
}

pub fn gather(v: &[f32], rows: usize, cols: usize, ld: usize) -> Vec<f32> {
    (0..rows * cols)
        .map(|x| v[x / cols * ld + x % cols])
        .collect()
}

/// `matmul_nn` against the triple loop for n, m in `sizes`, k in `ks`, NaN past the end.
pub fn check_matmul_nn(sizes: &[usize], ks: &[usize], seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in sizes {
        for &k in ks {
            for &m in sizes {
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

/// `matmul_nt` (C += A·Bᵀ, B stored (m×k)) against the plain loops for n, m in `sizes`, k in
/// `ks`: its 4×3 tiles, the columns and rows they leave, and k's tail past a multiple of 4.
pub fn check_matmul_nt(sizes: &[usize], ks: &[usize], seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in sizes {
        for &k in ks {
            for &m in sizes {
                let (a, b) = (random(n * k, &mut rng), random(m * k, &mut rng));
                let c0 = random(n * m, &mut rng);
                let mut want = c0.clone();
                matmul_nt_naive(&mut want, &a, &b, n, k, m);
                both_levels(|level| {
                    let mut got = c0.clone();
                    got.push(f32::NAN);
                    matmul_nt(&mut got, &a, &b, n, k, m);
                    assert!(got.pop().unwrap().is_nan());
                    close(&got, &want, k, &format!("nt {n}×{k}×{m} {level}"));
                });
            }
        }
    }
}

/// `matmul_tn` against the triple loop for n in `ns`, m, p in `sizes`.
pub fn check_matmul_tn(ns: &[usize], sizes: &[usize], seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in ns {
        for &m in sizes {
            for &p in sizes {
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

/// C (rows×cols, stride ldc) after `mul`: the cells outside the view are still NaN and
/// the view equals `want` (k terms per cell).
fn check_view(
    c: &[f32],
    (rows, cols, ldc): (usize, usize, usize),
    want: &[f32],
    k: usize,
    what: &str,
) {
    for (i, x) in c.iter().enumerate() {
        let inside = i / ldc < rows && i % ldc < cols;
        assert!(inside != x.is_nan(), "{what}: [{i}]");
    }
    close(&gather(c, rows, cols, ldc), want, k, what);
}

/// The strided views (attention's heads inside qkv) against the naive loops on copies;
/// the NaN gaps between rows stay NaN and never reach C.
pub fn check_strided_matmuls(sizes: &[usize], ks: &[usize], seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in sizes {
        for &k in ks {
            for &m in sizes {
                let (lda, ldb, ldc) = (k + 3, m + 5, m + 2);
                let (a, b) = (strided(n, k, lda, &mut rng), strided(k, m, ldb, &mut rng));
                let c0 = strided(n, m, ldc, &mut rng);
                let mut want = gather(&c0, n, m, ldc);
                let ag = gather(&a, n, k, lda);
                matmul_nn_naive(&mut want, &ag, &gather(&b, k, m, ldb), n, k, m);
                both_levels(|level| {
                    let mut c = c0.clone();
                    let cv = StridedMut {
                        data: &mut c,
                        ld: ldc,
                    };
                    matmul_nn_strided(cv, view(&a, lda), view(&b, ldb), n, k, m);
                    check_view(
                        &c,
                        (n, m, ldc),
                        &want,
                        k,
                        &format!("nn strided {n}×{k}×{m} {level}"),
                    );
                });
                // tn: C (k×m) += Aᵀ B with A (n×k), B (n×m)
                let b2 = strided(n, m, ldb, &mut rng);
                let c0 = strided(k, m, ldc, &mut rng);
                let mut want = gather(&c0, k, m, ldc);
                matmul_tn_naive(&mut want, &ag, &gather(&b2, n, m, ldb), n, k, m);
                both_levels(|level| {
                    let mut c = c0.clone();
                    let cv = StridedMut {
                        data: &mut c,
                        ld: ldc,
                    };
                    matmul_tn_strided(cv, view(&a, lda), view(&b2, ldb), n, k, m);
                    check_view(
                        &c,
                        (k, m, ldc),
                        &want,
                        n,
                        &format!("tn strided {n}×{k}×{m} {level}"),
                    );
                });
            }
        }
    }
}

/// GELU forward and backward (as dispatched: on wasm the f32x4 body) against the exact
/// x·Φ(x) and Φ(x) + x·φ(x) in f64 (`naive::normal_cdf`) on x = −10, −10 + 1e-3, …, 10,
/// both within `tol` absolute. The f32 result alone rounds by up to ½ ulp(10) ≈ 4.8e-7.
pub fn check_gelu_accuracy(tol: f64) {
    use attention_playground::gpt::{naive, ops};
    let x: Vec<f32> = (-10_000..=10_000).map(|i| i as f32 * 1e-3).collect();
    let mut out = vec![f32::NAN; x.len()];
    ops::gelu_forward(&mut out, &x);
    let mut dx = vec![0.0f32; x.len()];
    ops::gelu_backward(&mut dx, &x, &vec![1.0; x.len()]);
    let (mut worst_f, mut worst_b) = ((0.0f64, 0.0f32), (0.0f64, 0.0f32));
    for ((&xi, &o), &d) in x.iter().zip(&out).zip(&dx) {
        let (xd, cdf) = (xi as f64, naive::normal_cdf(xi as f64));
        let pdf = (-0.5 * xd * xd).exp() / (2.0 * std::f64::consts::PI).sqrt();
        // a NaN result counts as an infinite error
        let err = |got: f32, want: f64| match (got as f64 - want).abs() {
            e if e.is_nan() => f64::INFINITY,
            e => e,
        };
        let (ef, eb) = (err(o, xd * cdf), err(d, cdf + xd * pdf));
        if ef > worst_f.0 {
            worst_f = (ef, xi);
        }
        if eb > worst_b.0 {
            worst_b = (eb, xi);
        }
    }
    assert!(
        worst_f.0 <= tol,
        "gelu: |error| {:e} at x = {}",
        worst_f.0,
        worst_f.1
    );
    assert!(
        worst_b.0 <= tol,
        "gelu': |error| {:e} at x = {}",
        worst_b.0,
        worst_b.1
    );
}

/// GELU forward and backward as dispatched (wasm: the f32x4 twin) against the scalar loops
/// of `kernels::normal_cdf` / `normal_pdf`, on lengths 0..=11 and 67 (every tail of a
/// group of four) with NaN poison past the end: within 4e-7·max(|x|, 1) (a few roundings
/// of the same formula; the FMA build fuses some).
pub fn check_gelu_twin(seed: u64) {
    use attention_playground::gpt::ops;
    let mut rng = Rng::new(seed);
    for n in (0..=11).chain([67]) {
        let x: Vec<f32> = random(n, &mut rng).iter().map(|v| 3.0 * v).collect();
        let (g, d0) = (random(n, &mut rng), random(n, &mut rng));
        let mut out = vec![f32::NAN; n + 1];
        ops::gelu_forward(&mut out[..n], &x);
        assert!(out.pop().unwrap().is_nan());
        let mut d = d0.clone();
        d.push(f32::NAN);
        ops::gelu_backward(&mut d[..n], &x, &g);
        assert!(d.pop().unwrap().is_nan());
        for i in 0..n {
            let (xi, tol) = (x[i], 4e-7 * x[i].abs().max(1.0));
            let want = xi * kernels::normal_cdf(xi);
            assert!(
                (out[i] - want).abs() <= tol,
                "gelu n={n} [{i}] {} vs {want}",
                out[i]
            );
            let slope = kernels::normal_cdf(xi) + xi * kernels::normal_pdf(xi);
            let want = d0[i] + slope * g[i];
            let tol = tol * g[i].abs().max(1.0);
            assert!(
                (d[i] - want).abs() <= tol,
                "gelu' n={n} [{i}] {} vs {want}",
                d[i]
            );
        }
    }
}
