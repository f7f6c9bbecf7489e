//! `Trainer`: model + AdamW state + data + buffers, the one object the page's worker
//! (and the CLI) drives with coarse calls: `step`, `estimate_loss`, `generate`,
//! `forward_prompt`, `to_bytes` / `from_checkpoint`. No clock inside: callers time steps.

use super::adamw::AdamW;
use super::checkpoint;
use super::config::Hyperparams;
use super::data::{check_text, estimate_loss, get_batch, Dataset};
use super::model::{ActGrads, Activations, Gpt};
use super::parallel;
use super::sample::{self, SampleOptions};
use super::seeded_draws::Rng;
use super::{bail, gpt_error, GptError};
use std::ops::Range;

pub struct Trainer {
    pub model: Gpt,
    pub opt: AdamW,
    pub data: Dataset,
    pub hp: Hyperparams,
    /// Init and batch seed; `estimate_loss` uses seed + 1 as the reference.
    pub seed: u64,
    /// Training batch activations (batch_size, block_size).
    pub acts: Activations,
    pub dacts: ActGrads,
    /// One sequence (1, block_size): generation and `forward_prompt`.
    pub infer: Activations,
    /// Steps taken.
    pub steps: u64,
    rng: Rng,
    /// The current batch (batch_size, block_size): inputs and targets.
    pub(super) x: Vec<u32>,
    pub(super) y: Vec<u32>,
}

impl Trainer {
    /// A fresh model (nanoGPT init from `seed`) for `text`, vocab = its distinct chars.
    /// `hp.causal = false` trains without the causal mask.
    pub fn new(text: &str, hp: Hyperparams, seed: u64) -> Result<Trainer, GptError> {
        let data = Dataset::new(text)?;
        hp.validate(data.vocab.len())?;
        let model = Gpt::new(hp.model_config(data.vocab.len()), seed)?;
        Trainer::from_parts(model, data, hp, seed)
    }

    /// The model in checkpoint `bytes` (ours or converted from nanoGPT), training on
    /// `text` when it is given (not empty), passes `check_text`, is written in the
    /// checkpoint's vocab and is long enough for its block size. Otherwise the trainer
    /// holds a placeholder text of that vocab (`Vocab::placeholder_text`): it can be
    /// inspected and sampled but not trained, and the second value says why
    /// (`gpt.lab.no_text`, or `gpt.lab.text_cannot_train` with the text's error); it is
    /// `None` for a trainer that can train. The model shape comes from the checkpoint;
    /// batch size, lr, weight decay and the causal flag from `hp`. Err: the bytes are not
    /// a checkpoint, or `hp` does not fit the model.
    pub fn from_checkpoint(
        bytes: &[u8],
        text: Option<&str>,
        hp: Hyperparams,
        seed: u64,
    ) -> Result<(Trainer, Option<GptError>), GptError> {
        let (model, vocab) = checkpoint::from_bytes(bytes)?;
        let bs = model.config.block_size;
        let (data, untrainable) = match text {
            Some(t) if !t.is_empty() => {
                let fits = check_text(t)
                    .and_then(|_| Dataset::with_vocab(t, vocab.clone()))
                    .and_then(|d| d.check_fits(bs).map(|_| d));
                match fits {
                    Ok(d) => (Some(d), None),
                    Err(e) => (
                        None,
                        Some(gpt_error!("gpt.lab.text_cannot_train", reason = e)),
                    ),
                }
            }
            _ => (None, Some(gpt_error!("gpt.lab.no_text"))),
        };
        let data = match data {
            Some(d) => d,
            None => Dataset::with_vocab(&vocab.placeholder_text(bs), vocab)?,
        };
        let hp = hp.on_model(&model.config);
        hp.validate(model.config.vocab_size)?;
        let tr = Trainer::from_parts(model, data, hp, seed)?;
        Ok((tr, untrainable))
    }

