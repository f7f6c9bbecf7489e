//! LESSON §3 around the h/o/u head: M = W_q W_kᵀ (W_qᵀ W_k in nn.Linear
//! layout), u's output term by term, the `you` sequence, W_v and the biases.

mod common;

use attention_playground::attention::{hou_defaults, HeadWeights};
use attention_playground::lesson::content::{compare_words, letters, run_word};
use attention_playground::lesson::head_experiments::{
    bias_effect, compatibility, output_terms, run_head, score_two_ways, value_change,
};
use attention_playground::tensor::{dot, Matrix};
use common::{assert_close, fixture, matrix, Rng};

fn round(v: &[f64], decimals: i32) -> Vec<f64> {
    let f = 10f64.powi(decimals);
    v.iter().map(|x| (x * f).round() / f).collect()
}

#[test]
fn u_to_h_is_4_and_h_to_u_is_1_both_ways() {
    let (_, x, w) = hou_defaults();
    let s = score_two_ways(&x, &w, 2, 0).unwrap();
    assert_eq!((s.score, s.score_via_m, s.score_reversed), (4.0, 4.0, 1.0));
    assert!(!s.m_symmetric);
    assert_eq!(s.max_err, 0.0);
    assert_eq!((s.m.rows, s.m.cols), (3, 3));
    // W_q = W_k makes M symmetric, and attention with it.
    let sym = HeadWeights {
        w_k: w.w_q.clone(),
        ..w.clone()
    };
    let m = compatibility(&sym);
    assert_eq!(m, m.transpose());
    // Random shapes: the two ways agree to rounding.
    let mut rng = Rng::new(4);
    for (t, c, d) in [(1, 1, 1), (5, 3, 2), (7, 6, 4)] {
        let x = rng.matrix(t, c, 2.0);
        let w = HeadWeights {
            w_q: rng.matrix(d, c, 1.0),
            w_k: rng.matrix(d, c, 1.0),
            w_v: rng.matrix(d, c, 1.0),
        };
        assert!(score_two_ways(&x, &w, t - 1, 0).unwrap().max_err < 1e-13);
    }
    assert!(score_two_ways(&x, &w, 3, 0).is_err());
}

#[test]
fn u_output_is_almost_v_h() {
    let (_, x, w) = hou_defaults();
    let trace = run_head(&x, &w, true, false).unwrap();
    let o = output_terms(&trace, 2).unwrap();
    let weights: Vec<f64> = o.terms.iter().map(|t| t.weight).collect();
    assert_eq!(round(&weights, 2), vec![0.80, 0.02, 0.18]);
    assert_eq!(o.terms[0].value, vec![10.0, 0.0]);
    assert_eq!(o.terms[2].value, vec![5.0, 5.0]);
    assert_eq!(round(&o.out, 2), vec![8.87, 1.13]);
    let sum: Vec<f64> = (0..2)
        .map(|j| o.terms.iter().map(|t| t.contribution[j]).sum())
        .collect();
    assert!(sum.iter().zip(&o.out).all(|(a, b)| (a - b).abs() < 1e-14));
    assert!(output_terms(&trace, 3).is_err());
}

#[test]
fn hou_matches_the_fixture_and_you_gets_other_weights() {
    let f = fixture("hou.json");
    let (_, _, w) = hou_defaults();
    let hou = run_word("hou", &w, true, false).unwrap();
    let want = matrix(&f["unscaled"]["weights_full_precision"]);
    assert_close("hou weights", &hou.trace.weights, &want, 1e-12);
    let you = run_word("you", &w, true, false).unwrap();
    assert_eq!(
        you.x.row(0),
        &[1.0, 1.0, 0.0],
        "y = [1, 1, 0] by our choice"
    );
    assert!(you.trace.weights.max_abs_diff(&hou.trace.weights) > 0.1);
    let pair = compare_words("hou", "you", &w, true, false).unwrap();
    assert_eq!(pair.a, hou);
    assert!(pair.weights_max_diff > 0.1);
    assert_eq!(
        compare_words("hou", "hou", &w, true, true)
            .unwrap()
            .weights_max_diff,
        0.0
    );
    assert!(compare_words("hou", "thou", &w, true, true).is_err());
    assert!(letters("hex").unwrap_err().0.contains("'e'"));
    assert!(letters("").is_err());
}

#[test]
fn w_v_moves_out_never_weights() {
    let (_, x, w) = hou_defaults();
    let new_w_v = Matrix::from_rows(&[[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]]).unwrap();
    for (causal, scaled) in [(true, false), (false, true)] {
        let c = value_change(&x, &w, &new_w_v, causal, scaled).unwrap();
        assert!(c.weights_identical);
        assert!(c.out_max_change > 1.0);
    }
    // A W_v with another d_v is fine; one with the wrong C is an error.
    let wide = Matrix::filled(4, 3, 1.0);
    assert_eq!(
        value_change(&x, &w, &wide, true, false)
            .unwrap()
            .after
            .out
            .cols,
        4
    );
    assert!(value_change(&x, &w, &Matrix::filled(2, 2, 1.0), true, false).is_err());
}

#[test]
fn k_bias_does_nothing_after_softmax_q_bias_does() {
    let (_, x, w) = hou_defaults();
    let mut rng = Rng::new(8);
    let xr = rng.matrix(5, 3, 1.0);
    for (x, causal) in [(&x, true), (&x, false), (&xr, false)] {
        let b = bias_effect(x, &w, &[1.0, 1.0], &[1.0, -2.0], causal, false).unwrap();
        assert!(
            b.k_bias.max_weight_change < 1e-15,
            "{}",
            b.k_bias.max_weight_change
        );
        assert!(b.q_bias.max_weight_change > 1e-3);
        for t in 0..x.rows {
            assert_eq!(b.k_row_shift[t], dot(b.base.q.row(t), &[1.0, -2.0]));
            // Every allowed score of row t moved by the same constant.
            let moved = b.k_bias.trace.scores.get(t, 0) - b.base.scores.get(t, 0);
            assert!((moved - b.k_row_shift[t]).abs() < 1e-12);
        }
    }
    assert!(bias_effect(&x, &w, &[1.0], &[1.0, 1.0], true, false).is_err());
    assert!(bias_effect(&x, &w, &[1.0, f64::NAN], &[1.0, 1.0], true, false).is_err());
}
