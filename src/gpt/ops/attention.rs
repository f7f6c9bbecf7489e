//! Causal (or full) multi-head self-attention, forward and backward, in f32 on strided
//! views of qkv: per (sequence, head) three small tiled matmuls and a row softmax.
//! `naive::attention_*` is the loop-by-loop twin (`tests/gpt_ops.rs`), and
//! `tests/gpt_attention_ref.rs` holds each (sequence, head) equal to the f64 reference
//! `attention::attend` and its backward.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH.

use super::super::kernels::{self, kernel, Strided, StridedMut};
use super::AttnShape;

/// Rows per block of the causal products: a block of query rows reads the keys (and values)
/// up to its last row only, so a causal head does about half the multiply-adds of a full one.
const CAUSAL_ROWS: usize = 16;

/// (first row, rows, visible columns) of each block of query rows: one block of all t rows
/// seeing all t columns without the mask; CAUSAL_ROWS-row blocks seeing up to their last
/// row with it.
fn row_blocks(s: AttnShape) -> impl Iterator<Item = (usize, usize, usize)> {
    let step = if s.causal { CAUSAL_ROWS } else { s.t.max(1) };
    (0..s.t).step_by(step).map(move |i0| {
        let rows = step.min(s.t - i0);
        (i0, rows, s.visible(i0 + rows - 1))
    })
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

/// torch's scale: (q @ kᵀ) * f32(1/√HS).
fn scale(hs: usize) -> f32 {
    (1.0 / (hs as f64).sqrt()) as f32
}

kernel! {
    /// qkv (B,T,3C) rows [q | k | v], head h = columns h·HS..(h+1)·HS of each;
    /// preatt, att (B,NH,T,T): scaled scores q·k/√HS and their softmax (masked cells −inf, 0);
    /// out (B,T,C): heads merged, head h in columns h·HS..(h+1)·HS;
    /// scratch: `attention_scratch_len(T, HS)` floats.
    /// Per (sequence, head): preatt = Q Kᵀ · scale, att = softmax(preatt) per row, out = att V.
    pub fn attention_forward<const FMA: bool, const R: usize, const W: usize>(
        out: &mut [f32],
        preatt: &mut [f32],
        att: &mut [f32],
        qkv: &[f32],
        scratch: &mut [f32],
        s: AttnShape,
    ) {
        let (t, c) = (s.t, s.c);
        let kt = &mut scratch[..s.hs() * t]; // (HS,T) Kᵀ of one head
        for bi in 0..s.b {
            let qkv_b = &qkv[bi * t * 3 * c..][..t * 3 * c];
            let out_b = &mut out[bi * t * c..][..t * c];
            for h in 0..s.nh {
                let tt = (bi * s.nh + h) * t * t;
                let (pre, w) = (&mut preatt[tt..][..t * t], &mut att[tt..][..t * t]);
                head_forward::<FMA, R, W>(out_b, pre, w, qkv_b, kt, h, s);
            }
        }
    }
}

/// One (sequence, head) of the forward: qkv_b (T,3C), out_b (T,C), pre and w (T,T).
#[inline(always)]
fn head_forward<const FMA: bool, const R: usize, const W: usize>(
    out_b: &mut [f32],
    pre: &mut [f32],
    w: &mut [f32],
    qkv_b: &[f32],
    kt: &mut [f32],
    h: usize,
    s: AttnShape,
) {
    let (t, c, hs) = (s.t, s.c, s.hs());
    let scale = scale(hs);
    // preatt = (q · k) · scale, then −inf on the masked cells
    head_transposed(kt, qkv_b, c + h * hs, 3 * c, t, hs);
    pre.fill(0.0);
    for (i0, rows, cols) in row_blocks(s) {
        let q = head(qkv_b, i0 * 3 * c + h * hs, 3 * c);
        let pre_m = StridedMut {
            data: &mut pre[i0 * t..],
            ld: t,
        };
        kernels::nn_strided::<FMA, R, W>(pre_m, q, Strided { data: kt, ld: t }, rows, hs, cols);
    }
    for (ti, (p_row, w_row)) in pre
        .chunks_exact_mut(t)
        .zip(w.chunks_exact_mut(t))
        .enumerate()
    {
        let visible = s.visible(ti);
        p_row[..visible].iter_mut().for_each(|p| *p *= scale);
        p_row[visible..].fill(f32::NEG_INFINITY);
        // att = softmax(preatt)
        kernels::softmax(&mut w_row[..visible], &p_row[..visible]);
        w_row[visible..].fill(0.0);
    }
    // out = att @ v (the masked weights are 0)
    for row in out_b.chunks_exact_mut(c) {
        row[h * hs..][..hs].fill(0.0);
    }
    let v = head(qkv_b, 2 * c + h * hs, 3 * c);
    for (i0, rows, cols) in row_blocks(s) {
        let w = Strided {
            data: &w[i0 * t..],
            ld: t,
        };
        let out = head_mut(out_b, i0 * c + h * hs, c);
        kernels::nn_strided::<FMA, R, W>(out, w, v, rows, cols, hs);
    }
}

kernel! {
    /// dqkv (B,T,3C) += from dout (B,T,C), with the forward's att (B,NH,T,T);
    /// scratch: `attention_scratch_len(T, HS)` floats.
    pub fn attention_backward<const FMA: bool, const R: usize, const W: usize>(
        dqkv: &mut [f32],
        dout: &[f32],
        qkv: &[f32],
        att: &[f32],
        scratch: &mut [f32],
        s: AttnShape,
    ) {
        let (t, c) = (s.t, s.c);
        for bi in 0..s.b {
            let off = bi * t * 3 * c;
            let (qkv_b, dqkv_b) = (&qkv[off..][..t * 3 * c], &mut dqkv[off..][..t * 3 * c]);
            let dout_b = &dout[bi * t * c..][..t * c];
            for h in 0..s.nh {
                let w = &att[(bi * s.nh + h) * t * t..][..t * t];
                head_backward::<FMA, R, W>(dqkv_b, dout_b, qkv_b, w, scratch, h, s);
            }
        }
    }
}

/// One (sequence, head) of the backward: dqkv_b, qkv_b (T,3C), dout_b (T,C), w (T,T).
#[inline(always)]
fn head_backward<const FMA: bool, const R: usize, const W: usize>(
    dqkv_b: &mut [f32],
    dout_b: &[f32],
    qkv_b: &[f32],
    w: &[f32],
    scratch: &mut [f32],
    h: usize,
    s: AttnShape,
) {
    let (t, c, hs) = (s.t, s.c, s.hs());
    let scale = scale(hs);
    let (vt, rest) = scratch.split_at_mut(hs * t); // (HS,T) Vᵀ of one head
    let datt = &mut rest[..t * t]; // (T,T) datt, then dpreatt · scale
    let d_o = head(dout_b, h * hs, c);
    // out = att @ v: datt = dout @ vᵀ, dv += attᵀ @ dout
    head_transposed(vt, qkv_b, 2 * c + h * hs, 3 * c, t, hs);
    datt.fill(0.0);
    let datt_m = StridedMut { data: datt, ld: t };
    kernels::nn_strided::<FMA, R, W>(datt_m, d_o, Strided { data: vt, ld: t }, t, hs, t);
    let dv = head_mut(dqkv_b, 2 * c + h * hs, 3 * c);
    kernels::tn_strided::<FMA, R, W>(dv, Strided { data: w, ld: t }, d_o, t, t, hs);
    // att = softmax(preatt): dpreatt = att ⊙ (datt − Σ att·datt), stored · scale
    for (ti, (d_row, w_row)) in datt.chunks_exact_mut(t).zip(w.chunks_exact(t)).enumerate() {
        let visible = s.visible(ti);
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
