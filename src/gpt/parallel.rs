//! Synchronous data parallelism, as PyTorch's DDP: the batch (B rows of T) is cut into k
//! contiguous row slices; each slice's forward and backward runs on its own buffers
//! against the same read-only weights, with the cross-entropy scale 1/(B·T) of the WHOLE
//! batch, so the slices' gradients sum to the full batch's gradient. The coordinator adds
//! them in slice order 0, 1, …, k−1 (fixed: the same seed and k give the same run bit for
//! bit), runs AdamW once, and the loss is Σ loss_sum_i / (B·T).
//!
//! Natively the slices run on std threads (`Parallel`); in the page each runs in a web
//! worker's own wasm instance (`Worker` behind `GptReplica`), the coordinator being the
//! `Trainer` (`slice_grads`, `add_grads`, `apply_step`). k = 1 is `Trainer::step`.
//!
//! B = batch, T = time, BT = B·T.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::config::GptConfig;
use super::model::{ActGrads, Activations, Gpt};
use super::trainer::Trainer;
use super::{bail, GptError};

/// B rows cut into k = clamp(k, 1, B) contiguous slices whose sizes differ by at most 1
/// (the first B mod k slices get the extra row).
pub fn split_rows(b: usize, k: usize) -> Vec<Range<usize>> {
    let k = k.clamp(1, b.max(1));
    let (base, extra) = (b / k, b % k);
    let mut start = 0;
    (0..k)
        .map(|i| {
            let n = base + usize::from(i < extra);
            start += n;
            start - n..start
        })
        .collect()
}

/// Forward and backward of the slice x, y (rows, T), T = block_size, into `grads`
/// (zeroed first) with the cross-entropy scale `dloss` (1/(B·T) of the whole batch);
/// returns the slice's loss sum Σ losses in f64, as `crossentropy_forward` adds them.
/// Panics on a slice `Gpt::check_batch` rejects (callers check first).
pub fn slice_grads(
    model: &Gpt,
    acts: &mut Activations,
    dacts: &mut ActGrads,
    grads: &mut [f32],
    x: &[u32],
    y: &[u32],
    dloss: f32,
) -> f64 {
    let t = model.config.block_size;
    let rows = x.len() / t;
    model.forward(acts, x, Some(y), rows, t);
    model.backward_into(acts, dacts, x, y, grads, dloss);
    acts.losses[..rows * t].iter().map(|&l| l as f64).sum()
}

/// g += other, elementwise: one worker's gradient added to the sum.
pub fn add_into(g: &mut [f32], other: &[f32]) {
    for (a, &b) in g.iter_mut().zip(other) {
        *a += b;
    }
}

/// One slice's own buffers: activations, their gradients and a gradient vector. The
/// activations grow on demand to the largest slice asked for (a worker that dies makes
/// the others' slices larger).
pub struct Replica {
    pub acts: Activations,
    pub dacts: ActGrads,
    pub grads: Vec<f32>,
}

impl Replica {
    /// Buffers for slices of up to `rows` sequences of block_size.
    pub fn new(cfg: &GptConfig, rows: usize) -> Replica {
        let t = cfg.block_size;
        Replica {
            acts: Activations::new(cfg, rows, t),
            dacts: ActGrads::new(cfg, rows, t),
            grads: vec![0.0; cfg.num_params()],
        }
    }

    /// Makes room for a slice of `rows` sequences.
    fn fit(&mut self, cfg: &GptConfig, rows: usize) {
        if rows > self.acts.b_max {
            let t = cfg.block_size;
            (self.acts, self.dacts) = (Activations::new(cfg, rows, t), ActGrads::new(cfg, rows, t));
        }
    }

    /// `slice_grads` of x, y into this replica's grads; returns the loss sum.
    pub fn grads_of(&mut self, model: &Gpt, x: &[u32], y: &[u32], dloss: f32) -> f64 {
        self.fit(&model.config, x.len() / model.config.block_size);
        let (acts, dacts, g) = (&mut self.acts, &mut self.dacts, &mut self.grads);
        slice_grads(model, acts, dacts, g, x, y, dloss)
    }
}

/// k-thread data parallelism for a `Trainer`: the trainer's own buffers do slice 0 on
/// the calling thread, k−1 replicas (made once, reused every step) the others, each step
/// on threads of a `std::thread::scope`. Native only for k > 1: wasm32-unknown-unknown
/// has no threads (the page uses `Worker`s in web workers instead).
pub struct Parallel {
    slices: Vec<Range<usize>>,
    replicas: Vec<Replica>,
}

impl Parallel {
    /// k threads (clamped to 1..=batch_size) for `tr`'s batches.
    pub fn new(tr: &Trainer, k: usize) -> Parallel {
        let slices = split_rows(tr.hp.batch_size, k);
        let cfg = &tr.model.config;
        let replicas = slices[1..]
            .iter()
            .map(|r| Replica::new(cfg, r.len()))
            .collect();
        Parallel { slices, replicas }
    }

