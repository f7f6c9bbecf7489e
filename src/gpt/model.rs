//! The GPT: parameters and gradients (flat buffers), the activations a forward pass keeps,
//! and forward/backward composed from the op pairs in `ops`.
//!
//! B = batch, T = time, C = channels, NH = heads, V = vocab, L = layers, BT = B·T.

use super::config::GptConfig;
use super::ops::*;
use super::params::{init_params, ParamIndex};
use super::{bail, GptError};

/// Weights, their gradients and the names of both.
#[derive(Clone, Debug)]
pub struct Gpt {
    pub config: GptConfig,
    pub index: ParamIndex,
    pub params: Vec<f32>,
    pub grads: Vec<f32>,
    /// false = attention sees the future too (the lesson's counterexample). Not saved.
    pub causal: bool,
}

/// What one block's forward keeps; shapes for the allocated (B, T).
#[derive(Clone, Debug)]
pub struct BlockActs {
    pub ln_1: Vec<f32>,      // (B,T,C)
    pub ln_1_mean: Vec<f32>, // (B,T)
    pub ln_1_rstd: Vec<f32>, // (B,T)
    pub qkv: Vec<f32>,       // (B,T,3C) rows [q | k | v]
    pub preatt: Vec<f32>,    // (B,NH,T,T) q·k/√HS, masked cells −inf
    pub att: Vec<f32>,       // (B,NH,T,T) softmax weights: what the page draws
    pub atty: Vec<f32>,      // (B,T,C) att @ v, heads merged
    pub attproj: Vec<f32>,   // (B,T,C)
    pub residual2: Vec<f32>, // (B,T,C) residual + attproj
    pub ln_2: Vec<f32>,      // (B,T,C)
    pub ln_2_mean: Vec<f32>, // (B,T)
    pub ln_2_rstd: Vec<f32>, // (B,T)
    pub fch: Vec<f32>,       // (B,T,4C)
    pub fch_gelu: Vec<f32>,  // (B,T,4C)
    pub fcproj: Vec<f32>,    // (B,T,C)
    pub residual3: Vec<f32>, // (B,T,C) residual2 + fcproj: the next block's input
}

impl BlockActs {
    fn new(b: usize, t: usize, c: usize, nh: usize) -> BlockActs {
        let z = |n: usize| vec![0.0f32; n];
        let (bt, att) = (b * t, b * nh * t * t);
        BlockActs {
            ln_1: z(bt * c),
            ln_1_mean: z(bt),
            ln_1_rstd: z(bt),
            qkv: z(bt * 3 * c),
            preatt: z(att),
            att: z(att),
            atty: z(bt * c),
            attproj: z(bt * c),
            residual2: z(bt * c),
            ln_2: z(bt * c),
            ln_2_mean: z(bt),
            ln_2_rstd: z(bt),
            fch: z(bt * 4 * c),
            fch_gelu: z(bt * 4 * c),
            fcproj: z(bt * c),
            residual3: z(bt * c),
        }
    }
}

/// Everything a forward pass computes, allocated once for at most `b_max` × `t_max`.
/// After `forward(.., b, t)` the first b·t rows of each buffer hold the (b, t) batch with
/// row stride t (att: index ((b·NH + h)·t + t_q)·t + t_k).
#[derive(Clone, Debug)]
pub struct Activations {
    pub b_max: usize,
    pub t_max: usize,
    /// The (b, t) of the last forward pass.
    pub b: usize,
    pub t: usize,
    pub encoded: Vec<f32>, // (B,T,C) wte[idx] + wpe
    pub blocks: Vec<BlockActs>,
    pub ln_f: Vec<f32>,      // (B,T,C)
    pub ln_f_mean: Vec<f32>, // (B,T)
    pub ln_f_rstd: Vec<f32>, // (B,T)
    pub logits: Vec<f32>,    // (B,T,V)
    pub probs: Vec<f32>,     // (B,T,V) softmax(logits): next-character probabilities
    pub losses: Vec<f32>,    // (B,T) per-position cross-entropy (when targets were given)
    weight_t: Vec<f32>,      // scratch: the largest transposed weight
    attn_scratch: Vec<f32>,  // scratch for attention_forward / attention_backward
}

