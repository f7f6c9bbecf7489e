//! One forward/backward pair per differentiable op, llm.c style.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH, V = vocab, BT = B·T,
//! OC / IC = a Linear's output / input channels.
//! Every function opens with its shapes. A backward quotes the forward line it
//! differentiates and accumulates into its `d*` outputs with `+=`; the caller zeroes them
//! once per step. An empty bias slice means "no bias" (`bias=False`).
//! Each op has a naive twin in `naive` that `tests/gpt_ops.rs` holds it equal to.

mod attention;

pub use attention::{attention_backward, attention_forward, attention_scratch_len};

use super::kernels::{self, kernel};

/// A Linear's or a LayerNorm's parameters; an empty bias means `bias=False`.
#[derive(Clone, Copy, Debug)]
pub struct Weights<'a> {
    pub weight: &'a [f32],
    pub bias: &'a [f32],
}

/// Where the gradients of `Weights` accumulate (an empty dbias: no bias).
#[derive(Debug)]
pub struct WeightGrads<'a> {
    pub dweight: &'a mut [f32],
    pub dbias: &'a mut [f32],
}

/// What a LayerNorm's backward needs from its forward: the input (BT,C) and the
/// per-row mean and rstd (BT).
#[derive(Clone, Copy, Debug)]
pub struct LayerNormSaved<'a> {
    pub inp: &'a [f32],
    pub mean: &'a [f32],
    pub rstd: &'a [f32],
}

/// A Linear's shapes: BT rows of IC inputs to OC outputs.
#[derive(Clone, Copy, Debug)]
pub struct LinearShape {
    pub bt: usize,
    pub ic: usize,
    pub oc: usize,
}

/// Attention's shapes: B sequences of T tokens, C channels in NH heads; `causal` false =
/// every position sees the future too.
#[derive(Clone, Copy, Debug)]
pub struct AttnShape {
    pub b: usize,
    pub t: usize,
    pub c: usize,
    pub nh: usize,
    pub causal: bool,
}

impl AttnShape {
    /// HS = C / NH.
    pub fn hs(&self) -> usize {
        self.c / self.nh
    }

    /// Key positions query ti sees: 0..=ti when causal, else all T.
    fn visible(&self, ti: usize) -> usize {
        if self.causal {
            ti + 1
        } else {
            self.t
        }
    }
}

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

kernel! {
    /// out (BT,C) = (inp − mean) · rstd · weight + bias per row; mean, rstd (BT) kept for
    /// backward. Biased variance (÷C), eps 1e-5, as torch's LayerNorm.
    pub fn layernorm_forward<const FMA: bool>(
        out: &mut [f32],
        mean: &mut [f32],
        rstd: &mut [f32],
        inp: &[f32],
        w: Weights,
        c: usize,
    ) {
        let weight = &w.weight[..c];
        let rows = out.chunks_exact_mut(c).zip(inp.chunks_exact(c));
        for ((o, x), (m, s)) in rows.zip(mean.iter_mut().zip(rstd.iter_mut())) {
            let mu = kernels::sum(x) / c as f32;
            for (oj, &xj) in o.iter_mut().zip(x) {
                *oj = xj - mu; // centred, reused for the variance
            }
            let var = kernels::dot::<FMA>(o, o) / c as f32;
            let r = 1.0 / (var + 1e-5).sqrt();
            if w.bias.is_empty() {
                o.iter_mut()
                    .zip(weight)
                    .for_each(|(oj, &w)| *oj = *oj * r * w);
            } else {
                let it = o.iter_mut().zip(weight).zip(&w.bias[..c]);
                it.for_each(|((oj, &w), &b)| *oj = *oj * r * w + b);
            }
            (*m, *s) = (mu, r);
        }
    }
}

kernel! {
    /// dinp (BT,C), dweight (C), dbias (C) += from dout (BT,C), with the forward's input,
    /// mean and rstd.
    pub fn layernorm_backward<const FMA: bool>(
        dinp: &mut [f32],
        dw: WeightGrads,
        dout: &[f32],
        saved: LayerNormSaved,
        weight: &[f32],
        c: usize,
    ) {
        let (weight, dweight, dbias) = (&weight[..c], &mut dw.dweight[..c], dw.dbias);
        let rows = dinp
            .chunks_exact_mut(c)
            .zip(dout.chunks_exact(c))
            .zip(saved.inp.chunks_exact(c));
        for (((dx, dy), x), (&mu, &r)) in rows.zip(saved.mean.iter().zip(saved.rstd)) {
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
}

/// Each row of `out` (rows of `oc`) set to `bias`, or 0 without one: where a Linear's
/// product is added.
fn bias_rows<'a>(out: &'a mut [f32], bias: &[f32], oc: usize) -> &'a mut [f32] {
    if bias.is_empty() {
        out.fill(0.0);
    } else {
        out.chunks_exact_mut(oc)
            .for_each(|row| row.copy_from_slice(bias));
    }
    out
}

