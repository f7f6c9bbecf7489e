//! One head's cells explained from any data source: q = x W_qᵀ, scores =
//! q kᵀ · scale, the mask, softmax by rows, out = weights v.

use super::body::{Addend, Body, Kept, MaskReason, Masked, NoValueReason, Scaling, SourceCell};
use super::build::{self, Operand};
use super::error::shape_error;
use super::fraction::fraction_beside;
use super::{Cell, ExplainError, Explanation, Grid, Kind};
use crate::attention::{HeadTrace, HeadWeights};
use crate::tensor::{softmax_row, Mask, Matrix};

/// How one of q, k, v was made: y[t][j] = Σ_c x[t][c]·W[j][c] (+ bias[0][j]),
/// W in `nn.Linear` layout (d, C), bias (1, d).
#[derive(Clone, Copy)]
pub struct Projection<'a> {
    pub x: &'a dyn Grid,
    pub x_name: &'static str,
    pub w: &'a dyn Grid,
    pub w_name: &'static str,
    pub bias: Option<(&'a dyn Grid, &'static str)>,
}

/// One head's numbers wherever they live: q (T_out, d), k (T_in, d),
/// v (T_in, d_v), mask (T_out, T_in), scale = 1/√d_k or 1, and, when known,
/// the projections that made q, k and v (in that order) and the matrices the
/// forward pass stored.
#[derive(Clone, Copy)]
pub struct HeadView<'a> {
    pub q: &'a dyn Grid,
    pub k: &'a dyn Grid,
    pub v: &'a dyn Grid,
    pub mask: &'a Mask,
    pub scale: f64,
    pub projections: Option<[Projection<'a>; 3]>,
    pub drawn: Option<Drawn<'a>>,
}

/// What a head's forward pass stored and the page drew: masked_scores (T_out, T_in,
/// −∞ where masked), weights (T_out, T_in), out (T_out, d_v). A forward pass that
/// sums otherwise than the builders (a GPT's f32 tiles) gives them, so that every
/// explanation ends on the stored number, the one on screen, and its terms are
/// read from the stored matrices they came from.
#[derive(Clone, Copy)]
pub struct Drawn<'a> {
    pub masked_scores: &'a dyn Grid,
    pub weights: &'a dyn Grid,
    pub out: &'a dyn Grid,
}

/// What a `HeadTrace` was computed from: x_q (T_out, C), x_kv (T_in, C),
/// weights (d, C), mask (T_out, T_in). The inputs are named "x" when x_q and
/// x_kv are the same matrix (self-attention), else "x_q" and "x_kv".
#[derive(Clone, Copy)]
pub struct HeadInputs<'a> {
    pub x_q: &'a Matrix,
    pub x_kv: &'a Matrix,
    pub w: &'a HeadWeights,
    pub mask: &'a Mask,
}

/// Explains one cell of a head computed by `head_forward` or `cross_forward`.
pub fn explain_head<'a>(
    trace: &'a HeadTrace,
    inputs: HeadInputs<'a>,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let HeadInputs { x_q, x_kv, w, mask } = inputs;
    let (q_in, kv_in) = if std::ptr::eq(x_q, x_kv) {
        ("x", "x")
    } else {
        ("x_q", "x_kv")
    };
    let proj = |x_name, x: &'a Matrix, w_name, w: &'a Matrix| Projection {
        x,
        x_name,
        w,
        w_name,
        bias: None,
    };
    let view = HeadView {
        q: &trace.q,
        k: &trace.k,
        v: &trace.v,
        mask,
        scale: trace.scale,
        projections: Some([
            proj(q_in, x_q, "W_q", &w.w_q),
            proj(kv_in, x_kv, "W_k", &w.w_k),
            proj(kv_in, x_kv, "W_v", &w.w_v),
        ]),
        drawn: None,
    };
    explain_attention_cell(&view, cell, max_terms)
}

