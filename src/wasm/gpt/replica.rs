//! Data-parallel training in the page (`crate::gpt::parallel`): wasm has no threads here,
//! so the page runs k web workers, each with its own wasm instance. Worker 0 holds the
//! `GptLab` (the coordinator: sampler, weights, AdamW state); every other worker holds a
//! `GptReplica` built from `lab.replicaConfig()`. One step:
//!
//!   lab.nextBatch(); const {x, y} = lab.batch(); const params = lab.params();
//!   worker i > 0: replica.grads(params, x[rows_i], y[rows_i], rows_i, B) → g_i, lossSum
//!   worker 0:     s_0 = lab.sliceGrads(row0_0, rows_0)
//!   lab.addGrads(g_1); …; lab.addGrads(g_{k−1})   (slice order: the same run bit for bit)
//!   loss = lab.applyStep(s_0 + s_1 + … + s_{k−1})
//!
//! Slices are contiguous rows (`gptSplitRows`). Checkpoints and `stateBytes` stay the
//! lab's alone. B = batch, T = time.

use wasm_bindgen::prelude::*;

use super::lab::{err, GptLab};
use crate::gpt::{gpt_error, split_rows, ReplicaConfig, Worker};
use crate::wasm::js_object;

#[wasm_bindgen]
impl GptLab {
    /// The current batch (after `nextBatch`): `{ x, y }`, Uint32Arrays of B·T ids, row
    /// after row.
    pub fn batch(&self) -> js_sys::Object {
        let (x, y) = self.tr.batch();
        js_object(&[
            ("x", js_sys::Uint32Array::from(x).into()),
            ("y", js_sys::Uint32Array::from(y).into()),
        ])
    }

    /// A copy of the weights (flat, the layout of the checkpoint's tensors in order).
    pub fn params(&self) -> Vec<f32> {
        self.tr.model.params.clone()
    }

    /// The coordinator's slice: the gradients of rows row0..row0+rows of the current
    /// batch into the lab's own gradient (zeroed first, the whole batch's scale
    /// 1/(B·T)); returns the slice's loss sum.
    #[wasm_bindgen(js_name = sliceGrads)]
    pub fn slice_grads(&mut self, row0: u32, rows: u32) -> Result<f64, JsValue> {
        self.check_trainable()?;
        let (row0, rows) = (row0 as usize, rows as usize);
        self.tr
            .slice_grads(row0..row0.saturating_add(rows))
            .map_err(err)
    }

    /// Sets the lab's gradient to 0 (when every slice runs in a replica).
    #[wasm_bindgen(js_name = zeroGrads)]
    pub fn zero_grads(&mut self) {
        self.tr.model.zero_grad();
    }

    /// Adds a replica's gradient to the lab's; Err if its length is not the model's.
    #[wasm_bindgen(js_name = addGrads)]
    pub fn add_grads(&mut self, g: &[f32]) -> Result<(), JsValue> {
        self.tr.add_grads(g).map_err(err)
    }

    /// One AdamW step with the summed gradient; steps += 1. Returns the batch's mean
    /// loss, `lossSum` (Σ of the slices' loss sums) / (B·T).
    #[wasm_bindgen(js_name = applyStep)]
    pub fn apply_step(&mut self, loss_sum: f64) -> Result<f32, JsValue> {
        self.check_trainable()?;
        Ok(self.tr.apply_step(loss_sum))
    }

    /// What `new GptReplica(..)` needs, as JSON: `{ model: { vocab_size, block_size,
    /// n_layer, n_head, n_embd, bias }, causal, batch_size }`.
    #[wasm_bindgen(js_name = replicaConfig)]
    pub fn replica_config(&self) -> String {
        serde_json::to_string(&ReplicaConfig::of(&self.tr)).expect("numbers serialise")
    }
}

/// B rows cut into k contiguous slices (sizes differ by at most 1), as a flat
/// Uint32Array [row0_0, rows_0, row0_1, rows_1, …]; k is clamped to 1..=B.
#[wasm_bindgen(js_name = gptSplitRows)]
pub fn gpt_split_rows(b: u32, k: u32) -> Vec<u32> {
    split_rows(b as usize, k as usize)
        .into_iter()
        .flat_map(|r| [r.start as u32, r.len() as u32])
        .collect()
}

/// A gradient worker of the page's data-parallel training: the model's shape without
/// weights of its own (the lab sends them each step), no optimizer, no sampler.
#[wasm_bindgen]
pub struct GptReplica {
    worker: Worker,
    loss_sum: f64,
}

#[wasm_bindgen]
impl GptReplica {
    /// A replica for `lab.replicaConfig()`; Err with a code if the JSON is not one.
    #[wasm_bindgen(constructor)]
    pub fn new(replica_config: &str) -> Result<GptReplica, JsValue> {
        let cfg: ReplicaConfig = serde_json::from_str(replica_config).map_err(|e| {
            err(gpt_error!(
                "gpt.parallel.bad_config",
                detail = e.to_string()
            ))
        })?;
        let worker = Worker::new(&cfg).map_err(err)?;
        Ok(GptReplica {
            worker,
            loss_sum: 0.0,
        })
    }

    /// The gradient (Float32Array, the layout of `lab.params()`) of `rows` rows x, y
    /// (rows·T ids each) of a batch of `batchRows` rows, under the weights `params`, with
    /// the scale 1/(batchRows·T). Err with a code on a wrong length, rows outside
    /// 1..=batchRows ≤ batch_size or ids outside the vocab.
    pub fn grads(
        &mut self,
        params: &[f32],
        x: &[u32],
        y: &[u32],
        rows: u32,
        batch_rows: u32,
    ) -> Result<Vec<f32>, JsValue> {
        let (g, sum) = self
            .worker
            .grads(params, (x, y), rows as usize, batch_rows as usize)
            .map_err(err)?;
        self.loss_sum = sum;
        Ok(g.to_vec())
    }

    /// The loss sum of the rows of the last `grads` call.
    #[wasm_bindgen(js_name = lossSum)]
    pub fn loss_sum(&self) -> f64 {
        self.loss_sum
    }
}
