//! The GPT: parameters and gradients (flat buffers), and forward/backward composed from
//! the op pairs in `ops`: the embeddings and the final LayerNorm and lm_head here, each
//! transformer block in `block`.
//!
//! B = batch, T = time, C = channels, NH = heads, V = vocab, L = layers, BT = B·T.

pub use super::acts::{ActGrads, Activations, BlockActs};
use super::block::{block_backward, block_forward, grads, weights, BlockGrad, BlockMode};
use super::config::{Gelu, GptConfig};
use super::kernels;
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
    /// Heads switched off (ablated), layer-major (n_layer × n_head), empty = none: an
    /// ablated head's output (its HS columns of `atty`) is zero before c_proj, and so is
    /// its gradient. Not saved.
    pub ablated: Vec<bool>,
    /// The MLP's GELU: `Erf` for every model trained here, `Tanh` for GPT-2 (`hf`).
    pub gelu: Gelu,
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
            ablated: Vec::new(),
            gelu: Gelu::Erf,
        })
    }

    /// A model that is only run, never trained (a Hugging Face GPT-2): every weight 0, no
    /// gradients, up to `MAX_INFER_PARAMS`. The weights are reserved with `try_reserve`, so
    /// a browser tab that cannot grow its memory that far gets `gpt.hf.out_of_memory`
    /// instead of an abort.
    pub fn for_inference(config: GptConfig, gelu: Gelu) -> Result<Gpt, GptError> {
        config.validate_inference()?;
        let index = ParamIndex::new(&config);
        let mut params = Vec::new();
        if params.try_reserve_exact(index.len).is_err() {
            bail!("gpt.hf.out_of_memory", mb = (index.len * 4) >> 20);
        }
        params.resize(index.len, 0.0);
        Ok(Gpt {
            config,
            index,
            params,
            grads: Vec::new(),
            causal: true,
            ablated: Vec::new(),
            gelu,
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
        self.trunk(acts, idx, b, t, false);
        let (p, ix, c, v, bt) = (
            &self.params,
            &self.index,
            self.config.n_embd,
            self.config.vocab_size,
            b * t,
        );
        assert!(
            acts.logits.len() >= bt * v,
            "Gpt::forward: these activations keep the last position's logits only (forward_last)"
        );
        let wte = &p[ix.wte.clone()];
        // lm_head is wte: logits = ln_f @ wteᵀ, no bias
        let lm_head = Weights {
            weight: wte,
            bias: &[],
        };
        let shape = LinearShape { bt, ic: c, oc: v };
        let weight_t = &mut acts.scratch.weight_t;
        matmul_forward(&mut acts.logits, &acts.ln_f, lm_head, weight_t, shape);
        let (probs, logits) = (&mut acts.probs[..bt * v], &acts.logits[..bt * v]);
        crossentropy_forward(&mut acts.losses, probs, logits, targets, v)
    }

    /// The embeddings, every block and the final LayerNorm over idx (B,T), into `acts`;
    /// `inference`: the blocks' matmuls on the weights as stored (`BlockMode::inference`).
    fn trunk(&self, acts: &mut Activations, idx: &[u32], b: usize, t: usize, inference: bool) {
        let s = self.shape(b, t);
        let (p, ix, c, bt) = (&self.params, &self.index, s.c, b * t);
        (acts.b, acts.t) = (b, t);
        let (wte, wpe) = (&p[ix.wte.clone()], &p[ix.wpe.clone()]);
        encoder_forward(&mut acts.encoded[..bt * c], idx, wte, wpe, t, c);
        for l in 0..self.config.n_layer {
            let (prev, rest) = acts.blocks.split_at_mut(l);
            let residual = match prev.last() {
                Some(a) => &a.residual3,
                None => &acts.encoded,
            };
            let w = &ix.blocks[l];
            block_forward(
                &mut rest[0],
                &residual[..bt * c],
                p,
                w,
                &mut acts.scratch,
                BlockMode {
                    inference,
                    ..self.mode(l)
                },
                s,
            );
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
            weights(p, &ix.ln_f_w, &ix.ln_f_b),
            c,
        );
    }

    /// Forward pass over one sequence idx (T), with the logits and next-token
    /// probabilities of its last position only (`acts.logits[..V]`, `acts.probs[..V]`):
    /// what a prompt shows, without the (T, V) products of every other position, and with
    /// the blocks' matmuls on the weights as stored (no transposes): the inference pass. Takes
    /// `Activations::new` or `Activations::for_inference`; Err on ids `check_batch`
    /// rejects.
    pub fn forward_last(&self, acts: &mut Activations, idx: &[u32]) -> Result<(), GptError> {
        let t = idx.len();
        self.check_batch(acts, idx, None, 1, t)?;
        self.trunk(acts, idx, 1, t, true);
        let (c, v) = (self.config.n_embd, self.config.vocab_size);
        let x = &acts.ln_f[(t - 1) * c..t * c];
        // lm_head is wte: logits (V) = wte (V,C) @ x (C)
        let wte = &self.params[self.index.wte.clone()];
        matvec_forward(&mut acts.logits[..v], wte, x);
        kernels::softmax(&mut acts.probs[..v], &acts.logits[..v]);
        Ok(())
    }

    /// Backward pass of the last `forward(acts, idx, Some(targets), ..)`: zeroes `grads`
    /// and then accumulates d(mean loss)/d(params) (`backward_into` with dloss = 1/BT).
    pub fn backward(
        &mut self,
        acts: &Activations,
        dacts: &mut ActGrads,
        idx: &[u32],
        targets: &[u32],
    ) {
        let mut g = std::mem::take(&mut self.grads);
        let dloss = 1.0 / (acts.b * acts.t) as f32;
        self.backward_into(acts, dacts, idx, targets, &mut g, dloss);
        self.grads = g;
    }

    /// Backward pass of the last `forward(acts, idx, Some(targets), ..)` into `g` (the
    /// layout of `params`): zeroes g, then accumulates d(dloss · Σ losses)/d(params).
    /// dloss = 1/BT gives the batch's mean loss; a slice of a larger batch of B'·T tokens
    /// takes 1/(B'·T), so that the slices' gradients sum to the whole batch's (`parallel`).
    /// Each activation gradient in `dacts` is zeroed just before the first op that
    /// accumulates into it.
    pub fn backward_into(
        &self,
        acts: &Activations,
        dacts: &mut ActGrads,
        idx: &[u32],
        targets: &[u32],
        g: &mut [f32],
        dloss: f32,
    ) {
        let s = self.shape(acts.b, acts.t);
        let (t, c, v, bt) = (s.t, s.c, self.config.vocab_size, s.b * s.t);
        let (p, ix) = (&self.params, &self.index);
        assert_eq!(g.len(), p.len(), "Gpt::backward_into: grads length");
        g.fill(0.0);
        let d = &mut dacts.acts;
        let dlogits = zeroed(&mut d.logits, bt * v);
        crossentropy_backward(dlogits, &acts.probs, targets, dloss, v);
        let dwte = WeightGrads {
            dweight: &mut g[ix.wte.clone()],
            dbias: &mut [],
        };
        let shape = LinearShape { bt, ic: c, oc: v };
        let (dln_f, wte) = (zeroed(&mut d.ln_f, bt * c), &p[ix.wte.clone()]);
        matmul_backward(dln_f, dwte, &d.logits, &acts.ln_f, wte, shape);
        let (last, dlast) = match (acts.blocks.last(), d.blocks.last_mut()) {
            (Some(a), Some(da)) => (&a.residual3, &mut da.residual3),
            _ => (&acts.encoded, &mut d.encoded),
        };
        let saved = LayerNormSaved {
            inp: &last[..bt * c],
            mean: &acts.ln_f_mean,
            rstd: &acts.ln_f_rstd,
        };
        let (dw, ln_f_w) = (grads(g, &ix.ln_f_w, &ix.ln_f_b), &p[ix.ln_f_w.clone()]);
        layernorm_backward(zeroed(dlast, bt * c), dw, &d.ln_f, saved, ln_f_w, c);
        for l in (0..self.config.n_layer).rev() {
            let (dprev, drest) = d.blocks.split_at_mut(l);
            let (residual, dresidual) = match dprev.last_mut() {
                Some(da) => (&acts.blocks[l - 1].residual3, &mut da.residual3),
                None => (&acts.encoded, &mut d.encoded),
            };
            let blk = BlockGrad {
                a: &acts.blocks[l],
                da: &mut drest[0],
                residual: &residual[..bt * c],
                dresidual,
            };
            let mode = self.mode(l);
            block_backward(blk, p, g, &ix.blocks[l], &mut d.scratch.attn, mode, s);
        }
        let (dwte, dwpe) = view2(g, &ix.wte, &ix.wpe);
        encoder_backward(dwte, dwpe, &d.encoded[..bt * c], idx, t, c);
    }

    /// Switches head `h` of layer `l` off (`on` = false) or back on; Err if there is no
    /// such head.
    pub fn set_ablated(&mut self, l: usize, h: usize, off: bool) -> Result<(), GptError> {
        let (n_layer, n_head) = (self.config.n_layer, self.config.n_head);
        if l >= n_layer || h >= n_head {
            bail!("gpt.explain.no_head", layer = l, head = h, n_layer, n_head);
        }
        if self.ablated.len() != n_layer * n_head {
            self.ablated = vec![false; n_layer * n_head];
        }
        self.ablated[l * n_head + h] = off;
        if !self.ablated.contains(&true) {
            self.ablated.clear();
        }
        Ok(())
    }

    /// How layer l runs: its ablated heads (n_head flags, or empty when none is) and
    /// the GELU.
    fn mode(&self, l: usize) -> BlockMode<'_> {
        let nh = self.config.n_head;
        BlockMode {
            off: self.ablated.get(l * nh..(l + 1) * nh).unwrap_or(&[]),
            gelu: self.gelu,
            inference: false,
        }
    }

    /// The attention shapes of a (b, t) batch.
    fn shape(&self, b: usize, t: usize) -> AttnShape {
        let (c, nh) = (self.config.n_embd, self.config.n_head);
        AttnShape {
            b,
            t,
            c,
            nh,
            causal: self.causal,
        }
    }
}

/// buf[..n], zeroed: an activation gradient about to be accumulated into.
pub(super) fn zeroed(buf: &mut [f32], n: usize) -> &mut [f32] {
    let buf = &mut buf[..n];
    buf.fill(0.0);
    buf
}

/// Two disjoint mutable views; `first` must end at or before `second` starts.
pub(super) fn view2<'a>(
    g: &'a mut [f32],
    first: &std::ops::Range<usize>,
    second: &std::ops::Range<usize>,
) -> (&'a mut [f32], &'a mut [f32]) {
    let (lo, hi) = g.split_at_mut(second.start);
    (&mut lo[first.clone()], &mut hi[..second.len()])
}