/// Explains cell (row, col) of `kind` for a head given as a view (a GPT head's
/// f32 buffers, say). Out-of-range cells and misfitting shapes are errors.
pub fn explain_attention_cell(
    view: &HeadView<'_>,
    cell: Cell,
    max_terms: usize,
) -> Result<Explanation, ExplainError> {
    let not_here = ExplainError::NotHere {
        kind: cell.kind,
        what: "head",
    };
    if !cell.kind.is_head() {
        return Err(not_here);
    }
    view.check()?;
    cell.check(view.shape_of(cell.kind))?;
    let (t, s) = (cell.row, cell.col);
    let (value, body, sources) = match cell.kind {
        Kind::Q | Kind::K | Kind::V => view.projection(cell, max_terms)?,
        Kind::Score => view.score(t, s, max_terms),
        Kind::MaskedScore => view.masked_score(t, s),
        Kind::Weight => view.weight(t, s, max_terms),
        Kind::Out => view.out(t, s, max_terms),
        _ => return Err(not_here),
    };
    Ok(Explanation::new(cell, value, body, sources))
}

/// (value, operation, source cells).
type Parts = (f64, Body, Vec<SourceCell>);

fn src(matrix: &'static str, row: usize, col: usize) -> SourceCell {
    SourceCell { matrix, row, col }
}

/// Row r of g as operands named `name`.
fn row_of(g: &dyn Grid, name: &'static str, r: usize) -> Vec<Operand> {
    (0..g.shape().1)
        .map(|c| (g.at(r, c), src(name, r, c)))
        .collect()
}

/// Column c of g as operands named `name`.
fn col_of(g: &dyn Grid, name: &'static str, c: usize) -> Vec<Operand> {
    (0..g.shape().0)
        .map(|r| (g.at(r, c), src(name, r, c)))
        .collect()
}

