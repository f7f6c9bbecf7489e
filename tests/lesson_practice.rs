//! LESSON §8: the exercises' numbers, the answer checker, quiz order.

use attention_playground::lesson::answers::{check_answer, parse_numbers, questions, quiz_order};
use attention_playground::lesson::practice::{shift_values, weighted_output, wrong_axis};

#[test]
fn ln2_scores_give_quarter_half_quarter_and_output_5() {
    let w = weighted_output(&[0.0, 2f64.ln(), 0.0], &[2.0, 4.0, 10.0]).unwrap();
    for (got, want) in w.weights.iter().zip([0.25, 0.5, 0.25]) {
        assert!((got - want).abs() < 1e-15);
    }
    assert!((w.output - 5.0).abs() < 1e-14);
    assert!(weighted_output(&[0.0, 1.0], &[1.0]).is_err());
    assert!(weighted_output(&[], &[]).is_err());
}

#[test]
fn softmax_on_the_wrong_axis_normalises_over_receivers() {
    let w = wrong_axis(3, 2, 5).unwrap();
    assert_eq!((w.scores.len(), w.right.len(), w.wrong.len()), (2, 2, 2));
    for b in 0..2 {
        assert!(w.right[b]
            .row_sums()
            .iter()
            .all(|s| (s - 1.0).abs() < 1e-12));
        assert!(w.wrong_col_sums[b].iter().all(|s| (s - 1.0).abs() < 1e-12));
        assert!(w.wrong_row_sums[b].iter().any(|s| (s - 1.0).abs() > 1e-3));
        // The mask still holds: nothing above the diagonal.
        assert_eq!(w.wrong[b].get(1, 4), 0.0);
    }
    assert!(w.max_err > 1e-3);
    // T = 1: both axes agree.
    assert_eq!(wrong_axis(0, 1, 1).unwrap().max_err, 0.0);
    assert!(wrong_axis(0, 5, 4).is_err());
}

#[test]
fn adding_c_to_every_value_adds_c_to_every_output() {
    for c in [-3.0, 0.5, 100.0] {
        let s = shift_values(1, 6, 4, c).unwrap();
        assert!(s.max_err < 1e-12, "{}", s.max_err);
    }
    assert!(shift_values(1, 6, 4, f64::NAN).is_err());
}

#[test]
fn typed_answers_are_judged_with_the_exact_value() {
    for text in [
        "1/4, 1/2, 1/4",
        "0.25 0.5 0.25",
        "[0.25, 0.50, 0.25]",
        "0,25; 0,5; 0,25",
        "1 / 4, 1/2 ,1/4",
    ] {
        let a = check_answer("weights_ln2", text).unwrap();
        assert!(a.correct, "{text}: {}", a.message);
    }
    let a = check_answer("weights_ln2", "0.3, 0.5, 0.2").unwrap();
    assert!(!a.correct);
    assert_eq!(a.wrong_positions, vec![0, 2]);
    assert!(a.message.contains("1/4, 1/2, 1/4"));
    let a = check_answer("weights_ln2", "0.25, 0.5").unwrap();
    assert!(!a.correct && a.message.contains("3 number"));
    assert!(check_answer("output_ln2", "5").unwrap().correct);
    assert!(!check_answer("output_ln2", "5.1").unwrap().correct);
    assert!(check_answer("shift_c", "8").unwrap().correct);
    assert!(
        check_answer("masked_softmax", "0.27, 0.01, 0.72, 0")
            .unwrap()
            .correct
    );
    assert!(check_answer("params_split", "4225").unwrap().correct);
    assert!(check_answer("initial_loss", "4,17").unwrap().correct);
    assert!(check_answer("initial_loss", "4.17").unwrap().correct);
    assert!(check_answer("std_512", "22").unwrap().correct);
    assert!(check_answer("var_dk_64", "64").unwrap().correct);
    assert!(check_answer("loop_iterations", "16384").unwrap().correct);
    let e = check_answer("output_ln2", "five").unwrap_err();
    assert!(e.0.contains("five"), "{e}");
    assert!(check_answer("output_ln2", "  ").is_err());
    assert!(check_answer("nope", "1")
        .unwrap_err()
        .0
        .contains("weights_ln2"));
    assert_eq!(questions().len(), 9);
    assert_eq!(parse_numbers("−1e-3 ; 2").unwrap(), vec![-1e-3, 2.0]);
}

#[test]
fn quiz_options_reshuffle_on_retake() {
    let first = quiz_order(4, 0).unwrap();
    assert_eq!(first, quiz_order(4, 0).unwrap(), "same attempt, same order");
    let mut sorted = first.clone();
    sorted.sort();
    assert_eq!(sorted, vec![0, 1, 2, 3]);
    assert!((1..6).any(|a| quiz_order(4, a).unwrap() != first));
    assert!(quiz_order(0, 0).is_err());
}
