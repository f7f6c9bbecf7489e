//! One transformer block, forward and backward (nanoGPT's `Block`):
//! x = x + attn(ln_1(x)); x = x + mlp(ln_2(x)), with attn = c_proj(attention(c_attn(·)))
//! and mlp = c_proj(gelu(c_fc(·))).
//!
//! B = batch, T = time, C = channels, BT = B·T.

use super::acts::{BlockActs, Scratch};
use super::config::Gelu;
use super::model::{view2, zeroed};
use super::ops::*;
use super::params::BlockIndex;
use std::ops::Range;

/// A Linear's or LayerNorm's weight and bias views into the flat parameters.
pub(super) fn weights<'a>(p: &'a [f32], w: &Range<usize>, b: &Range<usize>) -> Weights<'a> {
    Weights {
        weight: &p[w.clone()],
        bias: &p[b.clone()],
    }
}

/// Their gradients' views into the flat gradients (the bias follows its weight).
pub(super) fn grads<'a>(g: &'a mut [f32], w: &Range<usize>, b: &Range<usize>) -> WeightGrads<'a> {
    let (dweight, dbias) = view2(g, w, b);
    WeightGrads { dweight, dbias }
}

/// Zeroes the HS columns of each head flagged in `off` (NH flags or none) in `y` (BT,C):
/// an ablated head's output, or its gradient.
fn zero_heads(y: &mut [f32], off: &[bool], s: AttnShape) {
    let hs = s.c / s.nh;
    for (h, _) in off.iter().enumerate().filter(|(_, &o)| o) {
        for row in y[..s.b * s.t * s.c].chunks_exact_mut(s.c) {
            row[h * hs..(h + 1) * hs].fill(0.0);
        }
    }
}

/// How a block runs besides its shapes: the heads switched off and the MLP's GELU.
#[derive(Clone, Copy)]
pub(super) struct BlockMode<'a> {
    /// The heads ablated (NH flags, or empty for none).
    pub off: &'a [bool],
    pub gelu: Gelu,
    /// The inference pass (`Gpt::forward_last`): matmuls on the weights as stored
    /// (`matmul_forward_nt`), no transposes; training's pass keeps `matmul_forward`.
    pub inference: bool,
}

/// a = the block's activations for the input `residual` (BT,C); w = its weights in p.
pub(super) fn block_forward(
    a: &mut BlockActs,
    residual: &[f32],
    p: &[f32],
    w: &BlockIndex,
    scratch: &mut Scratch,
    mode: BlockMode,
    s: AttnShape,
) {
    let (c, bt) = (s.c, s.b * s.t);
    let lin = |ic, oc| LinearShape { bt, ic, oc };
    let wt = &mut scratch.weight_t;
    let linear = |out: &mut [f32], inp: &[f32], w: Weights, wt: &mut [f32], shape| {
        if mode.inference {
            matmul_forward_nt(out, inp, w, wt, shape)
        } else {
            matmul_forward(out, inp, w, wt, shape)
        }
    };
    let (ln_1, ln_2) = (
        weights(p, &w.ln_1_w, &w.ln_1_b),
        weights(p, &w.ln_2_w, &w.ln_2_b),
    );
    layernorm_forward(
        &mut a.ln_1,
        &mut a.ln_1_mean,
        &mut a.ln_1_rstd,
        residual,
        ln_1,
        c,
    );
    let c_attn = weights(p, &w.c_attn_w, &w.c_attn_b);
    linear(&mut a.qkv, &a.ln_1, c_attn, wt, lin(c, 3 * c));
    let (preatt, att) = (&mut a.preatt, &mut a.att);
    attention_forward(&mut a.atty, preatt, att, &a.qkv, &mut scratch.attn, s);
    zero_heads(&mut a.atty, mode.off, s);
    let attn_proj = weights(p, &w.attn_proj_w, &w.attn_proj_b);
    linear(&mut a.attproj, &a.atty, attn_proj, wt, lin(c, c));
    residual_forward(&mut a.residual2[..bt * c], residual, &a.attproj);
    let residual2 = &a.residual2[..bt * c];
    layernorm_forward(
        &mut a.ln_2,
        &mut a.ln_2_mean,
        &mut a.ln_2_rstd,
        residual2,
        ln_2,
        c,
    );
    let c_fc = weights(p, &w.c_fc_w, &w.c_fc_b);
    linear(&mut a.fch, &a.ln_2, c_fc, wt, lin(c, 4 * c));
    let fch_gelu = &mut a.fch_gelu[..bt * 4 * c];
    match mode.gelu {
        Gelu::Erf => gelu_forward(fch_gelu, &a.fch),
        Gelu::Tanh => gelu_tanh_forward(fch_gelu, &a.fch),
    }
    let mlp_proj = weights(p, &w.mlp_proj_w, &w.mlp_proj_b);
    linear(&mut a.fcproj, &a.fch_gelu, mlp_proj, wt, lin(4 * c, c));
    residual_forward(&mut a.residual3[..bt * c], &a.residual2, &a.fcproj);
}

