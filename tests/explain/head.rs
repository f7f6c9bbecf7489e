//! One head: the h/o/u numbers, random heads, no-value rows, long sums, errors.

use super::*;
use crate::common::Rng;
use attention_playground::attention::cross_forward;

#[test]
fn hou_score_weight_and_out_give_the_lesson_numbers() {
    let e = explain_hou(false, Kind::Score, 2, 0);
    let Body::Dot(d) = &e.body else {
        panic!("{e:?}")
    };
    let ab: Vec<(f64, f64)> = d.terms.iter().map(|t| (t.a, t.b)).collect();
    assert_eq!(ab, vec![(2.0, 2.0), (0.5, 0.0)]); // 4.0 = 2·2 + 0.5·0
    assert_eq!((e.value, d.sum, d.scale.is_none()), (4.0, 4.0, true));

    let e = explain_hou(false, Kind::Weight, 2, 0);
    let Body::Softmax(s) = &e.body else {
        panic!("{e:?}")
    };
    let scores: Vec<f64> = s.terms.iter().map(|t| t.score).collect();
    assert_eq!(scores, vec![4.0, 0.5, 2.5]);
    assert_eq!(
        (round2(s.numerator), round2(s.denominator), round2(e.value)),
        (54.60, 68.43, 0.80)
    );
    assert_eq!((s.max, s.numerator_shifted), (4.0, 1.0));
    close("identical", s.numerator / s.denominator, e.value, 1e-15);

    let e = explain_hou(false, Kind::Out, 2, 0);
    let Body::Dot(d) = &e.body else {
        panic!("{e:?}")
    };
    let ab: Vec<(f64, f64)> = d.terms.iter().map(|t| (round2(t.a), t.b)).collect();
    assert_eq!(ab, vec![(0.80, 10.0), (0.02, 0.0), (0.18, 5.0)]);
    assert_eq!(round2(e.value), 8.87);
    let weights: Vec<&str> = d.terms.iter().map(|t| t.a_src.matrix).collect();
    assert_eq!(weights, vec!["weights"; 3]);
}

#[test]
fn hou_projection_scale_and_mask() {
    let e = explain_hou(false, Kind::Q, 2, 0); // q_u[0] = x_u · W_q[0] = 0·1 + 0·0 + 1·2
    let Body::Dot(d) = &e.body else { panic!() };
    assert_eq!(
        d.terms.iter().map(|t| (t.a, t.b)).collect::<Vec<_>>(),
        vec![(0.0, 1.0), (0.0, 0.0), (1.0, 2.0)]
    );
    assert_eq!(
        (d.terms[2].a_src.matrix, d.terms[2].b_src.matrix),
        ("x", "W_q")
    );
    assert_eq!(e.value, 2.0);

    let e = explain_hou(true, Kind::Score, 2, 0);
    let Body::Dot(d) = &e.body else { panic!() };
    let s = d.scale.as_ref().unwrap();
    assert_eq!((d.sum, s.d_k, s.sqrt_d_k), (4.0, 2, 2f64.sqrt()));
    close("scaled", e.value, 4.0 / 2f64.sqrt(), 1e-15);

    let e = explain_hou(false, Kind::MaskedScore, 0, 1); // h cannot read o
    let Body::Masked(m) = &e.body else { panic!() };
    assert_eq!(
        (e.value, m.reason, m.weight, m.score),
        (f64::NEG_INFINITY, MaskReason::Future, 0.0, 0.0)
    );
    let e = explain_hou(false, Kind::Weight, 0, 1);
    let Body::Softmax(s) = &e.body else { panic!() };
    assert!(s.target_masked && e.value == 0.0 && s.numerator_shifted == 0.0);
    assert!(matches!(
        explain_hou(false, Kind::MaskedScore, 2, 1).body,
        Body::Kept(_)
    ));
}