    /// Assembles a trainer; checks the batch fits in memory and the text is long enough.
    pub fn from_parts(
        mut model: Gpt,
        data: Dataset,
        hp: Hyperparams,
        seed: u64,
    ) -> Result<Trainer, GptError> {
        let cfg = model.config.clone();
        if data.vocab.len() != cfg.vocab_size {
            bail!(
                "gpt.trainer.vocab_mismatch",
                text_n = data.vocab.len(),
                model_n = cfg.vocab_size
            );
        }
        cfg.validate_batch(hp.batch_size)?;
        data.check_fits(cfg.block_size)?;
        model.causal = hp.causal;
        let (b, t) = (hp.batch_size, cfg.block_size);
        Ok(Trainer {
            opt: AdamW::new(&model.index, hp.lr, hp.weight_decay),
            acts: Activations::new(&cfg, b, t),
            dacts: ActGrads::new(&cfg, b, t),
            infer: Activations::new(&cfg, 1, t),
            steps: 0,
            rng: Rng::new(seed),
            x: vec![0; b * t],
            y: vec![0; b * t],
            model,
            data,
            hp,
            seed,
        })
    }

    /// The batch sampler's position (its RNG state), for `state::to_bytes`.
    pub fn sampler_state(&self) -> u64 {
        self.rng.state()
    }

    /// Moves the batch sampler to a saved position (`sampler_state`).
    pub fn set_sampler_state(&mut self, state: u64) {
        self.rng = Rng::new(state);
    }

    /// Samples a training batch and takes one AdamW step; returns the loss before it.
    pub fn step(&mut self) -> f32 {
        self.next_batch();
        self.step_batch()
    }

    /// Samples the next training batch into the trainer (`step` = this + `step_batch`).
    pub fn next_batch(&mut self) {
        let (b, t) = (self.hp.batch_size, self.model.config.block_size);
        get_batch(
            &self.data.train,
            b,
            t,
            &mut self.rng,
            &mut self.x,
            &mut self.y,
        );
    }

    /// One AdamW step on the batch `next_batch` sampled; returns its loss.
    pub fn step_batch(&mut self) -> f32 {
        let (x, y) = (std::mem::take(&mut self.x), std::mem::take(&mut self.y));
        let loss = self.step_on(&x, &y);
        (self.x, self.y) = (x, y);
        loss
    }

    /// One AdamW step on a given batch x, y (batch_size, block_size); returns its loss.
    /// Panics on ids outside the vocab or a wrong length (programmer error).
    pub fn step_on(&mut self, x: &[u32], y: &[u32]) -> f32 {
        let (b, t) = (self.hp.batch_size, self.model.config.block_size);
        if let Err(e) = self.model.check_batch(&self.acts, x, Some(y), b, t) {
            panic!("Trainer::step_on: {e}");
        }
        let loss_sum = self.grads_of(x, y);
        self.apply_step(loss_sum)
    }

    /// Gradients of the rows x, y (rows, T) of a batch into `model.grads` (zeroed first),
    /// scaled by 1/(batch_size·T) of the whole batch; returns their loss sum.
    fn grads_of(&mut self, x: &[u32], y: &[u32]) -> f64 {
        let dloss = 1.0 / (self.hp.batch_size * self.model.config.block_size) as f32;
        let mut g = std::mem::take(&mut self.model.grads);
        let (acts, dacts) = (&mut self.acts, &mut self.dacts);
        let sum = parallel::slice_grads(&self.model, acts, dacts, &mut g, x, y, dloss);
        self.model.grads = g;
        sum
    }

    /// The current batch (after `next_batch`): x and y, (batch_size, block_size) ids.
    pub fn batch(&self) -> (&[u32], &[u32]) {
        (&self.x, &self.y)
    }