impl Activations {
    /// Buffers for batches of up to b_max sequences of up to t_max ≤ block_size tokens.
    pub fn new(cfg: &GptConfig, b_max: usize, t_max: usize) -> Activations {
        let (c, v, bt) = (cfg.n_embd, cfg.vocab_size, b_max * t_max);
        let z = |n: usize| vec![0.0f32; n];
        Activations {
            b_max,
            t_max,
            b: 0,
            t: 0,
            encoded: z(bt * c),
            blocks: (0..cfg.n_layer)
                .map(|_| BlockActs::new(b_max, t_max, c, cfg.n_head))
                .collect(),
            ln_f: z(bt * c),
            ln_f_mean: z(bt),
            ln_f_rstd: z(bt),
            logits: z(bt * v),
            probs: z(bt * v),
            losses: z(bt),
            weight_t: z((4 * c * c).max(v * c)),
            attn_scratch: z(attention_scratch_len(t_max, cfg.head_size())),
        }
    }

    /// Layer l's attention weights for sequence bi, head h: a t×t row-major slice
    /// (row = query position, column = key position).
    pub fn att(&self, l: usize, bi: usize, h: usize, nh: usize) -> &[f32] {
        let t = self.t;
        &self.blocks[l].att[(bi * nh + h) * t * t..][..t * t]
    }

    /// (T, T) scaled scores q·k/√HS of head h, layer l, sequence bi (masked cells −inf):
    /// what `att` is the softmax of.
    pub fn preatt(&self, l: usize, bi: usize, h: usize, nh: usize) -> &[f32] {
        let t = self.t;
        &self.blocks[l].preatt[(bi * nh + h) * t * t..][..t * t]
    }

    /// Next-character probabilities (V) after position ti of sequence bi.
    pub fn probs_at(&self, bi: usize, ti: usize, v: usize) -> &[f32] {
        &self.probs[(bi * self.t + ti) * v..][..v]
    }
}

/// Gradients of the activations, same shapes as `Activations`. `Gpt::backward` zeroes each
/// buffer just before the op that first accumulates into it, so it is still in cache.
#[derive(Clone, Debug)]
pub struct ActGrads {
    pub acts: Activations,
}

impl ActGrads {
    pub fn new(cfg: &GptConfig, b_max: usize, t_max: usize) -> ActGrads {
        let mut acts = Activations::new(cfg, b_max, t_max);
        // attention_backward keeps its (T) rows in scratch and LayerNorm's statistics have
        // no gradient: those buffers stay empty, so they cost neither memory nor zeroing
        let unused = |a: &mut BlockActs| {
            for buf in [
                &mut a.preatt,
                &mut a.att,
                &mut a.ln_1_mean,
                &mut a.ln_1_rstd,
                &mut a.ln_2_mean,
                &mut a.ln_2_rstd,
            ] {
                *buf = Vec::new();
            }
        };
        acts.blocks.iter_mut().for_each(unused);
        (acts.probs, acts.losses, acts.ln_f_mean, acts.ln_f_rstd) = Default::default();
        ActGrads { acts }
    }
}

/// buf[..n], zeroed: an activation gradient about to be accumulated into.
fn zeroed(buf: &mut [f32], n: usize) -> &mut [f32] {
    let buf = &mut buf[..n];
    buf.fill(0.0);
    buf
}

fn view<'a>(p: &'a [f32], r: &std::ops::Range<usize>) -> &'a [f32] {
    &p[r.clone()]
}

