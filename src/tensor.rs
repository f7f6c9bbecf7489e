//! A small row-major matrix of f64 and the operations the lesson needs.
//!
//! T = time (sequence length), C = channels, d = head size (d_k = d_v here),
//! T_out / T_in = query and key lengths of cross-attention.
//! Every function states its shapes first; shape mismatches are programmer
//! errors inside the core (they panic), user input is checked before it gets
//! here (see `Matrix::from_rows` and `ShapeError`).

use crate::error::{Coded, Domain, Messages};

/// A dense row-major matrix: element (r, c) lives at `data[r * cols + c]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
}

/// Every shape code (matrices here, one head in `attention`) and its English text (the
/// page's too: generated from this table, the Chinese in www/js/i18n/errors-lesson.js).
pub const SHAPE_MESSAGES: Messages = &[
    (
        "shape.matrix.len",
        "a {rows}×{cols} matrix needs {need} numbers, got {n}",
    ),
    (
        "shape.matrix.ragged",
        "row {row} has {n} numbers but row 0 has {cols}",
    ),
    (
        "shape.head.weight_cols",
        "{name} has {cols} columns but x has {c} channels (nn.Linear layout is (d, C))",
    ),
    (
        "shape.head.weight_rows",
        "{name} has no rows: head size must be ≥ 1",
    ),
    (
        "shape.head.head_size",
        "W_q has {q} rows but W_k has {k}: q and k need the same head size",
    ),
    (
        "shape.head.channels",
        "queries have {q} channels but keys/values have {kv}",
    ),
    (
        "shape.head.mask",
        "the mask is {rows}×{cols} but scores are {t_out}×{t_in}",
    ),
];

/// The domain of shape errors: the codes of `SHAPE_MESSAGES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape;

impl Domain for Shape {
    const TABLES: &'static [Messages] = &[SHAPE_MESSAGES];
}

/// A shape that does not fit: what was expected and what was given (`e.code()`,
/// `e.params()`; `Display` is the English).
pub type ShapeError = Coded<Shape>;

/// `Err(ShapeError::new("shape.some.code", params))`, params as in `crate::error::coded!`.
macro_rules! shape_err {
    ($($arg:tt)*) => { Err($crate::error::coded!($crate::tensor::ShapeError, $($arg)*)) };
}
pub(crate) use shape_err;

impl Matrix {
    /// A rows×cols matrix of zeros.
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix::filled(rows, cols, 0.0)
    }

    /// A rows×cols matrix with every element `value`.
    pub fn filled(rows: usize, cols: usize, value: f64) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![value; rows * cols],
        }
    }

    /// The n×n identity.
    pub fn identity(n: usize) -> Matrix {
        Matrix::from_fn(n, n, |r, c| if r == c { 1.0 } else { 0.0 })
    }

    /// A rows×cols matrix with element (r, c) = f(r, c).
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> f64) -> Matrix {
        let mut data = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                data.push(f(r, c));
            }
        }
        Matrix { rows, cols, data }
    }

    /// Wraps row-major `data`; errors unless `data.len() == rows * cols`.
    pub fn from_vec(rows: usize, cols: usize, data: Vec<f64>) -> Result<Matrix, ShapeError> {
        if data.len() != rows * cols {
            return shape_err!(
                "shape.matrix.len",
                rows,
                cols,
                need = rows * cols,
                n = data.len()
            );
        }
        Ok(Matrix { rows, cols, data })
    }

    /// Builds from nested rows; errors on ragged rows.
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Result<Matrix, ShapeError> {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        let mut data = Vec::with_capacity(rows.len() * cols);
        for (i, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            if row.len() != cols {
                return shape_err!("shape.matrix.ragged", row = i, n = row.len(), cols);
            }
            data.extend_from_slice(row);
        }
        Ok(Matrix {
            rows: rows.len(),
            cols,
            data,
        })
    }

    /// Element (r, c).
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> f64 {
        self.data[r * self.cols + c]
    }

    /// Sets element (r, c).
    #[inline]
    pub fn set(&mut self, r: usize, c: usize, value: f64) {
        self.data[r * self.cols + c] = value;
    }

    /// Row r as a slice.
    pub fn row(&self, r: usize) -> &[f64] {
        &self.data[r * self.cols..(r + 1) * self.cols]
    }

    /// Row r as a mutable slice.
    pub fn row_mut(&mut self, r: usize) -> &mut [f64] {
        &mut self.data[r * self.cols..(r + 1) * self.cols]
    }

    /// Rows as nested vectors (for fixtures and JSON).
    pub fn to_rows(&self) -> Vec<Vec<f64>> {
        (0..self.rows).map(|r| self.row(r).to_vec()).collect()
    }

    /// (R, C) -> (C, R): Aᵀ.
    pub fn transpose(&self) -> Matrix {
        Matrix::from_fn(self.cols, self.rows, |r, c| self.get(c, r))
    }

    /// (R, K) @ (K, C) -> (R, C): C = A B, summed in k order (the naive reference).
    pub fn matmul(&self, b: &Matrix) -> Matrix {
        assert_eq!(
            self.cols, b.rows,
            "matmul: ({}, {}) @ ({}, {})",
            self.rows, self.cols, b.rows, b.cols
        );
        let mut out = Matrix::zeros(self.rows, b.cols);
        for r in 0..self.rows {
            for c in 0..b.cols {
                let mut acc = 0.0;
                for k in 0..self.cols {
                    acc += self.get(r, k) * b.get(k, c);
                }
                out.set(r, c, acc);
            }
        }
        out
    }

    /// (R, K) @ (C, K)ᵀ -> (R, C): A Bᵀ, the `nn.Linear` product `x · Wᵀ` and `q · kᵀ`.
    pub fn matmul_t(&self, b: &Matrix) -> Matrix {
        assert_eq!(
            self.cols, b.cols,
            "matmul_t: ({}, {}) @ ({}, {})ᵀ",
            self.rows, self.cols, b.rows, b.cols
        );
        Matrix::from_fn(self.rows, b.rows, |r, c| dot(self.row(r), b.row(c)))
    }

    /// (R, C) -> (R, C): every element times `s` (scaling by 1/√d_k).
    pub fn scale(&self, s: f64) -> Matrix {
        self.map(|v| v * s)
    }

    /// (R, C) -> (R, C): f applied to every element.
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Matrix {
        Matrix {
            rows: self.rows,
            cols: self.cols,
            data: self.data.iter().map(|&v| f(v)).collect(),
        }
    }

    /// (R, C), (R, C) -> (R, C): A + B.
    pub fn add(&self, b: &Matrix) -> Matrix {
        assert_eq!(
            (self.rows, self.cols),
            (b.rows, b.cols),
            "add: shapes differ"
        );
        Matrix {
            rows: self.rows,
            cols: self.cols,
            data: self.data.iter().zip(&b.data).map(|(x, y)| x + y).collect(),
        }
    }

    /// (R, C) -> (R, 1) kept as a Vec: the sum of each row.
    pub fn row_sums(&self) -> Vec<f64> {
        (0..self.rows).map(|r| self.row(r).iter().sum()).collect()
    }

    /// max |A − B| over all elements (∞ if shapes differ, NaN-aware: NaN counts as ∞).
    pub fn max_abs_diff(&self, b: &Matrix) -> f64 {
        if (self.rows, self.cols) != (b.rows, b.cols) {
            return f64::INFINITY;
        }
        max_abs_diff(&self.data, &b.data)
    }

    /// True when every element is finite.
    pub fn is_finite(&self) -> bool {
        self.data.iter().all(|v| v.is_finite())
    }
}

