//! The head's invariants: causality bit for bit, edge shapes, cross-attention,
//! and the fully masked row reported rather than turned into NaN.

mod common;

use attention_playground::attention::{attend, cross_forward, head_forward, HeadWeights};
use attention_playground::tensor::{causal_mask, Mask, Matrix};
use common::Rng;

fn random_head(rng: &mut Rng, c: usize, d: usize) -> HeadWeights {
    HeadWeights {
        w_q: rng.matrix(d, c, 1.5),
        w_k: rng.matrix(d, c, 1.5),
        w_v: rng.matrix(d + 1, c, 1.5),
    }
}

#[test]
fn with_the_mask_the_future_cannot_change_the_past() {
    let mut rng = Rng::new(3);
    for t_len in 2..=8 {
        let (c, d) = (1 + rng.below(5), 1 + rng.below(4));
        let w = random_head(&mut rng, c, d);
        let x = rng.matrix(t_len, c, 2.0);
        for changed in 1..t_len {
            let mut x2 = x.clone();
            for ch in 0..c {
                x2.set(changed, ch, x.get(changed, ch) + 1.0 + rng.uniform());
            }
            for scaled in [false, true] {
                let a = head_forward(&x, &w, true, scaled).unwrap();
                let b = head_forward(&x2, &w, true, scaled).unwrap();
                for t in 0..changed {
                    // Bit-identical, not merely close.
                    assert_eq!(
                        a.out.row(t),
                        b.out.row(t),
                        "T={t_len} changed={changed} t={t}"
                    );
                    assert_eq!(a.weights.row(t), b.weights.row(t));
                }
                // Without the mask the earlier outputs do change.
                let a = head_forward(&x, &w, false, scaled).unwrap();
                let b = head_forward(&x2, &w, false, scaled).unwrap();
                let moved = (0..changed).any(|t| a.out.row(t) != b.out.row(t));
                assert!(
                    moved,
                    "no mask, T={t_len}: changing position {changed} moved nothing"
                );
            }
        }
    }
}

#[test]
fn edge_shapes() {
    let mut rng = Rng::new(5);
    // T = 1: the only weight is 1 and out = v.
    let w = random_head(&mut rng, 3, 2);
    let x = rng.matrix(1, 3, 1.0);
    let t = head_forward(&x, &w, true, true).unwrap();
    assert_eq!(t.weights.data, vec![1.0]);
    assert_eq!(t.out, t.v);
    // d_k = 1: scale is 1/√1 = 1 and scores are products of scalars.
    let w = random_head(&mut rng, 4, 1);
    let x = rng.matrix(5, 4, 1.0);
    let a = head_forward(&x, &w, false, true).unwrap();
    let b = head_forward(&x, &w, false, false).unwrap();
    assert_eq!(a.scale, 1.0);
    assert_eq!(a.weights, b.weights);
    assert_eq!(a.scores.get(3, 1), a.q.get(3, 0) * a.k.get(1, 0));
}

#[test]
fn cross_attention_has_t_out_by_t_in_scores() {
    let mut rng = Rng::new(9);
    let w = random_head(&mut rng, 3, 2);
    let (x_q, x_kv) = (rng.matrix(2, 3, 1.0), rng.matrix(5, 3, 1.0));
    let t = cross_forward(&x_q, &x_kv, &w, &Mask::none(2, 5), true).unwrap();
    assert_eq!((t.scores.rows, t.scores.cols), (2, 5));
    assert_eq!((t.weights.rows, t.weights.cols), (2, 5));
    assert_eq!((t.out.rows, t.out.cols), (2, 3));
    for s in t.weights.row_sums() {
        assert!((s - 1.0).abs() < 1e-12);
    }
    // Queries from x_q only: changing x_kv's values moves out, not the query side.
    let t_out_gt_in = cross_forward(&x_kv, &x_q, &w, &causal_mask(5, 2), false).unwrap();
    assert_eq!((t_out_gt_in.weights.rows, t_out_gt_in.weights.cols), (5, 2));
    assert_eq!(t_out_gt_in.weights.row(0), &[1.0, 0.0][..]);
    // A mismatched mask or channel count is an error, not a panic.
    assert!(cross_forward(&x_q, &x_kv, &w, &Mask::none(5, 2), true).is_err());
    let bad = rng.matrix(5, 4, 1.0);
    let e = cross_forward(&x_q, &bad, &w, &Mask::none(2, 5), true).unwrap_err();
    assert!(e.to_string().contains("channels"), "{e}");
}

#[test]
fn a_fully_masked_row_is_reported_not_nan() {
    let mut rng = Rng::new(13);
    let (q, k, v) = (
        rng.matrix(3, 2, 1.0),
        rng.matrix(3, 2, 1.0),
        rng.matrix(3, 2, 1.0),
    );
    let mask = Mask::from_fn(3, 3, |t, s| t != 1 && s <= t);
    let trace = attend(q, k, v, &mask, 1.0);
    assert_eq!(trace.fully_masked_rows, vec![1]);
    assert!(trace.overflow_rows.is_empty());
    assert!(trace.weights.is_finite() && trace.out.is_finite());
    assert!(!trace.is_clean());
}

#[test]
fn huge_inputs_are_reported_as_overflow() {
    let x = Matrix::identity(2);
    let big = Matrix::from_rows(&[[1e200, 1e200]]).unwrap();
    let w = HeadWeights {
        w_q: big.clone(),
        w_k: big.clone(),
        w_v: big,
    };
    let t = head_forward(&x, &w, true, false).unwrap();
    assert_eq!(t.overflow_rows, vec![0, 1]);
    assert!(!t.is_clean());
}

#[test]
fn bad_weight_shapes_are_errors() {
    let x = Matrix::identity(3);
    let w = HeadWeights {
        w_q: Matrix::zeros(2, 3),
        w_k: Matrix::zeros(3, 3),
        w_v: Matrix::zeros(2, 3),
    };
    assert!(head_forward(&x, &w, true, false)
        .unwrap_err()
        .to_string()
        .contains("head size"));
    let w = HeadWeights {
        w_q: Matrix::zeros(2, 4),
        ..w
    };
    assert!(head_forward(&x, &w, true, false)
        .unwrap_err()
        .to_string()
        .contains("channels"));
}
