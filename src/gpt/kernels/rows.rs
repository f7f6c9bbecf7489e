//! One row at a time: dot, sum, max, axpy and the softmax built from them. Each runs 8
//! independent lanes (then a tail) so the loop vectorises; a plain `.sum()` is a serial
//! chain in IEEE order and does not.

use super::dispatch::fmadd;
use super::elementwise::exp;

/// Σ a·b.
#[inline(always)]
pub fn dot<const FMA: bool>(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    for (ac, bc) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for j in 0..8 {
            acc[j] = fmadd::<FMA>(ac[j], bc[j], acc[j]);
        }
    }
    let tail = n / 8 * 8;
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in a[tail..].iter().zip(&b[tail..]) {
        sum = fmadd::<FMA>(x, y, sum);
    }
    sum
}

/// Σ x.
#[inline(always)]
pub fn sum(x: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    for c in x.chunks_exact(8) {
        for j in 0..8 {
            acc[j] += c[j];
        }
    }
    let tail = x.len() / 8 * 8;
    let s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    x[tail..].iter().fold(s, |s, &v| s + v)
}

/// max x (−∞ for an empty slice).
#[inline(always)]
pub fn max(x: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; 8];
    for c in x.chunks_exact(8) {
        for j in 0..8 {
            acc[j] = if c[j] > acc[j] { c[j] } else { acc[j] };
        }
    }
    let tail = x.len() / 8 * 8;
    let m = acc.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    x[tail..].iter().fold(m, |m, &v| m.max(v))
}

/// out = e^(x − shift) element-wise; returns Σ out. Two loops: the exp loop has no
/// running sum in it, so it vectorises.
#[inline(always)]
pub fn exp_shifted(out: &mut [f32], x: &[f32], shift: f32) -> f32 {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = exp(v - shift);
    }
    sum(&out[..x.len().min(out.len())])
}

/// out = softmax(x) = e^(x − max x) / Σ e^(x − max x), a −∞ entry weighing 0; returns
/// (max x, Σ e^(x − max x)), from which log softmax(x)ᵢ = xᵢ − max − ln Σ. The one f32
/// softmax: attention's weights, the next-character probabilities, sampling. Writes
/// out[..x.len()] (panics if out is shorter).
#[inline(always)]
pub fn softmax(out: &mut [f32], x: &[f32]) -> (f32, f32) {
    let out = &mut out[..x.len()];
    let maxval = max(x);
    let sum = exp_shifted(out, x, maxval);
    let inv = 1.0 / sum;
    out.iter_mut().for_each(|o| *o *= inv);
    (maxval, sum)
}

/// y += alpha·x.
#[inline(always)]
pub fn axpy<const FMA: bool>(y: &mut [f32], alpha: f32, x: &[f32]) {
    let n = y.len().min(x.len());
    let (y, x) = (&mut y[..n], &x[..n]);
    let tail = n / 8 * 8;
    for (yc, xc) in y.chunks_exact_mut(8).zip(x.chunks_exact(8)) {
        for j in 0..8 {
            yc[j] = fmadd::<FMA>(alpha, xc[j], yc[j]);
        }
    }
    for (yv, &xv) in y[tail..].iter_mut().zip(&x[tail..]) {
        *yv = fmadd::<FMA>(alpha, xv, *yv);
    }
}
