//! LESSON §6: the lesson-1 exercise with NumPy's exact matrices, the three
//! blanks and their candidates, and batched multi-head attention.

mod common;

use attention_playground::lesson::exercise::{
    exercise_run, lesson1_expected, lesson1_inputs, MaskLine, ScoreLine, SoftmaxAxis,
};
use attention_playground::lesson::multihead::multihead_check;
use attention_playground::lesson::scaling::variance_experiment;
use attention_playground::tensor::Matrix;
use common::{assert_close, fixture, matrix};

fn bits(m: &Matrix) -> Vec<u64> {
    m.data.iter().map(|v| v.to_bits()).collect()
}

/// The numbers of top-level array `key` of `json`, parsed with Rust's correctly
/// rounded `str::parse` (serde_json's default float parser can be 1 ulp off).
fn exact_numbers(json: &str, key: &str) -> Vec<f64> {
    let start = json.find(&format!("\"{key}\":")).expect("key") + key.len() + 3;
    let (mut depth, mut token, mut out) = (0, String::new(), Vec::new());
    for c in json[start..].chars() {
        if c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E') {
            token.push(c);
            continue;
        }
        if !token.is_empty() {
            out.push(token.parse::<f64>().expect("number"));
            token.clear();
        }
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_embedded_matrices_are_the_fixture_bit_for_bit() {
    let text = include_str!("fixtures/lesson1.json");
    let (x, w_q, w_k, w_v) = lesson1_inputs();
    let (weights, out) = lesson1_expected();
    for (name, got, key) in [
        ("X", &x, "X"),
        ("W_q", &w_q, "W_q"),
        ("W_k", &w_k, "W_k"),
        ("W_v", &w_v, "W_v"),
        ("weights", &weights, "weights"),
        ("out", &out, "out"),
    ] {
        let want = exact_numbers(text, key);
        assert_eq!(
            bits(got),
            want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "{name}"
        );
    }
    assert_eq!((x.rows, x.cols, w_q.rows, w_q.cols), (4, 8, 8, 16));
}

#[test]
fn the_right_three_lines_reproduce_the_expected_output() {
    let f = fixture("lesson1.json");
    let r = exercise_run(ScoreLine::Scaled, MaskLine::StrictUpper, SoftmaxAxis::Last);
    assert!(
        r.matches_expected,
        "{} {}",
        r.weights_max_err, r.out_max_err
    );
    assert_close("Q", &r.q, &matrix(&f["Q"]), 1e-12);
    assert_close("K", &r.k, &matrix(&f["K"]), 1e-12);
    assert_close("V", &r.v, &matrix(&f["V"]), 1e-12);
    assert_close(
        "masked",
        &r.masked_scores,
        &matrix(&f["scores_masked"]),
        1e-12,
    );
    assert_close("out", &r.out, &matrix(&f["out"]), 1e-12);
    // Printed: row sums [1, 1, 1, 1] and the causal weights at 2 decimals.
    let sums: Vec<String> = r.row_sums.iter().map(|s| format!("{s:.3}")).collect();
    assert_eq!(sums, vec!["1.000"; 4]);
    let printed = matrix(&f["printed"]["causal_weights"]);
    let rounded = r.weights.map(|w| (w * 100.0).round() / 100.0);
    assert_eq!(rounded, printed);
    assert_eq!(
        printed.data,
        vec![
            1.0, 0.0, 0.0, 0.0, 0.23, 0.77, 0.0, 0.0, 0.19, 0.33, 0.49, 0.0, 0.16, 0.37, 0.21, 0.26
        ]
    );
    assert!(r.code[0].contains("np.sqrt(d_k)") && r.code[1].contains("k=1"));
}

#[test]
fn only_one_of_the_24_combinations_matches() {
    let mut matching = Vec::new();
    for score in ["scaled", "unscaled", "dk"] {
        for mask in ["upper", "lower", "none", "diagonal"] {
            for axis in ["last", "receivers"] {
                let r = exercise_run(
                    ScoreLine::parse(score).unwrap(),
                    MaskLine::parse(mask).unwrap(),
                    SoftmaxAxis::parse(axis).unwrap(),
                );
                assert_eq!((r.weights.rows, r.out.cols), (4, 16));
                if r.matches_expected {
                    matching.push((score, mask, axis));
                }
            }
        }
    }
    assert_eq!(matching, vec![("scaled", "upper", "last")]);
}

#[test]
fn wrong_candidates_show_their_symptom() {
    // Masking the past (tril) hides all of row 3 (and of column 0): NumPy gives NaN.
    let r = exercise_run(ScoreLine::Scaled, MaskLine::Lower, SoftmaxAxis::Last);
    assert!(r.has_nan && r.weights.row(3).iter().all(|w| w.is_nan()));
    assert!(r.weights.row(0)[1..].iter().all(|w| w.is_finite()));
    assert_eq!(r.out_max_err, f64::INFINITY);
    // Softmax over receivers: columns sum to 1, rows do not.
    let r = exercise_run(
        ScoreLine::Scaled,
        MaskLine::StrictUpper,
        SoftmaxAxis::Receivers,
    );
    assert!(r.col_sums.iter().all(|s| (s - 1.0).abs() < 1e-12));
    assert!(r.row_sums.iter().any(|s| (s - 1.0).abs() > 0.1));
    // No mask: row 0 reads the future.
    let r = exercise_run(ScoreLine::Scaled, MaskLine::None, SoftmaxAxis::Last);
    assert!(r.weights.get(0, 3) > 0.0);
    // Unscaled scores are sharper than scaled ones.
    let u = exercise_run(
        ScoreLine::Unscaled,
        MaskLine::StrictUpper,
        SoftmaxAxis::Last,
    );
    let d = exercise_run(
        ScoreLine::DividedByDk,
        MaskLine::StrictUpper,
        SoftmaxAxis::Last,
    );
    let max_row3 = |m: &Matrix| m.row(3).iter().copied().fold(0.0, f64::max);
    assert!(max_row3(&u.weights) > max_row3(&d.weights));
    assert!(ScoreLine::parse("sqrt").is_err());
    assert!(MaskLine::parse("upper ").is_err());
    assert_eq!(SoftmaxAxis::parse("-2").unwrap(), SoftmaxAxis::Receivers);
}

#[test]
fn the_variance_experiment_agrees_with_numpys_run() {
    // NumPy (10 000 samples): 16.3 → 1.02 at d_k = 16, 511.0 → 1.00 at d_k = 512.
    let f = fixture("lesson1.json");
    let rows = variance_experiment(1, &[16, 512], 10_000).unwrap();
    for r in rows {
        let want = &f["variance_experiment"][r.d.to_string()];
        let (vu, vs) = (
            want["var_unscaled"].as_f64().unwrap(),
            want["var_scaled"].as_f64().unwrap(),
        );
        assert!(
            (r.var_unscaled / vu - 1.0).abs() < 0.07,
            "d={} {}",
            r.d,
            r.var_unscaled
        );
        assert!(
            (r.var_scaled - vs).abs() < 0.07,
            "d={} {}",
            r.d,
            r.var_scaled
        );
    }
}

#[test]
fn batched_multi_head_matches_the_per_head_reference() {
    for (seed, causal) in [(0, true), (1, false), (2, true)] {
        let m = multihead_check(seed, [2, 4, 5, 16], causal).unwrap();
        assert_eq!(m.shape, [2, 4, 5, 16]);
        assert!(m.allclose && m.max_err <= 1e-6, "{}", m.max_err);
        assert_eq!((m.head0_weights.rows, m.head0_out.cols), (5, 16));
        if causal {
            assert_eq!(m.head0_weights.get(0, 4), 0.0);
        }
    }
    // Edge shapes: T = 1, d = 1, odd sizes.
    for shape in [[1, 1, 1, 1], [3, 2, 7, 5], [1, 8, 32, 64]] {
        assert!(multihead_check(3, shape, true).unwrap().max_err <= 1e-12);
    }
    assert!(multihead_check(0, [0, 4, 5, 16], true).is_err());
    assert!(multihead_check(0, [2, 4, 5, 65], true).is_err());
}
