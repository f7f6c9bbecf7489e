//! One head of scaled dot-product attention with every intermediate kept:
//! `out = softmax(mask(q kᵀ · scale)) v`.
//!
//! T_out = query length, T_in = key/value length (equal for self-attention),
//! C = input channels, d = head size (d_k), d_v = value size.
//! Weights are in `nn.Linear` layout (out, in) = (d, C), so q = x W_qᵀ.
//! The intermediates are exactly what the page draws: there is no second
//! implementation for display.

use crate::tensor::{
    causal_or_none, masked_fill, shape_err, softmax_rows, Mask, Matrix, ShapeError,
};

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

/// Self-attention of one head. x: (T, C); weights (d, C); `causal` masks s > t;
/// `scaled` multiplies scores by 1/√d. Errors on shapes that do not fit.
pub fn head_forward(
    x: &Matrix,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
) -> Result<HeadTrace, ShapeError> {
    let mask = causal_or_none(causal, x.rows, x.rows);
    cross_forward(x, x, w, &mask, scaled)
}

/// Cross-attention: queries from x_q (T_out, C), keys and values from x_kv
/// (T_in, C); mask (T_out, T_in). Scores are (T_out, T_in), not square.
pub fn cross_forward(
    x_q: &Matrix,
    x_kv: &Matrix,
    w: &HeadWeights,
    mask: &Mask,
    scaled: bool,
) -> Result<HeadTrace, ShapeError> {
    if x_q.cols != x_kv.cols {
        return shape_err!("shape.head.channels", q = x_q.cols, kv = x_kv.cols);
    }
    w.check(x_q.cols)?;
    if (mask.rows, mask.cols) != (x_q.rows, x_kv.rows) {
        let (rows, cols, t_out, t_in) = (mask.rows, mask.cols, x_q.rows, x_kv.rows);
        return shape_err!("shape.head.mask", rows, cols, t_out, t_in);
    }
    let q = x_q.matmul_t(&w.w_q); // (T_out, C) @ (C, d) -> (T_out, d)
    let k = x_kv.matmul_t(&w.w_k); // (T_in, C) @ (C, d) -> (T_in, d)
    let v = x_kv.matmul_t(&w.w_v); // (T_in, C) @ (C, d_v) -> (T_in, d_v)
    let scale = if scaled {
        1.0 / (q.cols as f64).sqrt()
    } else {
        1.0
    };
    Ok(attend(q, k, v, mask, scale))
}

/// The attention step on given q (T_out, d), k (T_in, d), v (T_in, d_v):
/// scores = q kᵀ · scale; masked; softmax by rows; out = weights @ v.
pub fn attend(q: Matrix, k: Matrix, v: Matrix, mask: &Mask, scale: f64) -> HeadTrace {
    let mut scores = q.matmul_t(&k); // (T_out, d) @ (d, T_in) -> (T_out, T_in)
    if scale != 1.0 {
        scores = scores.scale(scale);
    }
    let masked_scores = masked_fill(&scores, mask, f64::NEG_INFINITY);
    let (weights, failed) = softmax_rows(&masked_scores);
    // softmax fails for two reasons the learner must tell apart: the mask left
    // no key (no denominator), or a score overflowed to ±∞/NaN.
    let fully_masked_rows = mask.fully_masked_rows();
    let overflow_rows = failed
        .into_iter()
        .filter(|t| !fully_masked_rows.contains(t))
        .collect();
    let out = weights.matmul(&v); // (T_out, T_in) @ (T_in, d_v) -> (T_out, d_v)
    HeadTrace {
        q,
        k,
        v,
        scale,
        scores,
        masked_scores,
        weights,
        out,
        fully_masked_rows,
        overflow_rows,
    }
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
