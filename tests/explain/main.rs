//! Every number explains itself: for every cell of every kind the value is the
//! drawn number bit for bit, each operand is the number in the cell it names,
//! the operands recombine to the value (1e-12), and the lesson's h/o/u numbers
//! come out. Helpers here; the cases in `head`, `scheme` and `view`.

#[path = "../common/mod.rs"]
mod common;
mod errors;
mod extra;
mod head;
mod scheme;
mod sources;
mod view;

use std::collections::HashMap;

use attention_playground::attention::{head_forward, hou_defaults, HeadTrace, HeadWeights};
use attention_playground::explain::*;
use attention_playground::tensor::{causal_mask, causal_or_none, Mask, Matrix};

pub const KINDS: [Kind; 7] = [
    Kind::Q,
    Kind::K,
    Kind::V,
    Kind::Score,
    Kind::MaskedScore,
    Kind::Weight,
    Kind::Out,
];

/// The value the listed terms (and the rest) add up to, by the op's formula.
pub fn recombine(e: &Explanation) -> f64 {
    let rest = |r: &Option<Rest>| r.as_ref().map_or(0.0, |r| r.sum);
    match &e.body {
        Body::Dot(d) => {
            let sum = d.terms.iter().map(|t| t.product).sum::<f64>() + rest(&d.rest);
            let bias = d.bias.as_ref().map_or(0.0, |b| b.value);
            (sum + bias) * d.scale.as_ref().map_or(1.0, |s| s.factor)
        }
        Body::Softmax(s) => {
            let rest = s.rest.as_ref().map_or(0.0, |r| r.shifted_exp_sum);
            s.numerator_shifted / (s.terms.iter().map(|t| t.shifted_exp).sum::<f64>() + rest)
        }
        Body::Mean(m) => {
            (m.terms.iter().map(|t| t.value).sum::<f64>() + rest(&m.rest)) / m.count as f64
        }
        Body::Normalise(n) => {
            n.numerator.value / (n.terms.iter().map(|t| t.value).sum::<f64>() + rest(&n.rest))
        }
        Body::Masked(_) => f64::NEG_INFINITY,
        Body::Kept(k) => k.score,
        Body::Bilinear(b) => {
            // Each entry of x_t M from its products, then the dot product with x_s.
            let dot = |d: &Dot| d.terms.iter().map(|t| t.product).sum::<f64>() + rest(&d.rest);
            for (first, then) in b.first.iter().zip(&b.then.terms) {
                close("x M entry", dot(first), then.a, 1e-12);
            }
            dot(&b.then)
        }
        Body::Sinusoid(s) => {
            let angle = s.pos as f64 / 10000f64.powf(s.two_i as f64 / s.d as f64);
            close("angle", s.angle, angle, 1e-12);
            if s.cos {
                angle.cos()
            } else {
                angle.sin()
            }
        }
        Body::NoValue {
            reason: NoValueReason::Nan,
        } => f64::NAN,
        Body::NoValue { .. } => 0.0,
    }
}

pub fn close(what: &str, got: f64, want: f64, tol: f64) {
    let ok = if want.is_nan() {
        got.is_nan()
    } else if want.is_infinite() {
        got == want
    } else {
        (got - want).abs() <= tol * want.abs().max(1.0)
    };
    assert!(ok, "{what}: got {got:e} want {want:e}");
}

