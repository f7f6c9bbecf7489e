//! One forward/backward pair per differentiable op, llm.c style.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH, V = vocab, BT = B·T,
//! OC / IC = a Linear's output / input channels.
//! Every function opens with its shapes. A backward quotes the forward line it
//! differentiates and accumulates into its `d*` outputs with `+=`; the caller zeroes them
//! once per step. An empty bias slice means "no bias" (`bias=False`).

use super::kernels::{self, dispatch, Strided, StridedMut};

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
    hs * t + t * t
}

/// Head h's columns of a (rows, `ld`) buffer from column `off`: a strided matrix view.
fn head(buf: &[f32], off: usize, ld: usize) -> Strided<'_> {
    Strided {
        data: &buf[off..],
        ld,
    }
}

fn head_mut(buf: &mut [f32], off: usize, ld: usize) -> StridedMut<'_> {
    StridedMut {
        data: &mut buf[off..],
        ld,
    }
}

/// out (HS×T) = head h's (T×HS) columns of `buf` from `off` (row stride `ld`), transposed.
fn head_transposed(out: &mut [f32], buf: &[f32], off: usize, ld: usize, t: usize, hs: usize) {
    for t2 in 0..t {
        for (d, &x) in buf[t2 * ld + off..][..hs].iter().enumerate() {
            out[d * t + t2] = x;
        }
    }
}

/// Causal (or, with `causal` false, full) multi-head self-attention.
/// qkv (B,T,3C) rows [q | k | v], head h = columns h·HS..(h+1)·HS of each;
/// preatt, att (B,NH,T,T): scaled scores q·k/√HS and their softmax (masked cells −inf, 0);
/// out (B,T,C): heads merged, head h in columns h·HS..(h+1)·HS;
/// scratch: `attention_scratch_len(T, HS)` floats.
/// Per (sequence, head) it is three small matmuls on strided views of qkv:
/// preatt = Q Kᵀ · scale, att = softmax(preatt) per row, out = att V.
#[allow(clippy::too_many_arguments)]
pub fn attention_forward(
    out: &mut [f32],
    preatt: &mut [f32],
    att: &mut [f32],
    qkv: &[f32],
    scratch: &mut [f32],
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    causal: bool,
) {
    dispatch!(
        attention_forward_body,
        (out: &mut [f32], preatt: &mut [f32], att: &mut [f32], qkv: &[f32], scratch: &mut [f32],
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
    scratch: &mut [f32],
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    causal: bool,
) {
    let hs = c / nh;
    let scale = (1.0 / (hs as f64).sqrt()) as f32; // torch: (q @ kᵀ) * f32(1/√hs)
    let kt = &mut scratch[..hs * t]; // (HS,T) Kᵀ of one head
    for bi in 0..b {
        let qkv_b = &qkv[bi * t * 3 * c..][..t * 3 * c];
        let out_b = &mut out[bi * t * c..][..t * c];
        for h in 0..nh {
            let tt = (bi * nh + h) * t * t;
            let (pre, w) = (&mut preatt[tt..][..t * t], &mut att[tt..][..t * t]);
            // preatt = (q · k) · scale, then −inf on the masked cells
            head_transposed(kt, qkv_b, c + h * hs, 3 * c, t, hs);
            pre.fill(0.0);
            let q = head(qkv_b, h * hs, 3 * c);
            let pre_m = StridedMut { data: pre, ld: t };
            let kt_m = Strided { data: kt, ld: t };
            kernels::nn_strided::<FMA, R, W>(pre_m, q, kt_m, t, hs, t);
            for (ti, (p_row, w_row)) in pre
                .chunks_exact_mut(t)
                .zip(w.chunks_exact_mut(t))
                .enumerate()
            {
                let visible = if causal { ti + 1 } else { t };
                p_row[..visible].iter_mut().for_each(|p| *p *= scale);
                p_row[visible..].fill(f32::NEG_INFINITY);
                // att = softmax(preatt)
                let maxval = kernels::max(&p_row[..visible]);
                let sum = kernels::exp_shifted(&mut w_row[..visible], &p_row[..visible], maxval);
                let inv = 1.0 / sum;
                w_row[..visible].iter_mut().for_each(|wv| *wv *= inv);
                w_row[visible..].fill(0.0);
            }
            // out = att @ v (the masked weights are 0)
            for row in out_b.chunks_exact_mut(c) {
                row[h * hs..][..hs].fill(0.0);
            }
            let w = Strided { data: w, ld: t };
            let v = head(qkv_b, 2 * c + h * hs, 3 * c);
            kernels::nn_strided::<FMA, R, W>(head_mut(out_b, h * hs, c), w, v, t, t, hs);
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
    let (vt, rest) = scratch.split_at_mut(hs * t); // (HS,T) Vᵀ of one head
    let datt = &mut rest[..t * t]; // (T,T) datt, then dpreatt · scale
    for bi in 0..b {
        let off = bi * t * 3 * c;
        let (qkv_b, dqkv_b) = (&qkv[off..][..t * 3 * c], &mut dqkv[off..][..t * 3 * c]);
        let dout_b = &dout[bi * t * c..][..t * c];
        for h in 0..nh {
            let w = &att[(bi * nh + h) * t * t..][..t * t];
            let d_o = head(dout_b, h * hs, c);
            // out = att @ v: datt = dout @ vᵀ, dv += attᵀ @ dout
            head_transposed(vt, qkv_b, 2 * c + h * hs, 3 * c, t, hs);
            datt.fill(0.0);
            let datt_m = StridedMut { data: datt, ld: t };
            kernels::nn_strided::<FMA, R, W>(datt_m, d_o, Strided { data: vt, ld: t }, t, hs, t);
            let dv = head_mut(dqkv_b, 2 * c + h * hs, 3 * c);
            kernels::tn_strided::<FMA, R, W>(dv, Strided { data: w, ld: t }, d_o, t, t, hs);
            // att = softmax(preatt): dpreatt = att ⊙ (datt − Σ att·datt), stored · scale
            for (ti, (d_row, w_row)) in datt.chunks_exact_mut(t).zip(w.chunks_exact(t)).enumerate()
            {
                let visible = if causal { ti + 1 } else { t };
                let dot = kernels::dot::<FMA>(&w_row[..visible], &d_row[..visible]);
                for (dp, &wv) in d_row[..visible].iter_mut().zip(w_row) {
                    *dp = wv * (*dp - dot) * scale;
                }
                d_row[visible..].fill(0.0);
            }
            // preatt = (q @ kᵀ) · scale: dq += dpreatt·scale @ k, dk += (dpreatt·scale)ᵀ @ q
            let dpre = Strided { data: datt, ld: t };
            let k = head(qkv_b, c + h * hs, 3 * c);
            kernels::nn_strided::<FMA, R, W>(head_mut(dqkv_b, h * hs, 3 * c), dpre, k, t, t, hs);
            let q = head(qkv_b, h * hs, 3 * c);
            let dk = head_mut(dqkv_b, c + h * hs, 3 * c);
            kernels::tn_strided::<FMA, R, W>(dk, dpre, q, t, t, hs);
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