/// Two disjoint mutable views; `first` must end at or before `second` starts.
fn view2<'a>(
    g: &'a mut [f32],
    first: &std::ops::Range<usize>,
    second: &std::ops::Range<usize>,
) -> (&'a mut [f32], &'a mut [f32]) {
    let (lo, hi) = g.split_at_mut(second.start);
    (&mut lo[first.clone()], &mut hi[..second.len()])
}

impl Gpt {
    /// A model with nanoGPT's initialisation from `seed`; Err if the config is invalid.
    pub fn new(config: GptConfig, seed: u64) -> Result<Gpt, GptError> {
        let mut gpt = Gpt::zeros(config)?;
        gpt.params = init_params(&gpt.config, &gpt.index, seed);
        Ok(gpt)
    }

    /// A model with every weight 0 (to be filled, e.g. by a checkpoint).
    pub fn zeros(config: GptConfig) -> Result<Gpt, GptError> {
        config.validate()?;
        let index = ParamIndex::new(&config);
        let n = index.len;
        Ok(Gpt {
            config,
            index,
            params: vec![0.0; n],
            grads: vec![0.0; n],
            causal: true,
        })
    }

    /// The weights called `name` (nanoGPT's state_dict name).
    pub fn param(&self, name: &str) -> Option<&[f32]> {
        self.index.spec(name).map(|s| &self.params[s.range.clone()])
    }

    /// The gradient of the weights called `name`.
    pub fn grad(&self, name: &str) -> Option<&[f32]> {
        self.index.spec(name).map(|s| &self.grads[s.range.clone()])
    }

    pub fn zero_grad(&mut self) {
        self.grads.fill(0.0);
    }

    /// Checks that idx (and targets) hold b×t ids below V and that (b, t) fits `acts`.
    pub fn check_batch(
        &self,
        acts: &Activations,
        idx: &[u32],
        targets: Option<&[u32]>,
        b: usize,
        t: usize,
    ) -> Result<(), GptError> {
        if b == 0 || t == 0 || b > acts.b_max || t > acts.t_max || t > self.config.block_size {
            bail!(
                "gpt.model.batch_too_big",
                b,
                t,
                b_max = acts.b_max,
                t_max = acts.t_max,
                block_size = self.config.block_size
            );
        }
        for (what, ids) in [("idx", Some(idx)), ("targets", targets)] {
            let Some(ids) = ids else { continue };
            if ids.len() != b * t {
                bail!("gpt.model.ids_len", what, n = ids.len(), b, t);
            }
            if let Some(&bad) = ids.iter().find(|&&i| i as usize >= self.config.vocab_size) {
                bail!(
                    "gpt.model.id_outside_vocab",
                    what,
                    id = bad,
                    vocab_size = self.config.vocab_size
                );
            }
        }
        Ok(())
    }

