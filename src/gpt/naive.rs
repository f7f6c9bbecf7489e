//! The naive twins of the fast f32 ops in `ops`: the same signatures, written as the plain
//! loops of the formulas (sums in f64, libm's exp, erf by its series), so each is obviously
//! right. Naive first, clever second, tested equal: `tests/gpt_ops.rs` holds every op of
//! `ops` equal to its twin here. Nothing in the model calls these.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH, V = vocab, BT = B·T.

use super::ops::{AttnShape, LayerNormSaved, LinearShape, WeightGrads, Weights};

/// out (BT,C) = (inp − mean) · rstd · weight + bias per row; mean, rstd (BT).
pub fn layernorm_forward(
    out: &mut [f32],
    mean: &mut [f32],
    rstd: &mut [f32],
    inp: &[f32],
    w: Weights,
    c: usize,
) {
    for n in 0..mean.len().min(inp.len() / c) {
        let x = &inp[n * c..][..c];
        let mu = x.iter().map(|&v| v as f64).sum::<f64>() / c as f64;
        let var = x.iter().map(|&v| (v as f64 - mu).powi(2)).sum::<f64>() / c as f64;
        let r = 1.0 / (var + 1e-5).sqrt();
        for j in 0..c {
            let b = if w.bias.is_empty() {
                0.0
            } else {
                w.bias[j] as f64
            };
            out[n * c + j] = ((x[j] as f64 - mu) * r * w.weight[j] as f64 + b) as f32;
        }
        (mean[n], rstd[n]) = (mu as f32, r as f32);
    }
}

/// dinp (BT,C), dweight (C), dbias (C) += from dout (BT,C).
pub fn layernorm_backward(
    dinp: &mut [f32],
    dw: WeightGrads,
    dout: &[f32],
    saved: LayerNormSaved,
    weight: &[f32],
    c: usize,
) {
    for n in 0..saved.mean.len().min(dout.len() / c) {
        let (mu, r) = (saved.mean[n] as f64, saved.rstd[n] as f64);
        let norm = |j: usize| (saved.inp[n * c + j] as f64 - mu) * r;
        let dy = |j: usize| dout[n * c + j] as f64;
        // dnorm_j = weight_j · dy_j; dx = (dnorm − mean(dnorm) − norm · mean(dnorm · norm)) · rstd
        let dnorm = |j: usize| weight[j] as f64 * dy(j);
        let dnorm_mean = (0..c).map(dnorm).sum::<f64>() / c as f64;
        let dnorm_norm_mean = (0..c).map(|j| dnorm(j) * norm(j)).sum::<f64>() / c as f64;
        for j in 0..c {
            dw.dweight[j] += (norm(j) * dy(j)) as f32;
            if !dw.dbias.is_empty() {
                dw.dbias[j] += dy(j) as f32;
            }
            dinp[n * c + j] += ((dnorm(j) - dnorm_mean - norm(j) * dnorm_norm_mean) * r) as f32;
        }
    }
}

/// out (BT,OC) = inp (BT,IC) @ weight (OC,IC)ᵀ + bias (OC); weight_t is unused.
pub fn matmul_forward(out: &mut [f32], inp: &[f32], w: Weights, _: &mut [f32], s: LinearShape) {
    for n in 0..s.bt {
        for o in 0..s.oc {
            let b = if w.bias.is_empty() {
                0.0
            } else {
                w.bias[o] as f64
            };
            let dot: f64 = (0..s.ic)
                .map(|i| inp[n * s.ic + i] as f64 * w.weight[o * s.ic + i] as f64)
                .sum();
            out[n * s.oc + o] = (b + dot) as f32;
        }
    }
}

/// dinp (BT,IC), dweight (OC,IC), dbias (OC) += from dout (BT,OC).
pub fn matmul_backward(
    dinp: &mut [f32],
    dw: WeightGrads,
    dout: &[f32],
    inp: &[f32],
    weight: &[f32],
    s: LinearShape,
) {
    for n in 0..s.bt {
        for o in 0..s.oc {
            let d = dout[n * s.oc + o];
            for i in 0..s.ic {
                dinp[n * s.ic + i] += d * weight[o * s.ic + i];
                dw.dweight[o * s.ic + i] += d * inp[n * s.ic + i];
            }
            if !dw.dbias.is_empty() {
                dw.dbias[o] += d;
            }
        }
    }
}

/// out = softmax(x): e^(x − max x) / Σ e^(x − max x), a −∞ entry weighing 0; returns
/// (max x, Σ e^(x − max x)).
pub fn softmax(out: &mut [f32], x: &[f32]) -> (f32, f32) {
    let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    let sum: f64 = x.iter().map(|&v| ((v - max) as f64).exp()).sum();
    for (o, &v) in out.iter_mut().zip(x) {
        *o = (((v - max) as f64).exp() / sum) as f32;
    }
    (max, sum as f32)
}

