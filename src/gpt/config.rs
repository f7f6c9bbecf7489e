//! Model shape (`GptConfig`, what a checkpoint stores) and training settings
//! (`Hyperparams`: the reference's presets, every field overridable).

use serde::{Deserialize, Serialize};

use super::{bail, GptError};

/// Largest model accepted: 25 M parameters. Training keeps four f32 copies (weights,
/// gradients, AdamW m and v), so this caps that state at 400 MB, below wasm32's 4 GB.
pub const MAX_PARAMS: u128 = 25_000_000;
/// Largest model opened for inference only (a Hugging Face GPT-2, `hf`): 400 M parameters,
/// 1.6 GB of f32 weights and no gradients or optimizer state, so gpt2-medium (355 M) still
/// fits wasm32's 4 GB with its activations; gpt2-large (774 M) does not.
pub const MAX_INFER_PARAMS: u128 = 400_000_000;
/// Largest activation memory accepted: 64 M f32 (256 MB) for a forward plus backward pass.
pub const MAX_ACTIVATION_FLOATS: u128 = 64 << 20;
/// Largest vocab, block size, layer count, head count or width: checked before any product.
const MAX_DIM: usize = 1 << 20;
/// Most layers accepted. The parameter cap alone lets n_embd = 1 stack a million layers,
/// and every layer costs a dozen named tensors and sixteen activation buffers whose
/// bookkeeping no float count sees: a 6 kB checkpoint claiming 999 990 layers made the
/// loader allocate 2 GB. GPT-3 has 96 layers.
pub const MAX_LAYER: usize = 1024;

/// The MLP's activation. nanoGPT (and so every model trained here) uses PyTorch's exact
/// GELU, x·Φ(x) with the erf; GPT-2 was trained with the tanh approximation
/// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), Hugging Face's `gelu_new`. The two differ
/// by up to 1e-3, so a model runs with the one it was trained with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gelu {
    #[default]
    Erf,
    Tanh,
}

/// The model's shape, GPT-2 names. `bias` = biases in every Linear and LayerNorm.
/// Serde: what a data-parallel replica is built from (`parallel::ReplicaConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GptConfig {
    pub vocab_size: usize,
    pub block_size: usize,
    pub n_layer: usize,
    pub n_head: usize,
    pub n_embd: usize,
    pub bias: bool,
}

impl GptConfig {
    /// Ok if every size is positive, n_embd divides into n_head heads and the
    /// parameter count stays under `MAX_PARAMS`; the message says which rule broke.
    pub fn validate(&self) -> Result<(), GptError> {
        self.validate_shape()?;
        let n = self.num_params_u128();
        if n > MAX_PARAMS {
            bail!("gpt.config.too_many_params", n, limit = MAX_PARAMS);
        }
        Ok(())
    }

    /// `validate` for a model that is only run, never trained: up to `MAX_INFER_PARAMS`.
    pub fn validate_inference(&self) -> Result<(), GptError> {
        self.validate_shape()?;
        let n = self.num_params_u128();
        if n > MAX_INFER_PARAMS {
            bail!(
                "gpt.hf.too_big",
                n,
                mb = (n * 4) >> 20,
                limit = format!("{} M", MAX_INFER_PARAMS / 1_000_000)
            );
        }
        Ok(())
    }

    /// Every size positive and under `MAX_DIM`, at most `MAX_LAYER` layers, heads dividing
    /// n_embd.
    fn validate_shape(&self) -> Result<(), GptError> {
        let sizes = [
            ("vocab_size", self.vocab_size),
            ("block_size", self.block_size),
            ("n_layer", self.n_layer),
            ("n_head", self.n_head),
            ("n_embd", self.n_embd),
        ];
        for (name, v) in sizes {
            if v == 0 || v > MAX_DIM {
                bail!("gpt.config.size_range", name, max = MAX_DIM, value = v);
            }
        }
        if self.n_layer > MAX_LAYER {
            bail!(
                "gpt.config.too_many_layers",
                n = self.n_layer,
                limit = MAX_LAYER
            );
        }
        if !self.n_embd.is_multiple_of(self.n_head) {
            bail!(
                "gpt.config.heads_divide",
                n_embd = self.n_embd,
                n_head = self.n_head
            );
        }
        Ok(())
    }