    /// Forward pass over idx (B,T); with targets (B,T) returns the mean cross-entropy.
    /// Panics on a batch `check_batch` rejects.
    pub fn forward(
        &self,
        acts: &mut Activations,
        idx: &[u32],
        targets: Option<&[u32]>,
        b: usize,
        t: usize,
    ) -> Option<f32> {
        if let Err(e) = self.check_batch(acts, idx, targets, b, t) {
            panic!("Gpt::forward: {e}");
        }
        let cfg = &self.config;
        let (c, v, nh, bt) = (cfg.n_embd, cfg.vocab_size, cfg.n_head, b * t);
        let (p, ix) = (&self.params, &self.index);
        (acts.b, acts.t) = (b, t);
        encoder_forward(
            &mut acts.encoded[..bt * c],
            idx,
            view(p, &ix.wte),
            view(p, &ix.wpe),
            t,
            c,
        );
        for l in 0..cfg.n_layer {
            let (prev, rest) = acts.blocks.split_at_mut(l);
            let residual = if l == 0 {
                &acts.encoded
            } else {
                &prev[l - 1].residual3
            };
            let (a, w, scratch) = (&mut rest[0], &ix.blocks[l], &mut acts.weight_t);
            let r = &residual[..bt * c];
            layernorm_forward(
                &mut a.ln_1,
                &mut a.ln_1_mean,
                &mut a.ln_1_rstd,
                r,
                view(p, &w.ln_1_w),
                view(p, &w.ln_1_b),
                c,
            );
            matmul_forward(
                &mut a.qkv,
                &a.ln_1,
                view(p, &w.c_attn_w),
                view(p, &w.c_attn_b),
                scratch,
                bt,
                c,
                3 * c,
            );
            attention_forward(
                &mut a.atty,
                &mut a.preatt,
                &mut a.att,
                &a.qkv,
                &mut acts.attn_scratch,
                b,
                t,
                c,
                nh,
                self.causal,
            );
            matmul_forward(
                &mut a.attproj,
                &a.atty,
                view(p, &w.attn_proj_w),
                view(p, &w.attn_proj_b),
                scratch,
                bt,
                c,
                c,
            );
            residual_forward(&mut a.residual2[..bt * c], r, &a.attproj);
            layernorm_forward(
                &mut a.ln_2,
                &mut a.ln_2_mean,
                &mut a.ln_2_rstd,
                &a.residual2[..bt * c],
                view(p, &w.ln_2_w),
                view(p, &w.ln_2_b),
                c,
            );
            matmul_forward(
                &mut a.fch,
                &a.ln_2,
                view(p, &w.c_fc_w),
                view(p, &w.c_fc_b),
                scratch,
                bt,
                c,
                4 * c,
            );
            gelu_forward(&mut a.fch_gelu[..bt * 4 * c], &a.fch);
            matmul_forward(
                &mut a.fcproj,
                &a.fch_gelu,
                view(p, &w.mlp_proj_w),
                view(p, &w.mlp_proj_b),
                scratch,
                bt,
                4 * c,
                c,
            );
            residual_forward(&mut a.residual3[..bt * c], &a.residual2, &a.fcproj);
        }
        let last = match acts.blocks.last() {
            Some(a) => &a.residual3,
            None => &acts.encoded,
        };
        layernorm_forward(
            &mut acts.ln_f[..bt * c],
            &mut acts.ln_f_mean,
            &mut acts.ln_f_rstd,
            &last[..bt * c],
            view(p, &ix.ln_f_w),
            view(p, &ix.ln_f_b),
            c,
        );
        // lm_head is wte: logits = ln_f @ wteᵀ, no bias
        matmul_forward(
            &mut acts.logits,
            &acts.ln_f,
            view(p, &ix.wte),
            &[],
            &mut acts.weight_t,
            bt,
            c,
            v,
        );
        crossentropy_forward(
            &mut acts.losses,
            &mut acts.probs[..bt * v],
            &acts.logits[..bt * v],
            targets,
            v,
        )
    }