    /// The coordinator's slice: gradients of `rows` of the current batch into
    /// `model.grads` (zeroed first, the whole batch's scale); returns their loss sum.
    /// Err if the rows are not inside the batch.
    pub fn slice_grads(&mut self, rows: Range<usize>) -> Result<f64, GptError> {
        let (b, t) = (self.hp.batch_size, self.model.config.block_size);
        if rows.is_empty() || rows.end > b {
            bail!(
                "gpt.parallel.slice",
                start = rows.start,
                end = rows.end,
                batch_size = b
            );
        }
        let (x, y) = (std::mem::take(&mut self.x), std::mem::take(&mut self.y));
        let span = rows.start * t..rows.end * t;
        let sum = self.grads_of(&x[span.clone()], &y[span]);
        (self.x, self.y) = (x, y);
        Ok(sum)
    }

    /// Adds a worker's gradient (the layout of `model.params`) to `model.grads`.
    pub fn add_grads(&mut self, g: &[f32]) -> Result<(), GptError> {
        let n = self.model.grads.len();
        if g.len() != n {
            bail!("gpt.parallel.grads_len", n = g.len(), expected = n);
        }
        parallel::add_into(&mut self.model.grads, g);
        Ok(())
    }

    /// One AdamW step with `model.grads` (the summed slices); steps += 1. Returns the
    /// batch's mean loss, `loss_sum` / (batch_size·T).
    pub fn apply_step(&mut self, loss_sum: f64) -> f32 {
        self.opt.step(&mut self.model.params, &self.model.grads);
        self.steps += 1;
        let bt = self.hp.batch_size * self.model.config.block_size;
        (loss_sum / bt as f64) as f32
    }

    /// Mean (train, val) loss over `iters` fixed batches each (same batches every call).
    pub fn estimate_loss(&mut self, iters: usize) -> (f32, f32) {
        let (b, t) = (self.hp.batch_size, self.model.config.block_size);
        let est = |data: &[u32], acts: &mut Activations, x: &mut [u32], y: &mut [u32]| {
            estimate_loss(&self.model, acts, data, b, t, self.seed, iters, x, y)
        };
        let train = est(&self.data.train, &mut self.acts, &mut self.x, &mut self.y);
        let val = est(&self.data.val, &mut self.acts, &mut self.x, &mut self.y);
        (train, val)
    }

    /// `n` characters after `prompt`. temperature ≤ 0 means greedy (argmax, lowest id
    /// on ties); otherwise softmax(logits / temperature) over the top_k, drawn with `seed`.
    pub fn generate(
        &mut self,
        prompt: &str,
        n: usize,
        temperature: f32,
        top_k: Option<usize>,
        seed: u64,
    ) -> Result<String, GptError> {
        let opts = SampleOptions {
            greedy: temperature <= 0.0,
            temperature,
            top_k,
            seed,
        };
        let mut ids = self.data.vocab.encode(prompt)?;
        let start = ids.len();
        sample::generate(&self.model, &mut self.infer, &mut ids, n, &opts)?;
        Ok(self.data.vocab.decode(&ids[start..]))
    }

    /// Forward pass of one sequence (its last block_size ids) without targets: afterwards
    /// `infer.att(l, 0, h, n_head)` are the attention weights and `infer.probs_at(0, t, V)`
    /// the next-character probabilities after each position.
    pub fn forward_prompt(&mut self, ids: &[u32]) -> Result<&Activations, GptError> {
        let bs = self.model.config.block_size;
        let ids = &ids[ids.len().saturating_sub(bs)..];
        self.model
            .check_batch(&self.infer, ids, None, 1, ids.len())?;
        self.model.forward(&mut self.infer, ids, None, 1, ids.len());
        Ok(&self.infer)
    }

    /// `forward_prompt` of a text in the model's vocab.
    pub fn forward_text(&mut self, text: &str) -> Result<&Activations, GptError> {
        let ids = self.data.vocab.encode(text)?;
        self.forward_prompt(&ids)
    }

    /// The checkpoint (safetensors bytes) of the current weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        checkpoint::to_bytes(&self.model, &self.data.vocab)
    }
}
