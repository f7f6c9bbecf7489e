//! One forward/backward pair per differentiable op, llm.c style.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH, V = vocab, BT = B·T,
//! OC / IC = a Linear's output / input channels.
//! Every function opens with its shapes. A backward quotes the forward line it
//! differentiates and accumulates into its `d*` outputs with `+=`; the caller zeroes them
//! once per step. An empty bias slice means "no bias" (`bias=False`).

use super::kernels::{self, dispatch};

/// encoded (B,T,C) = wte[idx] (V,C) + wpe[t] (block_size,C); idx (B,T).
pub fn encoder_forward(
    encoded: &mut [f32],
    idx: &[u32],
    wte: &[f32],
    wpe: &[f32],
    t: usize,
    c: usize,
) {
    for (n, (out, &ix)) in encoded.chunks_exact_mut(c).zip(idx).enumerate() {
        let (tok, pos) = (&wte[ix as usize * c..][..c], &wpe[(n % t) * c..][..c]);
        for ((o, &a), &b) in out.iter_mut().zip(tok).zip(pos) {
            *o = a + b;
        }
    }
}

/// dwte (V,C), dwpe (block_size,C) += scatter of dencoded (B,T,C).
pub fn encoder_backward(
    dwte: &mut [f32],
    dwpe: &mut [f32],
    dencoded: &[f32],
    idx: &[u32],
    t: usize,
    c: usize,
) {
    for (n, (d, &ix)) in dencoded.chunks_exact(c).zip(idx).enumerate() {
        // encoded = wte[ix] + wpe[t]: both receive d.
        for (g, &x) in dwte[ix as usize * c..][..c].iter_mut().zip(d) {
            *g += x;
        }
        for (g, &x) in dwpe[(n % t) * c..][..c].iter_mut().zip(d) {
            *g += x;
        }
    }
}