    /// Backward pass of the last `forward(acts, idx, Some(targets), ..)`: zeroes `grads`
    /// and then accumulates d(mean loss)/d(params); each activation gradient in `dacts` is
    /// zeroed just before the first op that accumulates into it.
    pub fn backward(
        &mut self,
        acts: &Activations,
        dacts: &mut ActGrads,
        idx: &[u32],
        targets: &[u32],
    ) {
        let cfg = &self.config;
        let (b, t) = (acts.b, acts.t);
        let (c, v, nh, bt) = (cfg.n_embd, cfg.vocab_size, cfg.n_head, b * t);
        let (p, g, ix) = (&self.params, &mut self.grads, &self.index);
        g.fill(0.0);
        let d = &mut dacts.acts;
        crossentropy_backward(
            zeroed(&mut d.logits, bt * v),
            &acts.probs,
            targets,
            1.0 / bt as f32,
            v,
        );
        let last = match acts.blocks.last() {
            Some(a) => &a.residual3,
            None => &acts.encoded,
        };
        let dlast = match d.blocks.last_mut() {
            Some(a) => &mut a.residual3,
            None => &mut d.encoded,
        };
        matmul_backward(
            zeroed(&mut d.ln_f, bt * c),
            &mut g[ix.wte.clone()],
            &mut [],
            &d.logits,
            &acts.ln_f,
            view(p, &ix.wte),
            bt,
            c,
            v,
        );
        let (dw, db) = view2(g, &ix.ln_f_w, &ix.ln_f_b);
        layernorm_backward(
            zeroed(dlast, bt * c),
            dw,
            db,
            &d.ln_f,
            &last[..bt * c],
            view(p, &ix.ln_f_w),
            &acts.ln_f_mean,
            &acts.ln_f_rstd,
            c,
        );
        for l in (0..cfg.n_layer).rev() {
            let (a, w) = (&acts.blocks[l], &ix.blocks[l]);
            let residual = if l == 0 {
                &acts.encoded
            } else {
                &acts.blocks[l - 1].residual3
            };
            let (dprev, drest) = d.blocks.split_at_mut(l);
            let dresidual = if l == 0 {
                &mut d.encoded
            } else {
                &mut dprev[l - 1].residual3
            };
            let da = &mut drest[0];
            let r = &residual[..bt * c];
            residual_backward(
                zeroed(&mut da.residual2, bt * c),
                zeroed(&mut da.fcproj, bt * c),
                &da.residual3[..bt * c],
            );
            let (dw, db) = view2(g, &w.mlp_proj_w, &w.mlp_proj_b);
            matmul_backward(
                zeroed(&mut da.fch_gelu, bt * 4 * c),
                dw,
                db,
                &da.fcproj,
                &a.fch_gelu,
                view(p, &w.mlp_proj_w),
                bt,
                4 * c,
                c,
            );
            gelu_backward(zeroed(&mut da.fch, bt * 4 * c), &a.fch, &da.fch_gelu);
            let (dw, db) = view2(g, &w.c_fc_w, &w.c_fc_b);
            matmul_backward(
                zeroed(&mut da.ln_2, bt * c),
                dw,
                db,
                &da.fch,
                &a.ln_2,
                view(p, &w.c_fc_w),
                bt,
                c,
                4 * c,
            );
            let (dw, db) = view2(g, &w.ln_2_w, &w.ln_2_b);
            layernorm_backward(
                &mut da.residual2,
                dw,
                db,
                &da.ln_2,
                &a.residual2,
                view(p, &w.ln_2_w),
                &a.ln_2_mean,
                &a.ln_2_rstd,
                c,
            );
            residual_backward(
                zeroed(dresidual, bt * c),
                zeroed(&mut da.attproj, bt * c),
                &da.residual2[..bt * c],
            );
            let (dw, db) = view2(g, &w.attn_proj_w, &w.attn_proj_b);
            matmul_backward(
                zeroed(&mut da.atty, bt * c),
                dw,
                db,
                &da.attproj,
                &a.atty,
                view(p, &w.attn_proj_w),
                bt,
                c,
                c,
            );
            attention_backward(
                zeroed(&mut da.qkv, bt * 3 * c),
                &da.atty,
                &a.qkv,
                &a.att,
                &mut d.attn_scratch,
                b,
                t,
                c,
                nh,
                self.causal,
            );
            let (dw, db) = view2(g, &w.c_attn_w, &w.c_attn_b);
            matmul_backward(
                zeroed(&mut da.ln_1, bt * c),
                dw,
                db,
                &da.qkv,
                &a.ln_1,
                view(p, &w.c_attn_w),
                bt,
                c,
                3 * c,
            );
            let (dw, db) = view2(g, &w.ln_1_w, &w.ln_1_b);
            layernorm_backward(
                dresidual,
                dw,
                db,
                &da.ln_1,
                r,
                view(p, &w.ln_1_w),
                &a.ln_1_mean,
                &a.ln_1_rstd,
                c,
            );
        }
        let (dwte, dwpe) = view2(g, &ix.wte, &ix.wpe);
        encoder_backward(dwte, dwpe, &d.encoded[..bt * c], idx, t, c);
    }
}