/// out (BT,OC) = inp (BT,IC) @ weight (OC,IC)ᵀ + bias (OC); weight_t (IC,OC) is scratch
/// for the transposed weight so the kernel streams contiguous rows.
pub fn matmul_forward(
    out: &mut [f32],
    inp: &[f32],
    w: Weights,
    weight_t: &mut [f32],
    s: LinearShape,
) {
    let LinearShape { bt, ic, oc } = s;
    let out = bias_rows(&mut out[..bt * oc], w.bias, oc);
    kernels::transpose(weight_t, w.weight, oc, ic);
    kernels::matmul_nn(out, inp, weight_t, bt, ic, oc);
}

/// `matmul_forward` for the inference pass. In wasm (the page: GPT-2 in its worker) the
/// weight (OC,IC) is read as stored by `matmul_nt`, nothing transposed per pass (on GPT-2
/// small the transposes took 0.8 s of a 1.5 s pass): the same product summed in another
/// order, within a few ulp of `matmul_forward`'s. Natively `matmul_nn`'s AVX tiles beat
/// the portable `matmul_nt` (0.9 s against 2.1 s a pass), so the CLI keeps the transpose.
pub fn matmul_forward_nt(
    out: &mut [f32],
    inp: &[f32],
    w: Weights,
    weight_t: &mut [f32],
    s: LinearShape,
) {
    if cfg!(not(target_arch = "wasm32")) {
        return matmul_forward(out, inp, w, weight_t, s);
    }
    let LinearShape { bt, ic, oc } = s;
    let out = bias_rows(&mut out[..bt * oc], w.bias, oc);
    kernels::matmul_nt(out, inp, &w.weight[..ic * oc], bt, ic, oc);
}

kernel! {
    /// out (V) = weight (V,C) @ x (C): one position's logits from the tied lm_head, a dot
    /// product per row of wte (streamed once; no transpose, no (T, V) product).
    pub fn matvec_forward<const FMA: bool>(out: &mut [f32], weight: &[f32], x: &[f32]) {
        let c = x.len();
        for (o, row) in out.iter_mut().zip(weight.chunks_exact(c)) {
            *o = kernels::dot::<FMA>(row, x);
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
    let LinearShape { bt, ic, oc } = s;
    // out = inp @ weightᵀ + bias
    kernels::matmul_nn(dinp, dout, weight, bt, oc, ic); // dinp += dout @ weight
    kernels::matmul_tn(dw.dweight, dout, inp, bt, oc, ic); // dweight += doutᵀ @ inp
    if !dw.dbias.is_empty() {
        for row in dout[..bt * oc].chunks_exact(oc) {
            for (g, &d) in dw.dbias.iter_mut().zip(row) {
                *g += d;
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

/// √(2/π), the tanh GELU's scale.
const SQRT_2_OVER_PI: f32 = 0.797_884_6;

/// out = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), GPT-2's GELU (Hugging Face's
/// `gelu_new`); any shape. tanh(u) = 1 − 2/(e^{2u} + 1) with the kernels' exp, which
/// vectorises (libm's tanhf is a call per value: 35 of GPT-2's 420 ms a pass in the page,
/// against 6); within 1e-6 of tanhf (tests/gpt_ops.rs).
pub fn gelu_tanh_forward(out: &mut [f32], inp: &[f32]) {
    for (o, &x) in out.iter_mut().zip(inp) {
        let u = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x);
        let e = kernels::exp((2.0 * u).min(80.0)); // e^160 would overflow f32; tanh is 1 there
        *o = 0.5 * x * (2.0 - 2.0 / (e + 1.0));
    }
}

/// dinp += gelu_tanh'(inp) · dout.
pub fn gelu_tanh_backward(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
    for ((d, &x), &g) in dinp.iter_mut().zip(inp).zip(dout) {
        let th = (SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)).tanh();
        let du = SQRT_2_OVER_PI * (1.0 + 3.0 * 0.044715 * x * x);
        *d += (0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * du) * g;
    }
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

kernel! {
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
        let mut total = 0.0f64;
        for (n, (p, l)) in probs
            .chunks_exact_mut(v)
            .zip(logits.chunks_exact(v))
            .enumerate()
        {
            let (maxval, sum) = kernels::softmax(p, l);
            if let Some(y) = targets {
                let loss = sum.ln() - (l[y[n] as usize] - maxval);
                losses[n] = loss;
                total += loss as f64;
            }
        }
        targets.map(|y| (total / y.len() as f64) as f32)
    }
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