/// One block's forward values and their gradients: `da.residual3` holds d(block output)
/// on entry; `dresidual` (BT,C), d(block input), is zeroed and then filled.
pub(super) struct BlockGrad<'a> {
    pub a: &'a BlockActs,
    pub da: &'a mut BlockActs,
    pub residual: &'a [f32],
    pub dresidual: &'a mut [f32],
}

/// The block's backward, in reverse order of `block_forward`: gradients of its weights
/// accumulate into g, of its activations into blk.da, of its input into blk.dresidual.
pub(super) fn block_backward(
    blk: BlockGrad,
    p: &[f32],
    g: &mut [f32],
    w: &BlockIndex,
    attn_scratch: &mut [f32],
    mode: BlockMode,
    s: AttnShape,
) {
    let BlockGrad {
        a,
        da,
        residual,
        dresidual,
    } = blk;
    let (c, bt) = (s.c, s.b * s.t);
    let lin = |ic, oc| LinearShape { bt, ic, oc };
    let ln = |inp, mean, rstd| LayerNormSaved { inp, mean, rstd };
    // residual3 = residual2 + fcproj
    let (dresidual2, dfcproj) = (
        zeroed(&mut da.residual2, bt * c),
        zeroed(&mut da.fcproj, bt * c),
    );
    residual_backward(dresidual2, dfcproj, &da.residual3[..bt * c]);
    let (dw, mlp_proj_w) = (
        grads(g, &w.mlp_proj_w, &w.mlp_proj_b),
        &p[w.mlp_proj_w.clone()],
    );
    let dfch_gelu = zeroed(&mut da.fch_gelu, bt * 4 * c);
    matmul_backward(
        dfch_gelu,
        dw,
        &da.fcproj,
        &a.fch_gelu,
        mlp_proj_w,
        lin(4 * c, c),
    );
    let dfch = zeroed(&mut da.fch, bt * 4 * c);
    match mode.gelu {
        Gelu::Erf => gelu_backward(dfch, &a.fch, &da.fch_gelu),
        Gelu::Tanh => gelu_tanh_backward(dfch, &a.fch, &da.fch_gelu),
    }
    let (dw, c_fc_w) = (grads(g, &w.c_fc_w, &w.c_fc_b), &p[w.c_fc_w.clone()]);
    let dln_2 = zeroed(&mut da.ln_2, bt * c);
    matmul_backward(dln_2, dw, &da.fch, &a.ln_2, c_fc_w, lin(c, 4 * c));
    let (dw, ln_2_w) = (grads(g, &w.ln_2_w, &w.ln_2_b), &p[w.ln_2_w.clone()]);
    // the first BT rows only: a batch smaller than the buffers (a data-parallel slice)
    // must not add the stale rows behind it
    let saved = ln(&a.residual2[..bt * c], &a.ln_2_mean, &a.ln_2_rstd);
    let dresidual2 = &mut da.residual2[..bt * c];
    layernorm_backward(dresidual2, dw, &da.ln_2, saved, ln_2_w, c);
    // residual2 = residual + attproj
    let (dres, dattproj) = (zeroed(dresidual, bt * c), zeroed(&mut da.attproj, bt * c));
    residual_backward(dres, dattproj, &da.residual2[..bt * c]);
    let (dw, proj_w) = (
        grads(g, &w.attn_proj_w, &w.attn_proj_b),
        &p[w.attn_proj_w.clone()],
    );
    let datty = zeroed(&mut da.atty, bt * c);
    matmul_backward(datty, dw, &da.attproj, &a.atty, proj_w, lin(c, c));
    zero_heads(datty, mode.off, s); // an ablated head's output did not reach the loss
    let dqkv = zeroed(&mut da.qkv, bt * 3 * c);
    attention_backward(dqkv, &da.atty, &a.qkv, &a.att, attn_scratch, s);
    let (dw, c_attn_w) = (grads(g, &w.c_attn_w, &w.c_attn_b), &p[w.c_attn_w.clone()]);
    let dln_1 = zeroed(&mut da.ln_1, bt * c);
    matmul_backward(dln_1, dw, &da.qkv, &a.ln_1, c_attn_w, lin(c, 3 * c));
    let (dw, ln_1_w) = (grads(g, &w.ln_1_w, &w.ln_1_b), &p[w.ln_1_w.clone()]);
    let saved = ln(residual, &a.ln_1_mean, &a.ln_1_rstd);
    layernorm_backward(dresidual, dw, &da.ln_1, saved, ln_1_w, c);
}