    /// HS = C / NH.
    pub fn head_size(&self) -> usize {
        self.n_embd / self.n_head
    }

    /// Length of the flat parameter buffer (the tied wte/lm_head counted once).
    pub fn num_params(&self) -> usize {
        self.num_params_u128() as usize
    }

    fn num_params_u128(&self) -> u128 {
        let (v, t, l, c) = (
            self.vocab_size as u128,
            self.block_size as u128,
            self.n_layer as u128,
            self.n_embd as u128,
        );
        let b = self.bias as u128;
        // ln_1, attn (c_attn 3C×C, c_proj C×C), ln_2, mlp (c_fc 4C×C, c_proj C×4C)
        let block = (c + b * c)
            + (3 * c * c + b * 3 * c)
            + (c * c + b * c)
            + (c + b * c)
            + (4 * c * c + b * 4 * c)
            + (4 * c * c + b * c);
        v * c + t * c + l * block + (c + b * c)
    }

    /// f32 count of `Activations` + `ActGrads` for a batch of b sequences of block_size.
    /// Saturating: fields not yet validated (up to usize::MAX) overflow even u128, and a
    /// count that saturates is simply over every limit.
    pub fn activation_floats(&self, b: usize) -> u128 {
        let mul = u128::saturating_mul;
        let (bt, c, l) = (
            mul(b as u128, self.block_size as u128),
            self.n_embd as u128,
            self.n_layer as u128,
        );
        let att = mul(2 * self.n_head as u128, self.block_size as u128); // preatt + att per token
        let per_layer = (18 * c + 4).saturating_add(att);
        let top = 2 * c + 2 * self.vocab_size as u128 + 3;
        mul(mul(2, bt), mul(l, per_layer).saturating_add(top))
    }

    /// Ok if a batch of `batch_size` fits under `MAX_ACTIVATION_FLOATS`.
    pub fn validate_batch(&self, batch_size: usize) -> Result<(), GptError> {
        if batch_size == 0 || batch_size > MAX_DIM {
            bail!(
                "gpt.config.size_range",
                name = "batch_size",
                max = MAX_DIM,
                value = batch_size
            );
        }
        let n = self.activation_floats(batch_size);
        if n > MAX_ACTIVATION_FLOATS {
            bail!(
                "gpt.config.activations",
                batch_size,
                block_size = self.block_size,
                mb = n >> 18, // 4 bytes per f32, 2^20 bytes per MB; n · 4 could overflow
                limit = MAX_ACTIVATION_FLOATS >> 18
            );
        }
        Ok(())
    }
}

/// Everything `tools/gpt_torch.py hyperparams()` reads from a preset and its override flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Hyperparams {
    pub n_layer: usize,
    pub n_head: usize,
    pub n_embd: usize,
    pub block_size: usize,
    pub batch_size: usize,
    /// f64 like the Python floats AdamW computes its scalars from.
    pub lr: f64,
    pub weight_decay: f64,
    pub bias: bool,
    /// false = no causal mask: the lesson's counterexample (each position sees the answer).
    pub causal: bool,
}

/// Preset names in the reference's order.
pub const PRESETS: [&str; 4] = ["tiny", "small", "cpu", "induction"];

impl Hyperparams {
    /// A loaded model's shape (`c`) with these training settings (batch size, lr, weight
    /// decay, mask): a checkpoint fixes the shape, the learner the rest.
    pub fn on_model(self, c: &GptConfig) -> Hyperparams {
        Hyperparams {
            n_layer: c.n_layer,
            n_head: c.n_head,
            n_embd: c.n_embd,
            block_size: c.block_size,
            bias: c.bias,
            ..self
        }
    }