/// Max |a − b| over two equal-length slices (∞ if lengths differ or NaN appears).
pub fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let d = (x - y).abs();
            if d.is_nan() {
                f64::INFINITY
            } else {
                d
            }
        })
        .fold(0.0, f64::max)
}

/// Σᵢ a[i] · b[i], summed left to right.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// (T_out, T_in) causal mask: `true` where query t may read key s, i.e. s ≤ t.
/// For T_out ≠ T_in the diagonal is aligned at the top-left (PyTorch's `tril`).
pub fn causal_mask(t_out: usize, t_in: usize) -> Mask {
    Mask::from_fn(t_out, t_in, |t, s| s <= t)
}

/// `causal_mask(t_out, t_in)` when `causal` (a decoder), else every pair allowed (an
/// encoder): the choice every head with a mask toggle makes.
pub fn causal_or_none(causal: bool, t_out: usize, t_in: usize) -> Mask {
    if causal {
        causal_mask(t_out, t_in)
    } else {
        Mask::none(t_out, t_in)
    }
}

/// Which (query, key) pairs may attend: `allowed[t * cols + s]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    pub rows: usize,
    pub cols: usize,
    pub allowed: Vec<bool>,
}

impl Mask {
    /// A mask with every pair allowed (an encoder: no mask).
    pub fn none(rows: usize, cols: usize) -> Mask {
        Mask::from_fn(rows, cols, |_, _| true)
    }

    /// allowed(t, s) = f(t, s).
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> bool) -> Mask {
        let mut allowed = Vec::with_capacity(rows * cols);
        for t in 0..rows {
            for s in 0..cols {
                allowed.push(f(t, s));
            }
        }
        Mask {
            rows,
            cols,
            allowed,
        }
    }

    /// May query t read key s?
    #[inline]
    pub fn get(&self, t: usize, s: usize) -> bool {
        self.allowed[t * self.cols + s]
    }

    /// Rows in which no key is allowed: softmax has no denominator there.
    pub fn fully_masked_rows(&self) -> Vec<usize> {
        (0..self.rows)
            .filter(|&t| (0..self.cols).all(|s| !self.get(t, s)))
            .collect()
    }
}

/// (T_out, T_in) -> (T_out, T_in): `masked_fill(~allowed, value)`.
pub fn masked_fill(scores: &Matrix, mask: &Mask, value: f64) -> Matrix {
    assert_eq!(
        (scores.rows, scores.cols),
        (mask.rows, mask.cols),
        "masked_fill: mask shape differs from scores"
    );
    Matrix::from_fn(scores.rows, scores.cols, |t, s| {
        if mask.get(t, s) {
            scores.get(t, s)
        } else {
            value
        }
    })
}

/// softmax of one row, max-subtracted: e^(x_i − max) / Σ_j e^(x_j − max).
/// −∞ entries get weight exactly 0. Returns `None` when every entry is −∞
/// (a fully masked row has no denominator) or when an entry is NaN or +∞.
pub fn softmax_row(x: &[f64]) -> Option<Vec<f64>> {
    if x.iter().any(|v| v.is_nan() || *v == f64::INFINITY) {
        return None;
    }
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return None;
    }
    let exps: Vec<f64> = x.iter().map(|&v| (v - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    Some(exps.iter().map(|e| e / sum).collect())
}

/// (R, C) -> (R, C): softmax along each row. Rows that cannot be normalised
/// (all −∞) are left as zeros and listed in the second value.
pub fn softmax_rows(x: &Matrix) -> (Matrix, Vec<usize>) {
    let mut out = Matrix::zeros(x.rows, x.cols);
    let mut bad = Vec::new();
    for r in 0..x.rows {
        match softmax_row(x.row(r)) {
            Some(p) => out.row_mut(r).copy_from_slice(&p),
            None => bad.push(r),
        }
    }
    (out, bad)
}