/// out (BT,C) = (inp − mean) · rstd · weight + bias per row; mean, rstd (BT) kept for
/// backward. Biased variance (÷C), eps 1e-5, as torch's LayerNorm.
pub fn layernorm_forward(
    out: &mut [f32],
    mean: &mut [f32],
    rstd: &mut [f32],
    inp: &[f32],
    weight: &[f32],
    bias: &[f32],
    c: usize,
) {
    dispatch!(
        layernorm_forward_body,
        (out: &mut [f32], mean: &mut [f32], rstd: &mut [f32], inp: &[f32], weight: &[f32],
         bias: &[f32], c: usize)
    )
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn layernorm_forward_body<const FMA: bool, const R: usize, const W: usize>(
    out: &mut [f32],
    mean: &mut [f32],
    rstd: &mut [f32],
    inp: &[f32],
    weight: &[f32],
    bias: &[f32],
    c: usize,
) {
    let weight = &weight[..c];
    let rows = out.chunks_exact_mut(c).zip(inp.chunks_exact(c));
    for ((o, x), (m, s)) in rows.zip(mean.iter_mut().zip(rstd.iter_mut())) {
        let mu = kernels::sum(x) / c as f32;
        for (oj, &xj) in o.iter_mut().zip(x) {
            *oj = xj - mu; // centred, reused for the variance
        }
        let var = kernels::dot::<FMA>(o, o) / c as f32;
        let r = 1.0 / (var + 1e-5).sqrt();
        if bias.is_empty() {
            o.iter_mut()
                .zip(weight)
                .for_each(|(oj, &w)| *oj = *oj * r * w);
        } else {
            let it = o.iter_mut().zip(weight).zip(&bias[..c]);
            it.for_each(|((oj, &w), &b)| *oj = *oj * r * w + b);
        }
        (*m, *s) = (mu, r);
    }
}

/// dinp (BT,C), dweight (C), dbias (C) += from dout (BT,C), with the forward's mean, rstd.
#[allow(clippy::too_many_arguments)]
pub fn layernorm_backward(
    dinp: &mut [f32],
    dweight: &mut [f32],
    dbias: &mut [f32],
    dout: &[f32],
    inp: &[f32],
    weight: &[f32],
    mean: &[f32],
    rstd: &[f32],
    c: usize,
) {
    dispatch!(
        layernorm_backward_body,
        (dinp: &mut [f32], dweight: &mut [f32], dbias: &mut [f32], dout: &[f32], inp: &[f32],
         weight: &[f32], mean: &[f32], rstd: &[f32], c: usize)
    )
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn layernorm_backward_body<const FMA: bool, const R: usize, const W: usize>(
    dinp: &mut [f32],
    dweight: &mut [f32],
    dbias: &mut [f32],
    dout: &[f32],
    inp: &[f32],
    weight: &[f32],
    mean: &[f32],
    rstd: &[f32],
    c: usize,
) {
    let (weight, dweight) = (&weight[..c], &mut dweight[..c]);
    let rows = dinp
        .chunks_exact_mut(c)
        .zip(dout.chunks_exact(c))
        .zip(inp.chunks_exact(c));
    for (((dx, dy), x), (&mu, &r)) in rows.zip(mean.iter().zip(rstd)) {
        // out = norm · weight + bias with norm = (x − mean) · rstd
        let (mut dnorm_mean, mut dnorm_norm_mean) = ([0.0f32; 8], [0.0f32; 8]);
        for ((wc, dyc), xc) in weight.chunks(8).zip(dy.chunks(8)).zip(x.chunks(8)) {
            for j in 0..wc.len() {
                let dnorm = wc[j] * dyc[j];
                dnorm_mean[j] += dnorm;
                dnorm_norm_mean[j] += dnorm * (xc[j] - mu) * r;
            }
        }
        let dnorm_mean = kernels::sum(&dnorm_mean) / c as f32;
        let dnorm_norm_mean = kernels::sum(&dnorm_norm_mean) / c as f32;
        if !dbias.is_empty() {
            dbias[..c].iter_mut().zip(dy).for_each(|(g, &d)| *g += d);
        }
        for j in 0..c {
            let norm = (x[j] - mu) * r;
            dweight[j] += norm * dy[j];
            // d(norm)/d(x) through x itself, the mean and the rstd
            dx[j] += (weight[j] * dy[j] - dnorm_mean - norm * dnorm_norm_mean) * r;
        }
    }
}

/// out (BT,OC) = inp (BT,IC) @ weight (OC,IC)ᵀ + bias (OC); weight_t (IC,OC) is scratch
/// for the transposed weight so the kernel streams contiguous rows.
#[allow(clippy::too_many_arguments)]
pub fn matmul_forward(
    out: &mut [f32],
    inp: &[f32],
    weight: &[f32],
    bias: &[f32],
    weight_t: &mut [f32],
    bt: usize,
    ic: usize,
    oc: usize,
) {
    let out = &mut out[..bt * oc];
    if bias.is_empty() {
        out.fill(0.0);
    } else {
        out.chunks_exact_mut(oc)
            .for_each(|row| row.copy_from_slice(bias));
    }
    kernels::transpose(weight_t, weight, oc, ic);
    kernels::matmul_nn(out, inp, weight_t, bt, ic, oc);
}

/// dinp (BT,IC), dweight (OC,IC), dbias (OC) += from dout (BT,OC).
#[allow(clippy::too_many_arguments)]
pub fn matmul_backward(
    dinp: &mut [f32],
    dweight: &mut [f32],
    dbias: &mut [f32],
    dout: &[f32],
    inp: &[f32],
    weight: &[f32],
    bt: usize,
    ic: usize,
    oc: usize,
) {
    // out = inp @ weightᵀ + bias
    kernels::matmul_nn(dinp, dout, weight, bt, oc, ic); // dinp += dout @ weight
    kernels::matmul_tn(dweight, dout, inp, bt, oc, ic); // dweight += doutᵀ @ inp
    if !dbias.is_empty() {
        for row in dout[..bt * oc].chunks_exact(oc) {
            for (g, &d) in dbias.iter_mut().zip(row) {
                *g += d;
            }
        }
    }
}

/// Scratch floats the attention pair needs for sequences of t tokens and head size hs.
pub fn attention_scratch_len(t: usize, hs: usize) -> usize {
    hs + 2 * t
}

/// Causal (or, with `causal` false, full) multi-head self-attention.
/// qkv (B,T,3C) rows [q | k | v], head h = columns h·HS..(h+1)·HS of each;
/// preatt, att (B,NH,T,T): scaled scores q·k/√HS and their softmax (masked cells −inf, 0);
/// out (B,T,C): heads merged, head h in columns h·HS..(h+1)·HS.
#[allow(clippy::too_many_arguments)]
pub fn attention_forward(
    out: &mut [f32],
    preatt: &mut [f32],
    att: &mut [f32],
    qkv: &[f32],
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    causal: bool,
) {
    dispatch!(
        attention_forward_body,
        (out: &mut [f32], preatt: &mut [f32], att: &mut [f32], qkv: &[f32],
         b: usize, t: usize, c: usize, nh: usize, causal: bool)
    )
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn attention_forward_body<const FMA: bool, const R: usize, const W: usize>(
    out: &mut [f32],
    preatt: &mut [f32],
    att: &mut [f32],
    qkv: &[f32],
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    causal: bool,
) {
    let hs = c / nh;
    let scale = (1.0 / (hs as f64).sqrt()) as f32; // torch: (q @ kᵀ) * f32(1/√hs)
    for bi in 0..b {
        let qkv_b = &qkv[bi * t * 3 * c..][..t * 3 * c];
        for h in 0..nh {
            for ti in 0..t {
                let row = ((bi * nh + h) * t + ti) * t;
                let (pre, w) = (&mut preatt[row..row + t], &mut att[row..row + t]);
                let q = &qkv_b[ti * 3 * c + h * hs..][..hs];
                let visible = if causal { ti + 1 } else { t };
                // preatt = (q · k) · scale for the visible keys
                for (t2, p) in pre[..visible].iter_mut().enumerate() {
                    let k = &qkv_b[t2 * 3 * c + c + h * hs..][..hs];
                    *p = kernels::dot::<FMA>(q, k) * scale;
                }
                pre[visible..].fill(f32::NEG_INFINITY);
                // att = softmax(preatt)
                let maxval = kernels::max(&pre[..visible]);
                let inv = 1.0 / kernels::exp_shifted(&mut w[..visible], &pre[..visible], maxval);
                w[..visible].iter_mut().for_each(|wv| *wv *= inv);
                w[visible..].fill(0.0);
                // out = Σ_t2 att[t2] · v[t2]
                let o = &mut out[(bi * t + ti) * c + h * hs..][..hs];
                o.fill(0.0);
                for (t2, &wv) in w[..visible].iter().enumerate() {
                    kernels::axpy::<FMA>(o, wv, &qkv_b[t2 * 3 * c + 2 * c + h * hs..][..hs]);
                }
            }
        }
    }
}

/// dqkv (B,T,3C) += from dout (B,T,C), with the forward's att (B,NH,T,T);
/// scratch: `attention_scratch_len(T, HS)` floats.
#[allow(clippy::too_many_arguments)]
pub fn attention_backward(
    dqkv: &mut [f32],
    dout: &[f32],
    qkv: &[f32],
    att: &[f32],
    scratch: &mut [f32],
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    causal: bool,
) {
    dispatch!(
        attention_backward_body,
        (dqkv: &mut [f32], dout: &[f32], qkv: &[f32], att: &[f32], scratch: &mut [f32],
         b: usize, t: usize, c: usize, nh: usize, causal: bool)
    )
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn attention_backward_body<const FMA: bool, const R: usize, const W: usize>(
    dqkv: &mut [f32],
    dout: &[f32],
    qkv: &[f32],
    att: &[f32],
    scratch: &mut [f32],
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    causal: bool,
) {
    let hs = c / nh;
    let scale = (1.0 / (hs as f64).sqrt()) as f32;
    let (dq, rest) = scratch.split_at_mut(hs); // (HS) dq of one query
    let (datt, rest) = rest.split_at_mut(t); // (T)
    let dpreatt = &mut rest[..t]; // (T)
    for bi in 0..b {
        let off = bi * t * 3 * c;
        let (qkv_b, dqkv_b) = (&qkv[off..][..t * 3 * c], &mut dqkv[off..][..t * 3 * c]);
        for h in 0..nh {
            for ti in 0..t {
                let w = &att[((bi * nh + h) * t + ti) * t..][..t];
                let d_o = &dout[(bi * t + ti) * c + h * hs..][..hs];
                let visible = if causal { ti + 1 } else { t };
                let (datt, dpre, w) =
                    (&mut datt[..visible], &mut dpreatt[..visible], &w[..visible]);
                // out = Σ_t2 att[t2] · v[t2]
                for (t2, (da, &wv)) in datt.iter_mut().zip(w).enumerate() {
                    let v_off = t2 * 3 * c + 2 * c + h * hs;
                    *da = kernels::dot::<FMA>(&qkv_b[v_off..][..hs], d_o);
                    kernels::axpy::<FMA>(&mut dqkv_b[v_off..][..hs], wv, d_o);
                }
                // att = softmax(preatt): dpreatt = att ⊙ (datt − Σ att·datt)
                let dot = kernels::dot::<FMA>(w, datt);
                for ((dp, &wv), &da) in dpre.iter_mut().zip(w).zip(datt.iter()) {
                    *dp = wv * (da - dot);
                }
                // preatt = (q · k) · scale
                let q_off = ti * 3 * c + h * hs;
                dq.fill(0.0);
                for (t2, &dp) in dpre.iter().enumerate() {
                    let k_off = t2 * 3 * c + c + h * hs;
                    kernels::axpy::<FMA>(dq, dp * scale, &qkv_b[k_off..][..hs]);
                    kernels::axpy::<FMA>(
                        &mut dqkv_b[k_off..][..hs],
                        dp * scale,
                        &qkv_b[q_off..][..hs],
                    );
                }
                kernels::axpy::<FMA>(&mut dqkv_b[q_off..][..hs], 1.0, dq);
            }
        }
    }
}

/// out = gelu(inp) = inp · Φ(inp), the exact erf form; any shape.
pub fn gelu_forward(out: &mut [f32], inp: &[f32]) {
    kernels::gelu(out, inp);
}

/// dinp += gelu'(inp) · dout.
pub fn gelu_backward(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
    // out = inp · Φ(inp)  ⇒  d out / d inp = Φ(inp) + inp · φ(inp)
    kernels::gelu_grad(dinp, inp, dout);
}

/// out = inp1 + inp2 (the residual stream); any shape.
pub fn residual_forward(out: &mut [f32], inp1: &[f32], inp2: &[f32]) {
    for ((o, &a), &b) in out.iter_mut().zip(inp1).zip(inp2) {
        *o = a + b;
    }
}

/// dinp1, dinp2 += dout.
pub fn residual_backward(dinp1: &mut [f32], dinp2: &mut [f32], dout: &[f32]) {
    for ((d1, d2), &d) in dinp1.iter_mut().zip(dinp2.iter_mut()).zip(dout) {
        *d1 += d;
        *d2 += d;
    }
}

/// probs (BT,V) = softmax(logits (BT,V)) per row; with targets (BT), losses (BT) =
/// −log probs[target], computed as logsumexp − logit as torch's log_softmax does.
/// Returns the mean loss (sum in f64), or None without targets.
pub fn crossentropy_forward(
    losses: &mut [f32],
    probs: &mut [f32],
    logits: &[f32],
    targets: Option<&[u32]>,
    v: usize,
) -> Option<f32> {
    dispatch!(
        crossentropy_forward_body,
        (losses: &mut [f32], probs: &mut [f32], logits: &[f32], targets: Option<&[u32]>, v: usize)
            -> Option<f32>
    )
}

#[inline(always)]
fn crossentropy_forward_body<const FMA: bool, const R: usize, const W: usize>(
    losses: &mut [f32],
    probs: &mut [f32],
    logits: &[f32],
    targets: Option<&[u32]>,
    v: usize,
) -> Option<f32> {
    let mut total = 0.0f64;
    for (n, (p, l)) in probs
        .chunks_exact_mut(v)
        .zip(logits.chunks_exact(v))
        .enumerate()
    {
        let maxval = kernels::max(l);
        let sum = kernels::exp_shifted(p, l, maxval);
        let inv = 1.0 / sum;
        p.iter_mut().for_each(|pi| *pi *= inv);
        if let Some(y) = targets {
            let loss = sum.ln() - (l[y[n] as usize] - maxval);
            losses[n] = loss;
            total += loss as f64;
        }
    }
    targets.map(|y| (total / y.len() as f64) as f32)
}

/// dlogits (BT,V) += (probs − onehot(targets)) · dloss; dloss = 1/BT for the mean loss.
pub fn crossentropy_backward(
    dlogits: &mut [f32],
    probs: &[f32],
    targets: &[u32],
    dloss: f32,
    v: usize,
) {
    for ((dl, p), &y) in dlogits
        .chunks_exact_mut(v)
        .zip(probs.chunks_exact(v))
        .zip(targets)
    {
        // loss = −log softmax(logits)[y]
        for (i, (d, &pi)) in dl.iter_mut().zip(p).enumerate() {
            let indicator = if i == y as usize { 1.0 } else { 0.0 };
            *d += (pi - indicator) * dloss;
        }
    }
}
