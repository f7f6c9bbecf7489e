//! The GPT's matmul kernels as compiled for the browser (`wasm-pack test --headless
//! --chrome`): the explicit simd128 f32x4 tiles against the naive triple loops, on sizes
//! 0..11, odd and non-square shapes and strided views, with NaN poison outside the region
//! each kernel may write.
#![cfg(target_arch = "wasm32")]

use attention_playground::gpt::kernels::*;
use attention_playground::gpt::Rng;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn random(n: usize, rng: &mut Rng) -> Vec<f32> {
    (0..n).map(|_| rng.normal(0.0, 1.0)).collect()
}

fn close(got: &[f32], want: &[f32], k: usize, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let tol = 1e-5 * (k as f32 + 1.0) * w.abs().max(1.0);
        assert!((g - w).abs() <= tol, "{what} [{i}]: fast {g} vs naive {w}");
    }
}

const SIZES: [usize; 17] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 17, 33, 41];

#[wasm_bindgen_test]
fn simd128_matmul_nn_equals_naive() {
    assert_eq!(simd_level(), "portable");
    let mut rng = Rng::new(1);
    for n in SIZES {
        for k in [0, 1, 2, 3, 7, 16, 33] {
            for m in SIZES {
                let (a, b) = (random(n * k, &mut rng), random(k * m, &mut rng));
                let c0 = random(n * m, &mut rng);
                let mut want = c0.clone();
                matmul_nn_naive(&mut want, &a, &b, n, k, m);
                let mut got = c0.clone();
                got.push(f32::NAN); // poison past the end: must stay untouched
                matmul_nn(&mut got, &a, &b, n, k, m);
                assert!(got.pop().unwrap().is_nan());
                close(&got, &want, k, &format!("nn {n}×{k}×{m}"));
            }
        }
    }
}

#[wasm_bindgen_test]
fn simd128_matmul_tn_equals_naive() {
    let mut rng = Rng::new(2);
    for n in [0, 1, 2, 5, 16, 37] {
        for m in SIZES {
            for p in SIZES {
                let (a, b) = (random(n * m, &mut rng), random(n * p, &mut rng));
                let c0 = random(m * p, &mut rng);
                let mut want = c0.clone();
                matmul_tn_naive(&mut want, &a, &b, n, m, p);
                let mut got = c0.clone();
                got.push(f32::NAN);
                matmul_tn(&mut got, &a, &b, n, m, p);
                assert!(got.pop().unwrap().is_nan());
                close(&got, &want, n, &format!("tn {n}×{m}×{p}"));
            }
        }
    }
}

/// rows×cols with row stride ld; NaN in the gaps between rows.
fn strided(rows: usize, cols: usize, ld: usize, rng: &mut Rng) -> Vec<f32> {
    let mut v = vec![f32::NAN; rows * ld + 1];
    for i in 0..rows {
        for j in 0..cols {
            v[i * ld + j] = rng.normal(0.0, 1.0);
        }
    }
    v
}

fn gather(v: &[f32], rows: usize, cols: usize, ld: usize) -> Vec<f32> {
    (0..rows * cols)
        .map(|x| v[x / cols * ld + x % cols])
        .collect()
}

fn view(data: &[f32], ld: usize) -> Strided<'_> {
    Strided { data, ld }
}

/// Attention's per-head views: the gaps stay NaN and never reach C.
#[wasm_bindgen_test]
fn simd128_strided_matmuls_equal_naive() {
    let mut rng = Rng::new(3);
    let sizes = [0, 1, 3, 4, 5, 8, 9, 11, 16, 17, 32];
    for n in sizes {
        for k in [0, 1, 4, 7, 16] {
            for m in sizes {
                let (lda, ldb, ldc) = (k + 3, m + 5, m + 2);
                let (a, b) = (strided(n, k, lda, &mut rng), strided(k, m, ldb, &mut rng));
                let c0 = strided(n, m, ldc, &mut rng);
                let mut want = gather(&c0, n, m, ldc);
                let (ag, bg) = (gather(&a, n, k, lda), gather(&b, k, m, ldb));
                matmul_nn_naive(&mut want, &ag, &bg, n, k, m);
                let mut c = c0.clone();
                let cv = StridedMut {
                    data: &mut c,
                    ld: ldc,
                };
                matmul_nn_strided(cv, view(&a, lda), view(&b, ldb), n, k, m);
                for (i, x) in c.iter().enumerate() {
                    let inside = i / ldc < n && i % ldc < m;
                    assert!(inside != x.is_nan(), "nn strided {n}×{k}×{m}: [{i}]");
                }
                close(
                    &gather(&c, n, m, ldc),
                    &want,
                    k,
                    &format!("nn strided {n}×{k}×{m}"),
                );

                let b2 = strided(n, m, ldb, &mut rng);
                let c0 = strided(k, m, ldc, &mut rng);
                let mut want = gather(&c0, k, m, ldc);
                matmul_tn_naive(&mut want, &ag, &gather(&b2, n, m, ldb), n, k, m);
                let mut c = c0.clone();
                let cv = StridedMut {
                    data: &mut c,
                    ld: ldc,
                };
                matmul_tn_strided(cv, view(&a, lda), view(&b2, ldb), n, k, m);
                for (i, x) in c.iter().enumerate() {
                    let inside = i / ldc < k && i % ldc < m;
                    assert!(inside != x.is_nan(), "tn strided {n}×{k}×{m}: [{i}]");
                }
                close(
                    &gather(&c, k, m, ldc),
                    &want,
                    n,
                    &format!("tn strided {n}×{k}×{m}"),
                );
            }
        }
    }
}