impl HeadView<'_> {
    fn shape_of(&self, kind: Kind) -> (usize, usize) {
        let (t_out, t_in) = (self.q.shape().0, self.k.shape().0);
        match kind {
            Kind::Q => self.q.shape(),
            Kind::K => self.k.shape(),
            Kind::V => self.v.shape(),
            Kind::Score | Kind::MaskedScore | Kind::Weight => (t_out, t_in),
            Kind::Out => (t_out, self.v.shape().1),
            _ => (0, 0), // not a head's matrix: every cell is out of range
        }
    }

    /// Errors unless q kᵀ, weights v, the mask and the projections fit together.
    fn check(&self) -> Result<(), ExplainError> {
        let ((t_out, d), (t_in, d_k), (t_v, _)) = (self.q.shape(), self.k.shape(), self.v.shape());
        if d != d_k {
            return Err(shape_error!("explain.shape.head_size", d = d, d_k = d_k));
        }
        if t_v != t_in {
            return Err(shape_error!("explain.shape.values", t_in = t_in, t_v = t_v));
        }
        if (self.mask.rows, self.mask.cols) != (t_out, t_in) {
            return Err(shape_error!(
                "explain.shape.mask",
                rows = self.mask.rows,
                cols = self.mask.cols,
                t_out = t_out,
                t_in = t_in
            ));
        }
        if let Some(d) = self.drawn {
            let want = [(t_out, t_in), (t_out, t_in), (t_out, self.v.shape().1)];
            let got = [d.masked_scores.shape(), d.weights.shape(), d.out.shape()];
            if got != want {
                return Err(shape_error!(
                    "explain.shape.drawn",
                    got = format!("{got:?}"),
                    want = format!("{want:?}")
                ));
            }
        }
        for (p, y) in self
            .projections
            .iter()
            .flatten()
            .zip([self.q, self.k, self.v])
        {
            let ((t, c), (d_y, c_w)) = (p.x.shape(), p.w.shape());
            let bias_fits = p.bias.is_none_or(|(b, _)| b.shape() == (1, d_y));
            if c != c_w || (t, d_y) != y.shape() || !bias_fits {
                return Err(shape_error!(
                    "explain.shape.projection",
                    x = p.x_name,
                    t = t,
                    c = c,
                    w = p.w_name,
                    d = d_y,
                    c_w = c_w,
                    rows = y.shape().0,
                    cols = y.shape().1
                ));
            }
        }
        Ok(())
    }

    /// q, k or v: y[t][j] = Σ_c x[t][c]·W[j][c] (+ bias[j]).
    fn projection(&self, cell: Cell, max_terms: usize) -> Result<Parts, ExplainError> {
        let i = match cell.kind {
            Kind::Q => 0,
            Kind::K => 1,
            _ => 2,
        };
        let p = self
            .projections
            .ok_or(ExplainError::NoProjection(cell.kind))?[i];
        let (t, j) = (cell.row, cell.col);
        let x_row = row_of(p.x, p.x_name, t);
        let (mut dot, mut sources) = build::dot(&x_row, &row_of(p.w, p.w_name, j), max_terms);
        let mut value = dot.sum;
        if let Some((b, name)) = p.bias {
            let bias = Addend {
                value: b.at(0, j),
                src: src(name, 0, j),
                fraction: fraction_beside(b.at(0, j)),
            };
            value += bias.value;
            sources.push(bias.src);
            dot.bias = Some(bias);
        }
        Ok((value, Body::Dot(dot), sources))
    }

    /// scores[t][s] = (Σ_j q[t][j]·k[s][j]) · scale; the stored score where the mask
    /// kept it (a masked one is not stored).
    fn score(&self, t: usize, s: usize, max_terms: usize) -> Parts {
        let (mut dot, sources) =
            build::dot(&row_of(self.q, "q", t), &row_of(self.k, "k", s), max_terms);
        let value = match self.drawn {
            Some(d) if self.mask.get(t, s) => d.masked_scores.at(t, s),
            _ => dot.sum * self.scale,
        };
        if self.scale != 1.0 {
            let d_k = self.q.shape().1;
            dot.scale = Some(Scaling {
                d_k,
                sqrt_d_k: (d_k as f64).sqrt(),
                factor: self.scale,
            });
        }
        (value, Body::Dot(dot), sources)
    }

    /// masked_scores[t][s] = scores[t][s] where the mask allows, else −∞.
    fn masked_score(&self, t: usize, s: usize) -> Parts {
        let score = self.score(t, s, 0).0;
        let score_src = src("scores", t, s);
        if self.mask.get(t, s) {
            return (
                score,
                Body::Kept(Kept { score, score_src }),
                vec![score_src],
            );
        }
        let reason = if s > t {
            MaskReason::Future
        } else {
            MaskReason::Forbidden
        };
        let body = Body::Masked(Masked {
            score,
            score_src,
            reason,
            weight: 0.0,
        });
        (f64::NEG_INFINITY, body, vec![score_src])
    }

    /// Row t of masked_scores as operands, and which keys the mask forbids.
    fn masked_row(&self, t: usize) -> (Vec<Operand>, Vec<bool>) {
        let t_in = self.k.shape().0;
        (0..t_in)
            .map(|s| {
                (
                    (self.masked_score(t, s).0, src("masked_scores", t, s)),
                    !self.mask.get(t, s),
                )
            })
            .unzip()
    }

    /// A row softmax cannot normalise: why, with the row's cells as sources.
    fn no_value(&self, t: usize, row: &[Operand]) -> Parts {
        let fully_masked = (0..self.mask.cols).all(|s| !self.mask.get(t, s));
        let reason = if fully_masked {
            NoValueReason::FullyMasked
        } else {
            NoValueReason::Overflow
        };
        let sources = row.iter().map(|o| o.1).collect();
        (0.0, Body::NoValue { reason }, sources)
    }

    /// weights[t][s] = softmax(masked_scores[t])[s].
    fn weight(&self, t: usize, s: usize, max_terms: usize) -> Parts {
        let (row, masked) = self.masked_row(t);
        match build::softmax(&row, &masked, s, max_terms) {
            Some((value, body, sources)) => {
                let value = self.drawn.map_or(value, |d| d.weights.at(t, s));
                (value, Body::Softmax(body), sources)
            }
            None => self.no_value(t, &row),
        }
    }

    /// out[t][j] = Σ_s weights[t][s]·v[s][j], the weights as stored when they are.
    fn out(&self, t: usize, j: usize, max_terms: usize) -> Parts {
        let (row, _) = self.masked_row(t);
        let scores: Vec<f64> = row.iter().map(|o| o.0).collect();
        let Some(weights) = softmax_row(&scores) else {
            return self.no_value(t, &row);
        };
        let a: Vec<Operand> = match self.drawn {
            Some(d) => row_of(d.weights, "weights", t),
            None => weights
                .iter()
                .enumerate()
                .map(|(s, &w)| (w, src("weights", t, s)))
                .collect(),
        };
        let (dot, sources) = build::dot(&a, &col_of(self.v, "v", j), max_terms);
        let value = self.drawn.map_or(dot.sum, |d| d.out.at(t, j));
        (value, Body::Dot(dot), sources)
    }
}