    /// The number of slices (threads) k.
    pub fn threads(&self) -> usize {
        self.slices.len()
    }

    /// Samples a batch and takes one AdamW step on it (as `Trainer::step`).
    pub fn step(&mut self, tr: &mut Trainer) -> f32 {
        tr.next_batch();
        self.step_batch(tr)
    }

    /// One AdamW step on the batch `next_batch` sampled, its slices on k threads; returns
    /// the batch's loss. k = 1 is `Trainer::step_batch` bit for bit.
    pub fn step_batch(&mut self, tr: &mut Trainer) -> f32 {
        let t = tr.model.config.block_size;
        let dloss = 1.0 / (tr.hp.batch_size * t) as f32;
        let rows = |r: &Range<usize>| r.start * t..r.end * t;
        let mut g = std::mem::take(&mut tr.model.grads);
        let (model, x, y) = (&tr.model, &tr.x[..], &tr.y[..]);
        let (acts, dacts) = (&mut tr.acts, &mut tr.dacts);
        let mut loss_sums = vec![0.0f64; self.slices.len()];
        std::thread::scope(|s| {
            let others: Vec<_> = (self.replicas.iter_mut().zip(&self.slices[1..]))
                .map(|(rep, r)| {
                    let (xs, ys) = (&x[rows(r)], &y[rows(r)]);
                    s.spawn(move || rep.grads_of(model, xs, ys, dloss))
                })
                .collect();
            let r0 = rows(&self.slices[0]);
            loss_sums[0] = slice_grads(model, acts, dacts, &mut g, &x[r0.clone()], &y[r0], dloss);
            for (sum, h) in loss_sums[1..].iter_mut().zip(others) {
                *sum = h.join().expect("a gradient thread panicked");
            }
        });
        for rep in &self.replicas {
            add_into(&mut g, &rep.grads);
        }
        tr.model.grads = g;
        tr.apply_step(loss_sums.iter().sum())
    }
}

/// What a replica in another wasm instance needs to be built: the model's shape, the
/// causal flag and the batch size (the most rows a slice may have).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicaConfig {
    pub model: GptConfig,
    pub causal: bool,
    pub batch_size: usize,
}

impl ReplicaConfig {
    /// The replica config of a trainer's model and batch.
    pub fn of(tr: &Trainer) -> ReplicaConfig {
        ReplicaConfig {
            model: tr.model.config.clone(),
            causal: tr.model.causal,
            batch_size: tr.hp.batch_size,
        }
    }
}

/// A gradient worker: a model whose weights the coordinator sends each step, and one
/// replica's buffers. It keeps no optimizer state and no sampler.
pub struct Worker {
    model: Gpt,
    batch_size: usize,
    replica: Replica,
}

impl Worker {
    /// A worker for `cfg`; Err if the shape or the batch is not valid.
    pub fn new(cfg: &ReplicaConfig) -> Result<Worker, GptError> {
        let shape = cfg.model.clone();
        shape.validate()?;
        shape.validate_batch(cfg.batch_size)?;
        let mut model = Gpt::zeros(shape)?;
        model.causal = cfg.causal;
        model.grads = Vec::new(); // the replica's grads are the output
        let replica = Replica::new(&model.config, 1);
        Ok(Worker {
            model,
            batch_size: cfg.batch_size,
            replica,
        })
    }

    /// The gradient of `rows` rows x, y (rows, T) of a batch of `batch_rows` rows under
    /// `params` (scale 1/(batch_rows·T)) and the rows' loss sum. Err on a params length
    /// other than the model's, rows outside 1..=batch_rows ≤ batch_size, wrong id counts
    /// or ids outside the vocab.
    pub fn grads(
        &mut self,
        params: &[f32],
        batch: (&[u32], &[u32]),
        rows: usize,
        batch_rows: usize,
    ) -> Result<(&[f32], f64), GptError> {
        let (x, y) = batch;
        let n = self.model.params.len();
        if params.len() != n {
            bail!("gpt.parallel.params_len", n = params.len(), expected = n);
        }
        let bs = self.batch_size;
        if rows == 0 || rows > batch_rows || batch_rows > bs {
            bail!("gpt.parallel.rows", rows, batch_rows, batch_size = bs);
        }
        let t = self.model.config.block_size;
        self.replica.fit(&self.model.config, rows);
        self.model
            .check_batch(&self.replica.acts, x, Some(y), rows, t)?;
        self.model.params.copy_from_slice(params);
        let dloss = 1.0 / (batch_rows * t) as f32;
        let sum = self.replica.grads_of(&self.model, x, y, dloss);
        Ok((&self.replica.grads, sum))
    }
}