/// Checks that the value is the drawn number, that every operand is the number
/// in the cell it names, and that the operands recombine to the value (1e-12).
pub fn check(e: &Explanation, m: &HashMap<&str, &Matrix>, drawn: f64) {
    let what = format!("{}[{}][{}] ({:?})", e.kind.name(), e.row, e.col, e.body);
    let at = |s: &SourceCell| m[s.matrix].get(s.row, s.col);
    // Bit for bit: the explanation repeats the forward pass's own arithmetic.
    let same = e.value == drawn || (e.value.is_nan() && drawn.is_nan());
    assert!(same, "{what}: value {:e}, drawn {drawn:e}", e.value);
    close(&what, recombine(e), e.value, 1e-12);
    assert!(e.sources.iter().all(|s| m.contains_key(s.matrix)), "{what}");
    match &e.body {
        Body::Dot(d) => {
            for t in &d.terms {
                assert_eq!(
                    (t.a, t.b, t.product),
                    (at(&t.a_src), at(&t.b_src), t.a * t.b),
                    "{what}"
                );
            }
            close(
                &what,
                d.sum * d.scale.as_ref().map_or(1.0, |s| s.factor),
                e.value,
                1e-12,
            );
        }
        Body::Softmax(s) => {
            for t in &s.terms {
                assert_eq!(t.score, at(&t.src), "{what}");
                assert_eq!(t.masked, t.score == f64::NEG_INFINITY, "{what}");
            }
            if s.denominator.is_finite() {
                close(&what, s.numerator / s.denominator, e.value, 1e-12);
            }
            if s.target_masked {
                assert_eq!(e.value, 0.0);
            }
        }
        Body::Masked(k) => assert_eq!((k.score, k.weight), (at(&k.score_src), 0.0), "{what}"),
        Body::Kept(k) => assert_eq!(k.score, at(&k.score_src), "{what}"),
        _ => {}
    }
}

/// The matrices of a head's trace, by the names explanations give them.
pub fn trace_matrices(t: &HeadTrace) -> HashMap<&'static str, &Matrix> {
    HashMap::from(t.named())
}

/// The trace's matrices and the inputs and weights that made them.
pub fn head_matrices<'a>(
    x_q: &'a Matrix,
    x_kv: &'a Matrix,
    w: &'a HeadWeights,
    t: &'a HeadTrace,
) -> HashMap<&'static str, &'a Matrix> {
    let mut m = trace_matrices(t);
    m.extend([
        ("x", x_q),
        ("x_q", x_q),
        ("x_kv", x_kv),
        ("W_q", &w.w_q),
        ("W_k", &w.w_k),
        ("W_v", &w.w_v),
    ]);
    m
}

/// Explains every cell of every kind and checks each explanation.
pub fn check_every_cell(
    x_q: &Matrix,
    x_kv: &Matrix,
    w: &HeadWeights,
    mask: &Mask,
    t: &HeadTrace,
    max_terms: usize,
) {
    let m = head_matrices(x_q, x_kv, w, t);
    let inputs = HeadInputs { x_q, x_kv, w, mask };
    for kind in KINDS {
        let drawn = m[kind.name()];
        for r in 0..drawn.rows {
            for c in 0..drawn.cols {
                let e = explain_head(t, inputs, Cell::new(kind, r, c), max_terms).unwrap();
                check(&e, &m, drawn.get(r, c));
                let no_value = t.fully_masked_rows.contains(&r) || t.overflow_rows.contains(&r);
                let is_no_value = matches!(e.body, Body::NoValue { .. });
                assert_eq!(
                    no_value && matches!(kind, Kind::Weight | Kind::Out),
                    is_no_value
                );
            }
        }
    }
}

pub fn hou() -> (Matrix, HeadWeights, Mask) {
    let (_, x, w) = hou_defaults();
    (x, w, causal_mask(3, 3))
}

pub fn explain_hou(scaled: bool, kind: Kind, row: usize, col: usize) -> Explanation {
    try_explain_hou(scaled, kind, row, col).unwrap()
}

/// A cell of the h/o/u head (causal), or why it cannot be explained there.
pub fn try_explain_hou(
    scaled: bool,
    kind: Kind,
    row: usize,
    col: usize,
) -> Result<Explanation, ExplainError> {
    let (x, w, mask) = hou();
    let trace = head_forward(&x, &w, true, scaled).unwrap();
    let inputs = HeadInputs {
        x_q: &x,
        x_kv: &x,
        w: &w,
        mask: &mask,
    };
    explain_head(&trace, inputs, Cell::new(kind, row, col), DEFAULT_MAX_TERMS)
}

pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
