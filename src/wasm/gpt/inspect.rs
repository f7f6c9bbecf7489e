//! Looking inside a GPT: every head's attention for a prompt, and one drawn cell of it
//! explained from the very numbers the heatmap drew.
//!
//! T = time (prompt length ≤ block_size), NH = heads, L = layers, hs = head size.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::lab::{err, GptLab};
use crate::explain::{
    explain_attention_cell, Cell, Drawn, ExplainError, HeadView, Kind, Strided, DEFAULT_MAX_TERMS,
};
use crate::gpt::{gpt_error, Activations, Gpt};
use crate::serialize::F32s;
use crate::tensor::causal_or_none;
use crate::wasm::{thrown, to_js};

/// Next-character probabilities listed by `attention` (the most likely first).
const TOP_PROBS: usize = 10;

/// One head's (T, T) grid as the heatmap takes it: `{ rows, cols, data }`, `data` the
/// forward pass's own f32 numbers, row-major, as one `Float32Array`.
#[derive(Serialize)]
struct HeadGrid<'a> {
    rows: usize,
    cols: usize,
    data: F32s<'a>,
}

#[derive(Serialize)]
struct ProbJs {
    /// The token's text (a character of our GPT's, a BPE piece of GPT-2's).
    char: String,
    id: u32,
    p: f32,
}

#[derive(Serialize)]
struct AttentionJs<'a> {
    tokens: Vec<String>,
    ids: Vec<u32>,
    /// layers[l][h]: (T, T) weights, row = query position, column = key position.
    layers: Vec<Vec<HeadGrid<'a>>>,
    /// scores[l][h]: (T, T) scaled scores q·k/√hs the weights are the softmax of
    /// (−Infinity where masked).
    scores: Vec<Vec<HeadGrid<'a>>>,
    /// (T·T, row-major) true where the causal mask hides the key (drawn hatched), the same
    /// for every head: null without a mask.
    masked: Option<Vec<bool>>,
    /// The most likely next characters after the prompt, most likely first.
    probs: Vec<ProbJs>,
    causal: bool,
}

/// grids[l][h] = `of(l, h)`, a (T, T) map, for `nl` layers of `nh` heads.
fn per_head<'a>(
    nl: usize,
    nh: usize,
    t: usize,
    of: impl Fn(usize, usize) -> &'a [f32],
) -> Vec<Vec<HeadGrid<'a>>> {
    let grid = |l, h| HeadGrid {
        rows: t,
        cols: t,
        data: F32s(of(l, h)),
    };
    (0..nl)
        .map(|l| (0..nh).map(|h| grid(l, h)).collect())
        .collect()
}

pub(super) fn explain_err(e: ExplainError) -> JsValue {
    thrown(&e)
}

impl GptLab {
    /// Runs the forward pass on `prompt`'s last block_size characters; returns their ids.
    fn run_prompt(&mut self, prompt: &str) -> Result<Vec<u32>, JsValue> {
        if prompt.is_empty() {
            return Err(err(gpt_error!("gpt.prompt.empty")));
        }
        let bs = self.tr.model.config.block_size;
        let ids = self.tr.data.vocab.encode(prompt).map_err(err)?;
        let ids = ids[ids.len().saturating_sub(bs)..].to_vec();
        self.tr.forward_prompt(&ids).map_err(err)?;
        Ok(ids)
    }
}

#[wasm_bindgen]
impl GptLab {
    /// Every layer's and head's attention weights and scaled scores for `prompt` (its
    /// last block_size characters) and the most likely next characters: `{ tokens,
    /// layers: [[{rows, cols, data}]] (L × NH, data a Float32Array), scores (the same shape,
    /// q·k/√hs, −Infinity where masked), masked (T·T booleans, or null), probs: [{char, p}],
    /// causal }`.
    pub fn attention(&mut self, prompt: &str) -> Result<JsValue, JsValue> {
        let ids = self.run_prompt(prompt)?;
        let vocab = &self.tr.data.vocab;
        let text = |i: u32| vocab.chars[i as usize].to_string();
        attention_js(&self.tr.model, &self.tr.infer, &ids, text)
    }

