//! The averaging ladder: schemes 1–3 agree everywhere, scheme 4 joins them
//! when the scores are all zero, and all give LESSON §2's numbers.

mod common;

use attention_playground::schemes::{
    content_average, loop_average, matrix_average, softmax_average,
};
use attention_playground::tensor::Matrix;
use common::{assert_close, Rng};

#[test]
fn schemes_1_to_3_agree_on_random_inputs() {
    let mut rng = Rng::new(7);
    for t in 1..=12 {
        for c in [1, 2, 3, 5, 8] {
            let x = rng.matrix(t, c, 10.0);
            let a = loop_average(&x);
            let b = matrix_average(&x);
            let s = softmax_average(&x);
            assert_close("matrix vs loop", &b.out, &a.out, 1e-12);
            assert_close("softmax vs loop", &s.out, &a.out, 1e-12);
            assert_close("weights 2 vs 1", &b.weights, &a.weights, 1e-12);
            assert_close("weights 3 vs 1", &s.weights, &a.weights, 1e-12);
        }
    }
}

#[test]
fn scheme_4_equals_them_when_w_q_or_w_k_is_zero() {
    let mut rng = Rng::new(11);
    for t in 1..=9 {
        let c = 1 + rng.below(6);
        let d = 1 + rng.below(4);
        let x = rng.matrix(t, c, 3.0);
        let w_v = Matrix::identity(c); // v = x, so outputs are comparable
        let reference = loop_average(&x);
        let zero = Matrix::zeros(d, c);
        let random = rng.matrix(d, c, 2.0);
        for (w_q, w_k) in [(&zero, &random), (&random, &zero)] {
            let r = content_average(&x, w_q, w_k, &w_v);
            assert_close("scheme 4 out", &r.out, &reference.out, 1e-12);
            assert_close("scheme 4 weights", &r.weights, &reference.weights, 1e-12);
        }
        // With both non-zero the weights depend on content and generally differ.
        let r = content_average(&x, &random, &rng.matrix(d, c, 2.0), &w_v);
        for s in r.weights.row_sums() {
            assert!((s - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn all_schemes_give_the_lesson_numbers() {
    let x = Matrix::from_rows(&[[2.0, 7.0], [6.0, 4.0], [6.0, 5.0]]).unwrap();
    let want = Matrix::from_rows(&[[2.0, 7.0], [4.0, 5.5], [4.67, 5.33]]).unwrap();
    let zero = Matrix::zeros(2, 2);
    for (name, r) in [
        ("loop", loop_average(&x)),
        ("matrix", matrix_average(&x)),
        ("softmax", softmax_average(&x)),
        (
            "q·k with W_q = 0",
            content_average(&x, &zero, &Matrix::identity(2), &Matrix::identity(2)),
        ),
    ] {
        let rounded = r.out.map(|v| (v * 100.0).round() / 100.0);
        assert_close(name, &rounded, &want, 1e-12);
        // The softmax of all-zero scores is 1/3 on the last row's three keys.
        let w = r.weights.map(|v| (v * 100.0).round() / 100.0);
        assert_eq!(w.row(2), &[0.33, 0.33, 0.33][..], "{name}");
    }
}