    /// tiny (1, 4, 32, 8, 32), small (2, 4, 64, 32, 16), cpu (4, 4, 128, 64, 12) as
    /// (n_layer, n_head, n_embd, block_size, batch_size); lr 1e-3, wd 0.1, biases on.
    /// induction (2, 4, 32, 64, 32) with lr 3e-3: for the repeated-strings task
    /// (`toy::RepeatTask`), where its induction head forms in about 1,500 steps (two
    /// layers: a head needs one in an earlier layer to compose with).
    pub fn preset(name: &str) -> Result<Hyperparams, GptError> {
        let (n_layer, n_head, n_embd, block_size, batch_size) = match name {
            "tiny" => (1, 4, 32, 8, 32),
            "small" => (2, 4, 64, 32, 16),
            "cpu" => (4, 4, 128, 64, 12),
            "induction" => (2, 4, 32, 64, 32),
            _ => bail!(
                "gpt.config.unknown_preset",
                name = format!("{name:?}"),
                presets = PRESETS.join(", ")
            ),
        };
        Ok(Hyperparams {
            n_layer,
            n_head,
            n_embd,
            block_size,
            batch_size,
            lr: if name == "induction" { 3e-3 } else { 1e-3 },
            weight_decay: 0.1,
            bias: true,
            causal: true,
        })
    }

    /// The model shape for a corpus with `vocab_size` distinct characters.
    pub fn model_config(&self, vocab_size: usize) -> GptConfig {
        GptConfig {
            vocab_size,
            block_size: self.block_size,
            n_layer: self.n_layer,
            n_head: self.n_head,
            n_embd: self.n_embd,
            bias: self.bias,
        }
    }

    /// Checks the model shape, the batch's memory and the optimizer numbers.
    pub fn validate(&self, vocab_size: usize) -> Result<(), GptError> {
        let cfg = self.model_config(vocab_size);
        cfg.validate()?;
        cfg.validate_batch(self.batch_size)?;
        if !(self.lr.is_finite() && self.lr > 0.0) {
            bail!("gpt.config.bad_lr", value = self.lr);
        }
        if !(self.weight_decay.is_finite() && self.weight_decay >= 0.0) {
            bail!("gpt.config.bad_weight_decay", value = self.weight_decay);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (fuzz target checkpoint): under the parameter cap with n_embd = 1, yet
    /// a million layers of per-tensor bookkeeping; refused before anything is built.
    #[test]
    fn a_million_thin_layers_are_refused() {
        let cfg = GptConfig {
            vocab_size: 33,
            block_size: 4,
            n_layer: 999_990,
            n_head: 1,
            n_embd: 1,
            bias: true,
        };
        assert!(cfg.num_params_u128() <= MAX_PARAMS);
        let e = cfg.validate().unwrap_err().to_string();
        assert!(e.contains("n_layer") && e.contains("limit"), "{e}");
        let ok = GptConfig {
            n_layer: MAX_LAYER,
            ..cfg
        };
        assert_eq!(ok.validate(), Ok(()));
    }

    /// Regression (fuzz target gpt_config): `validate_batch` on a config whose fields were
    /// not validated yet overflowed u128 (a panic in debug, a wrapped small count in
    /// release). Every field at its maximum is now simply too big.
    #[test]
    fn validate_batch_on_unvalidated_huge_fields_is_an_err() {
        let cfg = GptConfig {
            vocab_size: usize::MAX,
            block_size: usize::MAX,
            n_layer: usize::MAX,
            n_head: usize::MAX,
            n_embd: usize::MAX,
            bias: true,
        };
        assert_eq!(cfg.activation_floats(usize::MAX), u128::MAX);
        let e = cfg.validate_batch(MAX_DIM).unwrap_err().to_string();
        assert!(e.ends_with("the limit is 256 MB"), "{e}");
        assert!(cfg.validate().is_err());
    }
}
