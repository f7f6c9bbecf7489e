//! The heads the lesson draws from a seed, explained cell by cell: head (0, 0) of the
//! batched multi-head check (`multihead_check`), the four heads of the future-change
//! proof (`future_change`) and the batch of note 3 (`batch_independence`). Each draws
//! its q, k, v (or x and the weights) again from the same seed, as the lesson function
//! did, and hands the head to `head`'s explainers.

use super::head::{explain_attention_cell, explain_head, HeadInputs, HeadView};
use super::{Cell, ExplainError, Explanation};
use crate::lesson::error::{fail, lesson_error};
use crate::lesson::multihead::{head_slice, multihead_inputs};
use crate::lesson::notes::{batch_draws, batched_head};
use crate::lesson::proofs::future_inputs;
use crate::lesson::LessonError;
use crate::tensor::{causal_mask, causal_or_none};

/// The batched multi-head check (§6): a cell of head (0, 0) (the drawn weights),
/// from the same seed and shape [B, H, T, d_k]; q, k, v cells are not explained.
pub fn explain_multihead(
    seed: u64,
    shape: [usize; 4],
    causal: bool,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let (q, k, v) = multihead_inputs(seed, shape).map_err(ExplainError::Lesson)?;
    let (q, k, v) = (
        head_slice(&q, shape, 0, 0),
        head_slice(&k, shape, 0, 0),
        head_slice(&v, shape, 0, 0),
    );
    let t_len = shape[2];
    let mask = causal_or_none(causal, t_len, t_len);
    let view = HeadView {
        q: &q,
        k: &k,
        v: &v,
        mask: &mask,
        scale: 1.0 / (shape[3] as f64).sqrt(),
        projections: None,
        drawn: None,
    };
    explain_attention_cell(&view, cell, max_terms)
}

/// Which output of the future-change proof (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FutureGrid {
    MaskedBefore,
    MaskedAfter,
    UnmaskedBefore,
    UnmaskedAfter,
}

impl FutureGrid {
    /// The grid's name, as `parse` takes it.
    pub fn name(self) -> &'static str {
        match self {
            FutureGrid::MaskedBefore => "masked_before",
            FutureGrid::MaskedAfter => "masked_after",
            FutureGrid::UnmaskedBefore => "unmasked_before",
            FutureGrid::UnmaskedAfter => "unmasked_after",
        }
    }

    pub fn parse(name: &str) -> Result<FutureGrid, ExplainError> {
        Ok(match name {
            "masked_before" => FutureGrid::MaskedBefore,
            "masked_after" => FutureGrid::MaskedAfter,
            "unmasked_before" => FutureGrid::UnmaskedBefore,
            "unmasked_after" => FutureGrid::UnmaskedAfter,
            _ => return Err(ExplainError::UnknownGrid(name.to_string())),
        })
    }
}

/// A cell of one of the future-change proof's heads (§7): q, k and v from
/// `seed`, v's rows from `from` on redrawn for the "after" grids, the causal mask
/// for the "masked" ones, scale 1/√d. The drawn grids are the heads' "out".
pub fn explain_future_change(
    seed: u64,
    t_len: usize,
    d: usize,
    from: usize,
    grid: FutureGrid,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let [q, k, v, v2] = future_inputs(seed, t_len, d, from).map_err(ExplainError::Lesson)?;
    let (v, causal) = match grid {
        FutureGrid::MaskedBefore => (&v, true),
        FutureGrid::MaskedAfter => (&v2, true),
        FutureGrid::UnmaskedBefore => (&v, false),
        FutureGrid::UnmaskedAfter => (&v2, false),
    };
    let after = matches!(grid, FutureGrid::MaskedAfter | FutureGrid::UnmaskedAfter);
    let elsewhere = [
        (
            "weights",
            if causal {
                "proof_weights_masked"
            } else {
                "proof_weights_unmasked"
            },
        ),
        (
            "v",
            if after {
                "proof_v_after"
            } else {
                "proof_v_before"
            },
        ),
    ];
    let mask = causal_or_none(causal, t_len, t_len);
    let view = HeadView {
        q: &q,
        k: &k,
        v,
        mask: &mask,
        scale: 1.0 / (d as f64).sqrt(),
        projections: None,
        drawn: None,
    };
    let mut e = explain_attention_cell(&view, cell, max_terms)?.not_drawn(&elsewhere);
    e.grid = Some(grid.name());
    Ok(e)
}

/// Note 3 (§5): explains one cell of sequence `seq` (0 or 1) of the batch
/// `batch_independence` draws, before (`after` false) or after sequence 1 was
/// redrawn. The head ran on the whole batch; the explanation names only that
/// sequence's rows, because they are the only ones the cell was made from.
pub fn explain_batch(
    (seed, t_len, c, d): (u64, usize, usize, usize),
    after: bool,
    seq: usize,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, LessonError> {
    let (w, x_before, x_after) = batch_draws(seed, t_len, c, d)?;
    let xs = if after { x_after } else { x_before };
    let Some(x) = xs.get(seq) else {
        return fail!("lesson.notes.no_sequence", seq);
    };
    let trace = batched_head(&xs, &w, true, true).swap_remove(seq);
    let mask = causal_mask(t_len, t_len);
    let inputs = HeadInputs {
        x_q: x,
        x_kv: x,
        w: &w,
        mask: &mask,
    };
    explain_head(&trace, inputs, cell, max_terms)
        .map_err(|e| lesson_error!("lesson.explain", detail = e.to_string()))
}