    /// Explains cell (row, col) of head `head` in layer `layer` for `prompt` (its last
    /// block_size characters), as `HeadLab.explain` does: `kind` "weights" (a softmax over
    /// the row's scores), "scores" (q·k/√hs; the long dot product lists `maxTerms` terms,
    /// default 8, and sums the rest), "masked_scores" or "out". The operands are the
    /// forward pass's own f32 numbers (q, k, v from the qkv buffer, the stored scores and
    /// weights) and the value is the stored cell itself: the number the heatmap drew, to
    /// the last bit, however the f32 kernels summed it.
    #[wasm_bindgen(js_name = explainAttention)]
    #[allow(clippy::too_many_arguments)]
    pub fn explain_attention(
        &mut self,
        prompt: &str,
        layer: usize,
        head: usize,
        kind: &str,
        row: usize,
        col: usize,
        max_terms: Option<usize>,
    ) -> Result<JsValue, JsValue> {
        if prompt.is_empty() {
            return Err(err(gpt_error!("gpt.prompt.empty")));
        }
        check_head(&self.tr.model, layer, head)?;
        let kind = Kind::parse(kind).map_err(explain_err)?;
        self.run_prompt(prompt)?;
        explain_js(
            &self.tr.model,
            &self.tr.infer,
            layer,
            head,
            kind,
            row,
            col,
            max_terms,
        )
    }
}

/// `attention`'s answer for the prompt `ids` in `acts` (their forward pass), each token
/// and next token written by `text`.
pub(super) fn attention_js(
    model: &Gpt,
    acts: &Activations,
    ids: &[u32],
    text: impl Fn(u32) -> String,
) -> Result<JsValue, JsValue> {
    let cfg = &model.config;
    let t = acts.t;
    let (nl, nh) = (cfg.n_layer, cfg.n_head);
    let layers = per_head(nl, nh, t, |l, h| acts.att(l, 0, h, nh));
    let scores = per_head(nl, nh, t, |l, h| acts.preatt(l, 0, h, nh));
    let p = acts.next_probs(cfg.vocab_size);
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
    let probs = order
        .iter()
        .take(TOP_PROBS)
        .map(|&i| ProbJs {
            char: text(i as u32),
            id: i as u32,
            p: p[i],
        })
        .collect();
    Ok(to_js(&AttentionJs {
        tokens: ids.iter().map(|&i| text(i)).collect(),
        ids: ids.to_vec(),
        layers,
        scores,
        masked: model
            .causal
            .then(|| (0..t * t).map(|i| i % t > i / t).collect()),
        probs,
        causal: model.causal,
    })?)
}

/// Err unless the model has head `head` in layer `layer`.
pub(super) fn check_head(model: &Gpt, layer: usize, head: usize) -> Result<(), JsValue> {
    let cfg = &model.config;
    if layer >= cfg.n_layer || head >= cfg.n_head {
        return Err(err(gpt_error!(
            "gpt.explain.no_head",
            head,
            layer,
            n_layer = cfg.n_layer,
            n_head = cfg.n_head
        )));
    }
    Ok(())
}

/// `explainAttention`'s answer for the forward pass in `acts` (head checked).
#[allow(clippy::too_many_arguments)]
pub(super) fn explain_js(
    model: &Gpt,
    acts: &Activations,
    layer: usize,
    head: usize,
    kind: Kind,
    row: usize,
    col: usize,
    max_terms: Option<usize>,
) -> Result<JsValue, JsValue> {
    let t = acts.t;
    let (c, nh) = (model.config.n_embd, model.config.n_head);
    let hs = c / nh;
    // (T, 3C) rows [q | k | v]; head h owns columns h·hs..(h+1)·hs of each third.
    let qkv = &acts.blocks[layer].qkv[..t * 3 * c];
    let third = |i: usize| Strided::new(qkv, i * c + head * hs, t, hs, 3 * c);
    let (q, k, v) = (
        third(0).map_err(explain_err)?,
        third(1).map_err(explain_err)?,
        third(2).map_err(explain_err)?,
    );
    let masked_scores =
        Strided::new(acts.preatt(layer, 0, head, nh), 0, t, t, t).map_err(explain_err)?;
    let weights = Strided::new(acts.att(layer, 0, head, nh), 0, t, t, t).map_err(explain_err)?;
    // (T, C) att @ v with the heads side by side.
    let out = Strided::new(&acts.blocks[layer].atty, head * hs, t, hs, c).map_err(explain_err)?;
    let mask = causal_or_none(model.causal, t, t);
    let view = HeadView {
        q: &q,
        k: &k,
        v: &v,
        mask: &mask,
        scale: 1.0 / (hs as f64).sqrt(),
        projections: None,
        drawn: Some(Drawn {
            masked_scores: &masked_scores,
            weights: &weights,
            out: &out,
        }),
    };
    let cell = Cell::new(kind, row, col);
    let ex = explain_attention_cell(&view, cell, max_terms.unwrap_or(DEFAULT_MAX_TERMS))
        .map_err(explain_err)?;
    Ok(to_js(&ex)?)
}
