//! The GPT's f32 attention (`gpt::ops::attention_forward` / `attention_backward`, tiled,
//! all heads of all sequences at once) against the f64 reference, one (sequence, head) at
//! a time: `attention::attend` for the scores, weights and output, and its backward for
//! dq, dk, dv. Causal and full, T = 1 and up, odd head sizes, several heads.
//!
//! Tolerance: max |f32 − f64| ≤ 1e-5 · max(1, max |f64|) per matrix, i.e. relative to the
//! matrix's largest value. The inputs are the same numbers (f32 widened exactly), so the
//! gap is f32 rounding alone: each entry is a sum of at most max(T, HS) ≤ 17 products
//! (plus exp within 2 ulp), whose error is a few ulp (6e-8) of the largest terms summed,
//! not of the entry, so a per-entry relative bound fails on entries that cancel to nearly
//! 0. 1e-5 is ~100 such ulp: loose for rounding, while a wrong index, scale, mask or
//! transposition moves values by O(1) of the largest.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH.

use attention_playground::attention::attend;
use attention_playground::attention::attend_backward;
use attention_playground::gpt::ops::{self, attention_scratch_len, AttnShape};
use attention_playground::gpt::Rng;
use attention_playground::tensor::{causal_or_none, Matrix};

const TOL: f64 = 1e-5;

/// got (f32, row-major rows×cols) ≈ want (f64) within TOL of want's largest |value|.
fn close(got: &[f32], want: &Matrix, what: &str) {
    assert_eq!(got.len(), want.rows * want.cols, "{what}: sizes");
    let finite = want.data.iter().filter(|x| x.is_finite());
    let scale = finite.fold(1.0f64, |m, x| m.max(x.abs()));
    for (i, (&g, &w)) in got.iter().zip(&want.data).enumerate() {
        let (g, same_inf) = (g as f64, g.is_infinite() && g as f64 == w);
        assert!(
            same_inf || (g - w).abs() <= TOL * scale,
            "{what} [{}, {}]: f32 {g} vs f64 {w} (largest {scale})",
            i / want.cols,
            i % want.cols
        );
    }
}

/// Columns off..off+HS of rows bi·T..(bi+1)·T of a (B·T, ld) buffer, as an f64 matrix.
fn head(buf: &[f32], bi: usize, off: usize, ld: usize, t: usize, hs: usize) -> Matrix {
    Matrix::from_fn(t, hs, |i, d| buf[(bi * t + i) * ld + off + d] as f64)
}

/// The same columns as f32, row-major.
fn head_f32(buf: &[f32], bi: usize, off: usize, ld: usize, t: usize, hs: usize) -> Vec<f32> {
    let m = head(buf, bi, off, ld, t, hs);
    m.data.iter().map(|&x| x as f32).collect()
}

fn random(n: usize, rng: &mut Rng) -> Vec<f32> {
    (0..n).map(|_| rng.normal(0.0, 1.0)).collect()
}

fn check(s: AttnShape, rng: &mut Rng) {
    let (b, t, c, nh, hs) = (s.b, s.t, s.c, s.nh, s.hs());
    let (qkv, dout) = (random(b * t * 3 * c, rng), random(b * t * c, rng));
    let mut scratch = vec![0.0; attention_scratch_len(t, hs)];
    let (mut out, mut preatt, mut att) = (
        vec![0.0; b * t * c],
        vec![0.0; b * nh * t * t],
        vec![0.0; b * nh * t * t],
    );
    ops::attention_forward(&mut out, &mut preatt, &mut att, &qkv, &mut scratch, s);
    let mut dqkv = vec![0.0; b * t * 3 * c];
    ops::attention_backward(&mut dqkv, &dout, &qkv, &att, &mut scratch, s);
    let mask = causal_or_none(s.causal, t, t);
    let scale = 1.0 / (hs as f64).sqrt();
    for bi in 0..b {
        for h in 0..nh {
            let what = format!("{s:?} sequence {bi} head {h}");
            let qkv_head = |part: usize| head(&qkv, bi, part * c + h * hs, 3 * c, t, hs);
            let trace = attend(qkv_head(0), qkv_head(1), qkv_head(2), &mask, scale);
            let tt = (bi * nh + h) * t * t;
            close(
                &preatt[tt..][..t * t],
                &trace.masked_scores,
                &format!("scores {what}"),
            );
            close(
                &att[tt..][..t * t],
                &trace.weights,
                &format!("weights {what}"),
            );
            close(
                &head_f32(&out, bi, h * hs, c, t, hs),
                &trace.out,
                &format!("out {what}"),
            );
            let grads = attend_backward(&trace, &mask, &head(&dout, bi, h * hs, c, t, hs));
            let dqkv_head = |part: usize| head_f32(&dqkv, bi, part * c + h * hs, 3 * c, t, hs);
            close(&dqkv_head(0), &grads.dq, &format!("dq {what}"));
            close(&dqkv_head(1), &grads.dk, &format!("dk {what}"));
            close(&dqkv_head(2), &grads.dv, &format!("dv {what}"));
        }
    }
}

#[test]
fn gpt_attention_equals_the_f64_reference_per_sequence_and_head() {
    let mut rng = Rng::new(21);
    for (b, nh, hs) in [
        (1, 1, 1),
        (2, 1, 3),
        (1, 2, 5),
        (2, 3, 4),
        (1, 4, 16),
        (3, 2, 7),
    ] {
        for t in [1, 2, 3, 5, 8, 9, 17] {
            for causal in [true, false] {
                check(
                    AttnShape {
                        b,
                        t,
                        c: nh * hs,
                        nh,
                        causal,
                    },
                    &mut rng,
                );
            }
        }
    }
}
