//! Every parameter in one flat f32 buffer; `ParamIndex` names the views into it.
//!
//! The order and shapes are nanoGPT's `state_dict` (PyTorch layouts: a Linear weight is
//! (out, in)), minus the tied `lm_head.weight`, which is `transformer.wte.weight`.
//! Without biases the bias views are empty ranges, so the ops can test `is_empty()`.

use super::config::GptConfig;
use super::seeded_draws::Rng;
use std::ops::Range;

/// One named tensor: where it lives in the flat buffer and its PyTorch shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    pub name: String,
    pub shape: Vec<usize>,
    pub range: Range<usize>,
}

impl TensorSpec {
    /// nanoGPT decays tensors with dim ≥ 2 (embeddings and Linear weights) only.
    pub fn decays(&self) -> bool {
        self.shape.len() >= 2
    }
}

/// The views of one transformer block `transformer.h.{i}`.
#[derive(Clone, Debug)]
pub struct BlockIndex {
    pub ln_1_w: Range<usize>,      // (C,)
    pub ln_1_b: Range<usize>,      // (C,) or empty
    pub c_attn_w: Range<usize>,    // (3C, C): rows q | k | v
    pub c_attn_b: Range<usize>,    // (3C,)
    pub attn_proj_w: Range<usize>, // (C, C)
    pub attn_proj_b: Range<usize>, // (C,)
    pub ln_2_w: Range<usize>,      // (C,)
    pub ln_2_b: Range<usize>,      // (C,)
    pub c_fc_w: Range<usize>,      // (4C, C)
    pub c_fc_b: Range<usize>,      // (4C,)
    pub mlp_proj_w: Range<usize>,  // (C, 4C)
    pub mlp_proj_b: Range<usize>,  // (C,)
}

/// Named views into the flat buffer, plus the list of stored tensors in order.
#[derive(Clone, Debug)]
pub struct ParamIndex {
    pub wte: Range<usize>, // (V, C), also lm_head
    pub wpe: Range<usize>, // (block_size, C)
    pub blocks: Vec<BlockIndex>,
    pub ln_f_w: Range<usize>, // (C,)
    pub ln_f_b: Range<usize>, // (C,) or empty
    pub specs: Vec<TensorSpec>,
    pub len: usize,
}

struct Builder {
    specs: Vec<TensorSpec>,
    len: usize,
}

impl Builder {
    fn push(&mut self, name: String, shape: &[usize]) -> Range<usize> {
        let range = self.len..self.len + shape.iter().product::<usize>();
        self.len = range.end;
        self.specs.push(TensorSpec {
            name,
            shape: shape.to_vec(),
            range: range.clone(),
        });
        range
    }

    /// A bias: stored when `bias`, else an empty range at the current end.
    fn bias(&mut self, on: bool, name: String, n: usize) -> Range<usize> {
        if on {
            self.push(name, &[n])
        } else {
            self.len..self.len
        }
    }
}

impl ParamIndex {
    /// The layout of `cfg` (assumed validated).
    pub fn new(cfg: &GptConfig) -> ParamIndex {
        let (c, on) = (cfg.n_embd, cfg.bias);
        let mut b = Builder {
            specs: Vec::new(),
            len: 0,
        };
        let wte = b.push("transformer.wte.weight".into(), &[cfg.vocab_size, c]);
        let wpe = b.push("transformer.wpe.weight".into(), &[cfg.block_size, c]);
        let mut blocks = Vec::with_capacity(cfg.n_layer);
        for i in 0..cfg.n_layer {
            let n = |s: &str| format!("transformer.h.{i}.{s}");
            blocks.push(BlockIndex {
                ln_1_w: b.push(n("ln_1.weight"), &[c]),
                ln_1_b: b.bias(on, n("ln_1.bias"), c),
                c_attn_w: b.push(n("attn.c_attn.weight"), &[3 * c, c]),
                c_attn_b: b.bias(on, n("attn.c_attn.bias"), 3 * c),
                attn_proj_w: b.push(n("attn.c_proj.weight"), &[c, c]),
                attn_proj_b: b.bias(on, n("attn.c_proj.bias"), c),
                ln_2_w: b.push(n("ln_2.weight"), &[c]),
                ln_2_b: b.bias(on, n("ln_2.bias"), c),
                c_fc_w: b.push(n("mlp.c_fc.weight"), &[4 * c, c]),
                c_fc_b: b.bias(on, n("mlp.c_fc.bias"), 4 * c),
                mlp_proj_w: b.push(n("mlp.c_proj.weight"), &[c, 4 * c]),
                mlp_proj_b: b.bias(on, n("mlp.c_proj.bias"), c),
            });
        }
        let ln_f_w = b.push("transformer.ln_f.weight".into(), &[c]);
        let ln_f_b = b.bias(on, "transformer.ln_f.bias".into(), c);
        ParamIndex {
            wte,
            wpe,
            blocks,
            ln_f_w,
            ln_f_b,
            specs: b.specs,
            len: b.len,
        }
    }

    /// The spec called `name` (nanoGPT's state_dict name).
    pub fn spec(&self, name: &str) -> Option<&TensorSpec> {
        self.specs.iter().find(|s| s.name == name)
    }
}

/// nanoGPT's init: Linear and Embedding weights N(0, 0.02), both c_proj weights
/// N(0, 0.02/√(2·n_layer)), biases 0, LayerNorm weights 1. Same seed, same weights.
pub fn init_params(cfg: &GptConfig, index: &ParamIndex, seed: u64) -> Vec<f32> {
    let mut params = vec![0.0f32; index.len];
    let mut rng = Rng::new(seed);
    let proj_std = (0.02 / (2.0 * cfg.n_layer as f64).sqrt()) as f32;
    for spec in &index.specs {
        let p = &mut params[spec.range.clone()];
        let name = spec.name.as_str();
        if name.ends_with("c_proj.weight") {
            p.iter_mut().for_each(|x| *x = rng.normal(0.0, proj_std));
        } else if spec.decays() {
            p.iter_mut().for_each(|x| *x = rng.normal(0.0, 0.02));
        } else if name.contains(".ln_") && name.ends_with(".weight") {
            p.fill(1.0);
        } // biases stay 0
    }
    params
}