/// Causal (or full) multi-head self-attention per (sequence, head), loop by loop:
/// preatt[t1][t2] = q_t1 · k_t2 / √HS (−∞ where t2 > t1 if causal), att = softmax rows,
/// out_t1 = Σ att[t1][t2] v_t2. Shapes as `ops::attention_forward`; scratch is unused.
pub fn attention_forward(
    out: &mut [f32],
    preatt: &mut [f32],
    att: &mut [f32],
    qkv: &[f32],
    _: &mut [f32],
    s: AttnShape,
) {
    let (t, c, hs) = (s.t, s.c, s.hs());
    let scale = (1.0 / (hs as f64).sqrt()) as f32;
    let at = |bi: usize, ti: usize, part: usize, h: usize, d: usize| {
        qkv[(bi * t + ti) * 3 * c + part * c + h * hs + d]
    };
    for bi in 0..s.b {
        for h in 0..s.nh {
            let tt = (bi * s.nh + h) * t * t;
            for t1 in 0..t {
                let row = &mut preatt[tt + t1 * t..][..t];
                for (t2, p) in row.iter_mut().enumerate() {
                    let dot: f32 = (0..hs)
                        .map(|d| at(bi, t1, 0, h, d) * at(bi, t2, 1, h, d))
                        .sum();
                    let masked = s.causal && t2 > t1;
                    *p = if masked {
                        f32::NEG_INFINITY
                    } else {
                        dot * scale
                    };
                }
                softmax(&mut att[tt + t1 * t..][..t], &preatt[tt + t1 * t..][..t]);
                for d in 0..hs {
                    let w = &att[tt + t1 * t..][..t];
                    let o: f64 = (0..t)
                        .map(|t2| w[t2] as f64 * at(bi, t2, 2, h, d) as f64)
                        .sum();
                    out[(bi * t + t1) * c + h * hs + d] = o as f32;
                }
            }
        }
    }
}

/// dqkv (B,T,3C) += from dout (B,T,C) with the forward's att, loop by loop:
/// dv_t2 += Σ_t1 att[t1][t2] dout_t1; datt[t1][t2] = dout_t1 · v_t2;
/// dpreatt = att ⊙ (datt − Σ att·datt) per row; dq_t1 += Σ dpreatt·scale k, dk likewise.
pub fn attention_backward(
    dqkv: &mut [f32],
    dout: &[f32],
    qkv: &[f32],
    att: &[f32],
    _: &mut [f32],
    s: AttnShape,
) {
    let (t, c, hs) = (s.t, s.c, s.hs());
    let scale = 1.0 / (hs as f64).sqrt();
    let ix = |bi: usize, ti: usize, part: usize, h: usize, d: usize| {
        (bi * t + ti) * 3 * c + part * c + h * hs + d
    };
    for bi in 0..s.b {
        for h in 0..s.nh {
            let w = &att[(bi * s.nh + h) * t * t..][..t * t];
            let d_o = |ti: usize, d: usize| dout[(bi * t + ti) * c + h * hs + d] as f64;
            for t1 in 0..t {
                let datt: Vec<f64> = (0..t)
                    .map(|t2| {
                        (0..hs)
                            .map(|d| d_o(t1, d) * qkv[ix(bi, t2, 2, h, d)] as f64)
                            .sum()
                    })
                    .collect();
                let dot: f64 = (0..t).map(|t2| w[t1 * t + t2] as f64 * datt[t2]).sum();
                for t2 in 0..t {
                    let wv = w[t1 * t + t2] as f64;
                    for d in 0..hs {
                        dqkv[ix(bi, t2, 2, h, d)] += (wv * d_o(t1, d)) as f32;
                    }
                    let dpre = wv * (datt[t2] - dot) * scale; // 0 where masked (att = 0)
                    for d in 0..hs {
                        let (q, k) = (qkv[ix(bi, t1, 0, h, d)], qkv[ix(bi, t2, 1, h, d)]);
                        dqkv[ix(bi, t1, 0, h, d)] += (dpre * k as f64) as f32;
                        dqkv[ix(bi, t2, 1, h, d)] += (dpre * q as f64) as f32;
                    }
                }
            }
        }
    }
}

/// Φ(x), the standard normal CDF, in f64: ½·erfc(−x/√2), erfc by its Taylor series for
/// |z| < 2 and its continued fraction beyond.
pub fn normal_cdf(x: f64) -> f64 {
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
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// out = inp · Φ(inp).
pub fn gelu_forward(out: &mut [f32], inp: &[f32]) {
    for (o, &x) in out.iter_mut().zip(inp) {
        *o = (x as f64 * normal_cdf(x as f64)) as f32;
    }
}

/// dinp += (Φ(inp) + inp · φ(inp)) · dout.
pub fn gelu_backward(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
    for ((d, &x), &g) in dinp.iter_mut().zip(inp).zip(dout) {
        let x = x as f64;
        let pdf = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        *d += ((normal_cdf(x) + x * pdf) * g as f64) as f32;
    }
}

/// probs (BT,V) = softmax(logits) per row; losses (BT) = −log probs[target]; the mean.
pub fn crossentropy_forward(
    losses: &mut [f32],
    probs: &mut [f32],
    logits: &[f32],
    targets: Option<&[u32]>,
    v: usize,
) -> Option<f32> {
    let mut total = 0.0f64;
    for n in 0..logits.len() / v {
        let l = &logits[n * v..][..v];
        let (max, sum) = softmax(&mut probs[n * v..][..v], l);
        if let Some(y) = targets {
            let loss = (sum as f64).ln() - (l[y[n] as usize] - max) as f64;
            losses[n] = loss as f32;
            total += loss;
        }
    }
    targets.map(|y| (total / y.len() as f64) as f32)
}

/// dlogits (BT,V) += (probs − onehot(targets)) · dloss: every logit gets probs · dloss,
/// the target's loses dloss.
pub fn crossentropy_backward(
    dlogits: &mut [f32],
    probs: &[f32],
    targets: &[u32],
    dloss: f32,
    v: usize,
) {
    for (d, &p) in dlogits.iter_mut().zip(&probs[..targets.len() * v]) {
        *d += p * dloss;
    }
    for (n, &y) in targets.iter().enumerate() {
        dlogits[n * v + y as usize] -= dloss;
    }
}
