//! What each head of the lab's model has learned (`gpt::heads`), for the heads grid:
//! the three scores on the default probe, the probe's two losses, and what switching
//! each head off costs.
//!
//!   headScores()  → { n_layer, n_head, probe_len, probe (rows of text), previous_token,
//!                     induction, first_token (each NL·NH, layer-major, one Float32Array),
//!                     loss_first, loss_second, best: { layer, head, score } }
//!   ablation()    → { second_copy, val (NL·NH Float32Arrays of loss changes; val null
//!                     when the lab has no validation text), base_second_copy, base_val }

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::lab::{err, GptLab};
use crate::gpt::heads::{ablation, head_scores, HeadScores, Probe};
use crate::serialize::F32s;
use crate::wasm::to_js;

/// Validation batches (rows of block_size) the ablation measures: as the CLI's.
const VAL_BATCHES: usize = 8;
const VAL_ROWS: usize = 8;

#[derive(Serialize)]
pub(super) struct Best {
    pub layer: usize,
    pub head: usize,
    pub score: f32,
}

#[derive(Serialize)]
struct ScoresJs<'a> {
    n_layer: usize,
    n_head: usize,
    probe_len: usize,
    /// Each probe row as text (its string written twice): a prompt the inspector opens.
    probe: Vec<String>,
    previous_token: F32s<'a>,
    induction: F32s<'a>,
    first_token: F32s<'a>,
    loss_first: f32,
    loss_second: f32,
    best: Best,
}

#[derive(Serialize)]
struct AblationJs<'a> {
    second_copy: F32s<'a>,
    val: Option<F32s<'a>>,
    base_second_copy: f32,
    base_val: Option<f32>,
}

impl GptLab {
    fn probe(&self) -> Result<Probe, JsValue> {
        let bs = self.tr.model.config.block_size;
        Probe::default_for(&self.tr.data.vocab, bs).map_err(err)
    }
}

#[wasm_bindgen]
impl GptLab {
    /// The scores of every head on the default probe (`Probe::default_for`).
    #[wasm_bindgen(js_name = headScores)]
    pub fn head_scores(&self) -> Result<JsValue, JsValue> {
        let p = self.probe()?;
        let s = head_scores(&self.tr.model, &p);
        let (layer, head, score) = s.best_induction();
        let vocab = &self.tr.data.vocab;
        let probe = p.ids.chunks(2 * p.len).map(|r| vocab.decode(r)).collect();
        scores_js(&s, &p, probe, Best { layer, head, score })
    }

    /// Each head switched off in turn: the change in the probe's second-copy loss and in
    /// the validation loss (the lab's own text; none for a model loaded without one).
    pub fn ablation(&mut self) -> Result<JsValue, JsValue> {
        let p = self.probe()?;
        let val = match self.untrainable {
            Some(_) => &[][..], // a placeholder text, not the learner's
            None => &self.tr.data.val[..],
        };
        let seed = self.tr.seed;
        let ab = ablation(&mut self.tr.model, &p, val, VAL_ROWS, VAL_BATCHES, seed);
        let has_val = !ab.val.is_empty();
        Ok(to_js(&AblationJs {
            second_copy: F32s(&ab.second_copy),
            val: has_val.then_some(F32s(&ab.val)),
            base_second_copy: ab.base_second_copy,
            base_val: has_val.then_some(ab.base_val),
        })?)
    }
}

/// `headScores`' answer: the scores `s` of `probe`, its rows as text.
pub(super) fn scores_js(
    s: &HeadScores,
    p: &Probe,
    probe: Vec<String>,
    best: Best,
) -> Result<JsValue, JsValue> {
    Ok(to_js(&ScoresJs {
        n_layer: s.n_layer,
        n_head: s.n_head,
        probe_len: p.len,
        probe,
        previous_token: F32s(&s.previous_token),
        induction: F32s(&s.induction),
        first_token: F32s(&s.first_token),
        loss_first: s.loss_first,
        loss_second: s.loss_second,
        best,
    })?)
}
