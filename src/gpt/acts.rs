//! What a forward pass keeps (and the page draws): `Activations`, one `BlockActs` per
//! block, and `ActGrads`, their gradients.
//!
//! B = batch, T = time, C = channels, NH = heads, V = vocab, BT = B·T.

use super::config::GptConfig;
use super::ops::attention_scratch_len;

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
    pub(super) scratch: Scratch,
    /// `for_inference`: logits and probs hold the last position only.
    last_only: bool,
}

/// Buffers the ops borrow for the length of one call.
#[derive(Clone, Debug)]
pub(super) struct Scratch {
    /// The largest transposed weight (`matmul_forward`).
    pub weight_t: Vec<f32>,
    /// `attention_forward` / `attention_backward`'s per-head buffers.
    pub attn: Vec<f32>,
}

impl Activations {
    /// Buffers for batches of up to b_max sequences of up to t_max ≤ block_size tokens.
    pub fn new(cfg: &GptConfig, b_max: usize, t_max: usize) -> Activations {
        let (c, v) = (cfg.n_embd, cfg.vocab_size);
        Activations::new_sized(cfg, b_max, t_max, b_max * t_max * v, (4 * c * c).max(v * c))
    }

    /// `new` with `logits_len` floats of logits and of probabilities and `weight_t_len` of
    /// scratch for a transposed weight.
    fn new_sized(
        cfg: &GptConfig,
        b_max: usize,
        t_max: usize,
        logits_len: usize,
        weight_t_len: usize,
    ) -> Activations {
        let (c, bt) = (cfg.n_embd, b_max * t_max);
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
            logits: z(logits_len),
            probs: z(logits_len),
            losses: z(bt),
            scratch: Scratch {
                weight_t: z(weight_t_len),
                attn: z(attention_scratch_len(t_max, cfg.head_size())),
            },
            last_only: false,
        }
    }

    /// Buffers for one sequence of up to t_max tokens run by `Gpt::forward_last` (a prompt
    /// shown, not trained on): the logits and probabilities of one position, and scratch
    /// for the blocks' weights only (lm_head is a matrix-vector product). For GPT-2 at 256
    /// tokens this is 250 MB instead of 500 MB.
    pub fn for_inference(cfg: &GptConfig, t_max: usize) -> Activations {
        let c = cfg.n_embd;
        let mut acts = Activations::new_sized(cfg, 1, t_max, cfg.vocab_size, 4 * c * c);
        acts.last_only = true;
        acts
    }

    /// The f32 count of `for_inference(cfg, t_max)`: what the page says a model needs.
    pub fn inference_floats(cfg: &GptConfig, t_max: usize) -> u128 {
        let (c, v, t, nh) = (
            cfg.n_embd as u128,
            cfg.vocab_size as u128,
            t_max as u128,
            cfg.n_head as u128,
        );
        let block = t * (18 * c + 4) + 2 * nh * t * t;
        let top = t * (2 * c + 3) + 2 * v;
        cfg.n_layer as u128 * block
            + top
            + 4 * c * c
            + attention_scratch_len(t_max, cfg.head_size()) as u128
    }

    /// True for `for_inference` buffers: logits of one position (`Gpt::forward_last`).
    pub fn last_only(&self) -> bool {
        self.last_only
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

    /// Next-token probabilities (V) after the last position of sequence 0: what a prompt
    /// shows, from either kind of buffers.
    pub fn next_probs(&self, v: usize) -> &[f32] {
        if self.last_only {
            &self.probs[..v]
        } else {
            self.probs_at(0, self.t - 1, v)
        }
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
