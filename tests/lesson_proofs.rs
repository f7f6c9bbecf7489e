//! LESSON §7: the head against an independent naive implementation, the
//! backward pass against finite differences (Q, K, V and the weights), and
//! the future-change test. Plus the op pairs' edge cases.

mod common;

use attention_playground::attention::{head_forward, hou_defaults, HeadWeights};
use attention_playground::lesson::backward::head_grads;
use attention_playground::lesson::proofs::{future_change, grad_check, manual_vs_naive};
use attention_playground::tensor::Matrix;
use common::Rng;

#[test]
fn manual_attention_matches_the_naive_reference_to_float64_rounding() {
    for seed in 0..4 {
        for (t, d) in [(1, 1), (4, 16), (5, 3), (16, 16)] {
            for causal in [true, false] {
                let r = manual_vs_naive(seed, t, d, causal).unwrap();
                assert!(r.max_err <= 1e-15, "T={t} d={d}: {:e}", r.max_err);
            }
        }
    }
    assert!(manual_vs_naive(0, 17, 4, true).is_err());
}

#[test]
fn gradients_of_q_k_v_pass_the_finite_difference_check() {
    for seed in 0..6 {
        for (t, d) in [(1, 1), (3, 2), (5, 4), (8, 8), (16, 16)] {
            for causal in [true, false] {
                let g = grad_check(seed, t, d, causal).unwrap();
                assert!(
                    g.passed,
                    "seed {seed} T={t} d={d} causal={causal}: {:e}",
                    g.max_rel_err
                );
                assert!(g.q.max_abs_err < 1e-7 && g.v.max_abs_err < 1e-7);
            }
        }
    }
}

#[test]
fn future_values_cannot_change_earlier_outputs_under_the_mask() {
    for seed in 0..5 {
        for (t, from) in [(2, 1), (6, 3), (16, 15), (16, 1)] {
            let f = future_change(seed, t, 4, from).unwrap();
            assert_eq!(f.with_mask, 0.0, "exactly 0");
            assert!(f.without_mask > 1e-6, "{}", f.without_mask);
        }
    }
    assert!(future_change(0, 4, 4, 0).is_err());
    assert!(future_change(0, 4, 4, 4).is_err());
}

/// L = Σ out ⊙ dout as a function of the head's inputs.
fn loss(x: &Matrix, w: &HeadWeights, causal: bool, dout: &Matrix) -> f64 {
    let t = head_forward(x, w, causal, true).unwrap();
    t.out.data.iter().zip(&dout.data).map(|(a, b)| a * b).sum()
}

fn check_numeric(what: &str, analytic: &Matrix, mut numeric: impl FnMut(usize) -> f64) {
    for i in 0..analytic.data.len() {
        let (a, n) = (analytic.data[i], numeric(i));
        let rel = (a - n).abs() / a.abs().max(n.abs()).max(1.0);
        assert!(rel < 1e-6, "{what}[{i}]: analytic {a} numeric {n}");
    }
}

#[test]
fn weight_and_input_gradients_pass_the_finite_difference_check() {
    let mut rng = Rng::new(31);
    let h = 1e-6;
    for (t, c, d, dv) in [(1, 2, 1, 1), (3, 3, 2, 2), (5, 4, 3, 2)] {
        let x = rng.matrix(t, c, 1.0);
        let w = HeadWeights {
            w_q: rng.matrix(d, c, 1.0),
            w_k: rng.matrix(d, c, 1.0),
            w_v: rng.matrix(dv, c, 1.0),
        };
        let dout = rng.matrix(t, dv, 1.0);
        for causal in [true, false] {
            let g = head_grads(&x, &w, causal, true, &dout).unwrap();
            let central = |f: &dyn Fn(f64) -> f64| (f(h) - f(-h)) / (2.0 * h);
            check_numeric("dx", g.dx.as_ref().unwrap(), |i| {
                central(&|e| {
                    let mut x2 = x.clone();
                    x2.data[i] += e;
                    loss(&x2, &w, causal, &dout)
                })
            });
            for (name, which) in [("dW_q", 0), ("dW_k", 1), ("dW_v", 2)] {
                let grad = [&g.d_w_q, &g.d_w_k, &g.d_w_v][which].as_ref().unwrap();
                check_numeric(name, grad, |i| {
                    central(&|e| {
                        let mut w2 = w.clone();
                        [&mut w2.w_q, &mut w2.w_k, &mut w2.w_v][which].data[i] += e;
                        loss(&x, &w2, causal, &dout)
                    })
                });
            }
        }
    }
}

#[test]
fn backward_on_the_hou_head_and_bad_dout() {
    let (_, x, w) = hou_defaults();
    let dout = Matrix::filled(3, 2, 1.0);
    let g = head_grads(&x, &w, true, false, &dout).unwrap();
    // Row 0 attends only to itself with weight exactly 1: no gradient to q_0.
    assert_eq!(g.dq.row(0), &[0.0, 0.0]);
    // dv = weightsᵀ dout: column sums of weights.
    let t = head_forward(&x, &w, true, false).unwrap();
    let col_sums = t.weights.transpose().row_sums();
    for (s, want) in col_sums.iter().enumerate() {
        assert!((g.dv.get(s, 0) - want).abs() < 1e-15);
    }
    // Masked cells get no gradient.
    assert_eq!(g.dscores.get(0, 1), 0.0);
    assert_eq!(g.dscores.get(1, 2), 0.0);
    assert!(head_grads(&x, &w, true, false, &Matrix::filled(3, 3, 1.0)).is_err());
    assert!(head_grads(&x, &w, true, false, &Matrix::filled(3, 2, f64::NAN)).is_err());
}