#[test]
fn every_cell_of_random_heads_recombines() {
    let mut rng = Rng::new(11);
    for case in 0..40 {
        let (t_out, t_in, c, d) = (
            1 + rng.below(6),
            1 + rng.below(6),
            1 + rng.below(5),
            1 + rng.below(5),
        );
        let d_v = 1 + rng.below(4);
        let w = HeadWeights {
            w_q: rng.matrix(d, c, 2.0),
            w_k: rng.matrix(d, c, 2.0),
            w_v: rng.matrix(d_v, c, 2.0),
        };
        let x_q = rng.matrix(t_out, c, 2.0);
        let x_kv = rng.matrix(t_in, c, 2.0);
        // Causal, none, and random masks (which can leave rows fully masked).
        let mask = match case % 3 {
            0 => causal_mask(t_out, t_in),
            1 => Mask::none(t_out, t_in),
            _ => Mask::from_fn(t_out, t_in, |_, _| rng.below(3) > 0),
        };
        let scaled = case % 2 == 0;
        let max_terms = [1, 2, DEFAULT_MAX_TERMS][case % 3];
        let trace = cross_forward(&x_q, &x_kv, &w, &mask, scaled).unwrap();
        check_every_cell(&x_q, &x_kv, &w, &mask, &trace, max_terms);
        let x = rng.matrix(t_in, c, 2.0);
        let trace = head_forward(&x, &w, true, scaled).unwrap();
        check_every_cell(&x, &x, &w, &causal_mask(t_in, t_in), &trace, max_terms);
    }
}

#[test]
fn fully_masked_and_overflow_rows_say_so() {
    let (x, w, _) = hou();
    let mask = Mask::from_fn(3, 3, |t, s| t != 1 && s <= t);
    let trace = cross_forward(&x, &x, &w, &mask, false).unwrap();
    check_every_cell(&x, &x, &w, &mask, &trace, 8);
    let inputs = HeadInputs {
        x_q: &x,
        x_kv: &x,
        w: &w,
        mask: &mask,
    };
    let e = explain_head(&trace, inputs, Cell::new(Kind::Out, 1, 0), 8).unwrap();
    assert_eq!(
        e.body,
        Body::NoValue {
            reason: NoValueReason::FullyMasked
        }
    );
    let e = explain_head(&trace, inputs, Cell::new(Kind::MaskedScore, 1, 0), 8).unwrap();
    assert!(matches!(
        e.body,
        Body::Masked(Masked {
            reason: MaskReason::Forbidden,
            ..
        })
    ));

    let big = x.scale(1e200);
    let trace = head_forward(&big, &w, true, false).unwrap();
    assert!(!trace.overflow_rows.is_empty());
    let mask = causal_mask(3, 3);
    check_every_cell(&big, &big, &w, &mask, &trace, 8);
    let inputs = HeadInputs {
        x_q: &big,
        x_kv: &big,
        w: &w,
        mask: &mask,
    };
    let t = trace.overflow_rows[0];
    let e = explain_head(&trace, inputs, Cell::new(Kind::Weight, t, 0), 8).unwrap();
    assert_eq!(
        e.body,
        Body::NoValue {
            reason: NoValueReason::Overflow
        }
    );
}

#[test]
fn long_dot_products_list_the_largest_terms_and_sum_the_rest() {
    let mut rng = Rng::new(64);
    let (t_len, c, d) = (5, 128, 64);
    let w = HeadWeights {
        w_q: rng.matrix(d, c, 1.0),
        w_k: rng.matrix(d, c, 1.0),
        w_v: rng.matrix(d, c, 1.0),
    };
    let x = rng.matrix(t_len, c, 1.0);
    let trace = head_forward(&x, &w, true, true).unwrap();
    check_every_cell(&x, &x, &w, &causal_mask(t_len, t_len), &trace, 8);
    let e = explain_self(&x, &w, &trace, Cell::new(Kind::Score, 4, 2));
    let Body::Dot(dot) = &e.body else { panic!() };
    let rest = dot.rest.as_ref().unwrap();
    assert_eq!((dot.terms.len(), rest.count), (8, 56));
    let smallest_listed = dot
        .terms
        .iter()
        .map(|t| t.product.abs())
        .fold(f64::INFINITY, f64::min);
    let all: Vec<f64> = (0..d)
        .map(|j| (trace.q.get(4, j) * trace.k.get(2, j)).abs())
        .collect();
    assert_eq!(all.iter().filter(|&&p| p > smallest_listed).count(), 7);
    assert_eq!(e.sources.len(), 2 * d);
}

