//! One head of scaled dot-product attention with every intermediate kept:
//! `out = softmax(mask(q kᵀ · scale)) v`.
//!
//! T_out = query length, T_in = key/value length (equal for self-attention),
//! C = input channels, d = head size (d_k), d_v = value size.
//! Weights are in `nn.Linear` layout (out, in) = (d, C), so q = x W_qᵀ.
//! The intermediates are exactly what the page draws: there is no second
//! implementation for display.
//!
//! This is the crate's one f64 reference for attention, forward and backward: `ops`
//! holds each op as a `*_forward` / `*_backward` pair (llm.c style: shapes first,
//! backward quotes the forward line, `+=` into its d-buffers), `head` composes them
//! into one head's forward (`attend`) and backward (`attend_backward`). Every other
//! attention of the lesson (batched, multi-head) calls `attend` per (batch, head).

mod head;
pub mod ops;

pub use head::{attend, attend_backward, cross_forward, head_backward, head_forward, score_scale};
pub use ops::{
    linear_backward, linear_forward, mask_backward, mask_forward, scores_backward, scores_forward,
    softmax_backward, softmax_forward, weighted_sum_backward, weighted_sum_forward,
};

use serde::Serialize;

use crate::tensor::{shape_err, Matrix, ShapeError};

/// The three projections of one head, each (d, C) in `nn.Linear` layout.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadWeights {
    pub w_q: Matrix,
    pub w_k: Matrix,
    pub w_v: Matrix,
}

/// Every intermediate of one head's forward pass.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadTrace {
    /// (T_out, d) = x_q W_qᵀ
    pub q: Matrix,
    /// (T_in, d) = x_kv W_kᵀ
    pub k: Matrix,
    /// (T_in, d_v) = x_kv W_vᵀ
    pub v: Matrix,
    /// 1/√d when scaled, else 1.
    pub scale: f64,
    /// (T_out, T_in) = q kᵀ · scale, before the mask.
    pub scores: Matrix,
    /// (T_out, T_in): scores with −∞ where the mask forbids reading.
    pub masked_scores: Matrix,
    /// (T_out, T_in) = softmax over each row of `masked_scores`.
    pub weights: Matrix,
    /// (T_out, d_v) = weights @ v.
    pub out: Matrix,
    /// Query rows whose every key is masked: softmax has no denominator, so
    /// their weights and outputs are left at 0 and the page must say why.
    pub fully_masked_rows: Vec<usize>,
    /// Query rows whose scores overflowed (±∞ or NaN from huge inputs): their
    /// weights and outputs are left at 0 and the page must say why.
    pub overflow_rows: Vec<usize>,
}

impl HeadTrace {
    /// The trace's matrices by the names the page and the explanations give them, in the
    /// order the forward pass makes them.
    pub fn named(&self) -> [(&'static str, &Matrix); 7] {
        [
            ("q", &self.q),
            ("k", &self.k),
            ("v", &self.v),
            ("scores", &self.scores),
            ("masked_scores", &self.masked_scores),
            ("weights", &self.weights),
            ("out", &self.out),
        ]
    }

    /// True when nothing overflowed and no row was fully masked: every number
    /// is finite except the −∞ the mask put into `masked_scores`.
    pub fn is_clean(&self) -> bool {
        self.fully_masked_rows.is_empty()
            && self.overflow_rows.is_empty()
            && [
                &self.q,
                &self.k,
                &self.v,
                &self.scores,
                &self.weights,
                &self.out,
            ]
            .iter()
            .all(|m| m.is_finite())
    }
}

impl HeadWeights {
    /// Checks that the three projections fit inputs of `c` channels and that
    /// q and k share a head size.
    pub fn check(&self, c: usize) -> Result<(), ShapeError> {
        for (name, w) in [("W_q", &self.w_q), ("W_k", &self.w_k), ("W_v", &self.w_v)] {
            if w.cols != c {
                return shape_err!("shape.head.weight_cols", name, cols = w.cols, c);
            }
            if w.rows == 0 {
                return shape_err!("shape.head.weight_rows", name);
            }
        }
        if self.w_q.rows != self.w_k.rows {
            let (q, k) = (self.w_q.rows, self.w_k.rows);
            return shape_err!("shape.head.head_size", q, k);
        }
        Ok(())
    }
}

/// Gradients of one head.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadGrads {
    /// (T_out, T_in) ∂L/∂weights and ∂L/∂scores (after the mask's backward).
    pub dweights: Matrix,
    pub dscores: Matrix,
    /// (T_out, d), (T_in, d), (T_in, d_v)
    pub dq: Matrix,
    pub dk: Matrix,
    pub dv: Matrix,
    /// (d, C) each, and (T, C) for x (self-attention: x feeds q, k and v).
    pub d_w_q: Option<Matrix>,
    pub d_w_k: Option<Matrix>,
    pub d_w_v: Option<Matrix>,
    pub dx: Option<Matrix>,
}

/// The lesson's h/o/u head (LESSON §3): x = identity(3), C = 3, d = 2.
pub fn hou_defaults() -> (Vec<String>, Matrix, HeadWeights) {
    let tokens = ["h", "o", "u"].iter().map(|s| s.to_string()).collect();
    let w = HeadWeights {
        w_q: Matrix::from_rows(&[[1.0, 0.0, 2.0], [0.0, 1.0, 0.5]]).unwrap(),
        w_k: Matrix::from_rows(&[[2.0, 0.0, 1.0], [0.0, 1.0, 1.0]]).unwrap(),
        w_v: Matrix::from_rows(&[[10.0, 0.0, 5.0], [0.0, 10.0, 5.0]]).unwrap(),
    };
    (tokens, Matrix::identity(3), w)
}