fn explain_self(x: &Matrix, w: &HeadWeights, trace: &HeadTrace, cell: Cell) -> Explanation {
    let mask = causal_mask(x.rows, x.rows);
    explain_head(
        trace,
        HeadInputs {
            x_q: x,
            x_kv: x,
            w,
            mask: &mask,
        },
        cell,
        8,
    )
    .unwrap()
}

#[test]
fn bad_cells_and_kinds_are_errors_not_panics() {
    let (x, w, mask) = hou();
    let trace = head_forward(&x, &w, true, false).unwrap();
    let inputs = HeadInputs {
        x_q: &x,
        x_kv: &x,
        w: &w,
        mask: &mask,
    };
    for (kind, r, c) in [
        (Kind::Q, 3, 0),
        (Kind::Q, 0, 2),
        (Kind::Weight, 0, 3),
        (Kind::Out, 9, 9),
    ] {
        let e = explain_head(&trace, inputs, Cell::new(kind, r, c), 8).unwrap_err();
        assert!(matches!(e, ExplainError::OutOfRange { .. }), "{e}");
        assert!(e.to_string().contains("there is no cell"));
    }
    assert_eq!(Kind::parse("weight"), Ok(Kind::Weight));
    assert_eq!(Kind::parse("masked_scores"), Ok(Kind::MaskedScore));
    assert!(Kind::parse("W_q")
        .unwrap_err()
        .to_string()
        .contains("unknown matrix"));
    assert!(Scheme::parse("bag").is_err());
    let e = explain_scheme(Scheme::Loop, &x, Cell::new(Kind::Score, 0, 0), 8).unwrap_err();
    assert_eq!(
        e,
        ExplainError::NotInScheme {
            scheme: Scheme::Loop,
            kind: Kind::Score
        }
    );
    let e = explain_scheme(Scheme::Matrix, &x, Cell::new(Kind::Out, 0, 3), 8).unwrap_err();
    assert!(matches!(e, ExplainError::OutOfRange { .. }));
    // A view without projections cannot explain q; a misfitting one is refused.
    let view = HeadView {
        q: &trace.q,
        k: &trace.k,
        v: &trace.v,
        mask: &mask,
        scale: 1.0,
        projections: None,
        drawn: None,
    };
    let e = explain_attention_cell(&view, Cell::new(Kind::Q, 0, 0), 8).unwrap_err();
    assert_eq!(e, ExplainError::NoProjection(Kind::Q));
    let bad = HeadView {
        k: &trace.v,
        v: &trace.k,
        mask: &causal_mask(3, 2),
        ..view
    };
    assert!(matches!(
        explain_attention_cell(&bad, Cell::new(Kind::Weight, 0, 0), 8),
        Err(ExplainError::Shape(_))
    ));
}

/// A long causal row lists the keys a query can read; the masked ones (e^−∞ = 0)
/// go to the rest instead of taking places in the list.
#[test]
fn a_long_masked_row_lists_the_visible_keys() {
    let mut rng = Rng::new(77);
    let (t_len, d) = (13, 4);
    let q = rng.matrix(t_len, d, 1.0);
    let k = rng.matrix(t_len, d, 1.0);
    let v = rng.matrix(t_len, d, 1.0);
    let mask = causal_mask(t_len, t_len);
    let view = HeadView {
        q: &q,
        k: &k,
        v: &v,
        mask: &mask,
        scale: 0.5,
        projections: None,
        drawn: None,
    };
    let e = explain_attention_cell(&view, Cell::new(Kind::Weight, 5, 1), 8).unwrap();
    let Body::Softmax(s) = &e.body else {
        panic!("{e:?}")
    };
    let cols: Vec<usize> = s.terms.iter().map(|t| t.src.col).collect();
    assert_eq!(
        cols,
        vec![0, 1, 2, 3, 4, 5],
        "the six visible keys, none masked"
    );
    let rest = s.rest.as_ref().expect("the masked keys");
    assert_eq!((rest.count, rest.exp_sum), (7, 0.0));
    assert!((s.numerator / s.denominator - e.value).abs() < 1e-12);
}
