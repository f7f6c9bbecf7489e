//! The results the wasm exports hand the page, from the real lesson functions, through
//! the tape as through serde_json (`check`), each matrix one run of numbers.

use super::check;
use crate::attention::{cross_forward, head_forward, hou_defaults, HeadTrace, HeadWeights};
use crate::explain::*;
use crate::lesson::exercise::*;
use crate::tensor::{causal_or_none, Mask, Matrix};

/// The h/o/u head, causal and unscaled: its tokens, x, weights, trace and mask.
fn hou() -> (Vec<String>, Matrix, HeadWeights, HeadTrace, Mask) {
    let (tokens, x, w) = hou_defaults();
    let trace = head_forward(&x, &w, true, false).unwrap();
    let mask = causal_or_none(true, x.rows, x.rows);
    (tokens, x, w, trace, mask)
}

#[test]
fn the_head_s_trace_state_and_explanations() {
    let (tokens, x, w, trace, mask) = hou();
    let mut non_finite = check(
        "trace view",
        &crate::lesson::clean_trace(trace.clone()).unwrap(),
    );
    let state = crate::lesson::HeadState {
        tokens: &tokens,
        x: &x,
        w_q: &w.w_q,
        w_k: &w.w_k,
        w_v: &w.w_v,
        causal: true,
        scaled: false,
    };
    check("HeadLab state", &state);
    let inputs = || HeadInputs {
        x_q: &x,
        x_kv: &x,
        w: &w,
        mask: &mask,
    };
    for kind in ["q", "k", "v", "scores", "masked_scores", "weights", "out"] {
        for (r, c) in [(0, 0), (0, 2), (2, 1), (1, 0)] {
            let cell = Cell::new(Kind::parse(kind).unwrap(), r, c);
            if let Ok(e) = explain_head(&trace, inputs(), cell, 2) {
                non_finite += check(kind, &e);
            }
        }
    }
    check("formula steps", &formula_steps(&trace, &mask));
    // Masked scores carry −∞ through the trace and the explanations.
    assert!(non_finite > 0, "no −∞ reached the tape");
}

#[test]
fn the_lesson_s_other_grids_explain_themselves() {
    let (_, x, w, _, mask) = hou();
    for kind in ["M", "x M xᵀ", "scores"] {
        let cell = Cell::new(Kind::parse_any(kind).unwrap(), 2, 0);
        check(kind, &explain_compat(&x, &w, cell, 8).unwrap());
    }
    let a = Matrix::from_vec(3, 3, vec![1., 1., 0., 2., 1., 1., 3., 3., 2.]).unwrap();
    for kind in ["by_rows", "by_columns", "whole", "right", "wrong"] {
        let cell = Cell::new(Kind::parse_any(kind).unwrap(), 2, 0);
        check(kind, &explain_normalize(&a, cell, 2).unwrap());
    }
    let pe = Cell::new(Kind::Pe, 3, 1);
    check("sinusoid", &explain_sinusoid(8, 4, pe).unwrap());
    for scheme in ["loop", "matrix", "softmax"] {
        for kind in ["weights", "out"] {
            let cell = Cell::new(Kind::parse(kind).unwrap(), 2, 0);
            let e = explain_scheme(Scheme::parse(scheme).unwrap(), &x, cell, 8).unwrap();
            check(scheme, &e);
        }
    }
    let weights = Cell::new(Kind::Weight, 1, 1);
    let (score, mask_line) = (ScoreLine::parse("dk").unwrap(), MaskLine::parse("upper"));
    let axis = SoftmaxAxis::parse("receivers").unwrap();
    let e = explain_exercise(score, mask_line.unwrap(), axis, weights, 8).unwrap();
    check("exercise explanation", &e);
    let e = explain_multihead(1, [1, 2, 3, 2], true, weights, 8).unwrap();
    check("multihead explanation", &e);
    for axis in [Axis::Row, Axis::Column] {
        let e = explain_wrong_axis(0, 2, 3, 0, axis, weights, 8).unwrap();
        check("wrong axis", &e);
    }
    for grid in ["masked_before", "unmasked_after"] {
        let grid = FutureGrid::parse(grid).unwrap();
        let out = Cell::new(Kind::Out, 1, 3);
        let e = explain_future_change(0, 4, 8, 2, grid, out, 8).unwrap();
        check("future", &e);
    }
    let cross = cross_forward(&x, &x, &w, &mask, true).unwrap();
    check("cross", &crate::lesson::clean_trace(cross).unwrap());
    let cell = Cell::new(Kind::Out, 1, 1);
    let e = explain_batch((1, 4, 3, 2), true, 1, cell, 8).unwrap();
    check("batch", &e);
}

/// §2 ladder, practice, answers, exercise.
#[test]
fn the_ladder_practice_answers_and_exercise() {
    use crate::lesson::answers::{check_answer, questions, quiz_order};
    use crate::lesson::ladder::*;
    use crate::lesson::multihead::multihead_check;
    use crate::lesson::practice::*;

    let a = Matrix::from_vec(3, 3, vec![1., 1., 0., 2., 1., 1., 3., 3., 2.]).unwrap();
    let x32 = Matrix::from_vec(3, 2, vec![2., 7., 6., 4., 6., 5.]).unwrap();
    check("ladder", &ladder(&x32).unwrap());
    check("by sum", &normalize_by_sum(&[2.0, -1.0, 3.0]).unwrap());
    check("zero sum", &normalize_by_sum(&[1.0, -1.0]).unwrap());
    let steps = masked_softmax_steps(&[2., -1., 3., 5.], &[true, true, true, false]);
    let mut non_finite = check("softmax steps", &steps.unwrap());
    check("directions", &normalize_directions(&a).unwrap());
    check("keepdim", &keepdim_trap(&a).unwrap());
    let weighted = weighted_output(&[0.0, 2f64.ln(), 0.0], &[2., 4., 10.]).unwrap();
    check("weighted", &weighted);
    check("wrong axis run", &wrong_axis(0, 2, 3).unwrap());
    check("shift", &shift_values(0, 3, 2, 1.5).unwrap());
    let qs = questions();
    check("questions", &qs);
    for q in &qs {
        check("answer", &check_answer(q.id, "1/3").unwrap());
    }
    check("quiz order", &quiz_order(5, 3).unwrap());
    for (s, m, a) in [("scaled", "upper", "last"), ("unscaled", "none", "-2")] {
        let run = exercise_run(
            ScoreLine::parse(s).unwrap(),
            MaskLine::parse(m).unwrap(),
            SoftmaxAxis::parse(a).unwrap(),
        );
        non_finite += check("exercise run", &run);
    }
    check("lesson 1", &(lesson1_inputs(), lesson1_expected()));
    let mh = multihead_check(1, [2, 2, 3, 2], true).unwrap();
    check("multihead", &mh);
    // Masked scores carry −∞ through the steps and the exercise.
    assert!(non_finite > 0, "no −∞ reached the tape");
}

/// §3–§4 head extras and position.
#[test]
fn the_head_s_extras_and_position() {
    use crate::lesson::content::compare_words;
    use crate::lesson::head_experiments::*;
    use crate::lesson::position::*;

    let (_, x, w, _, _) = hou();
    check("two ways", &score_two_ways(&x, &w, 2, 0).unwrap());
    let run = run_head(&x, &w, true, false).unwrap();
    check("output terms", &output_terms(&run, 2).unwrap());
    let words = compare_words("hou", "you", &w, true, false).unwrap();
    check("words", &words);
    let new_w_v = Matrix::from_vec(2, 3, vec![1., 0., 0., 0., 1., 1.]).unwrap();
    let change = value_change(&x, &w, &new_w_v, true, false).unwrap();
    check("value change", &change);
    let bias = bias_effect(&x, &w, &[1., 1.], &[1., -2.], true, false).unwrap();
    check("bias", &bias);
    for positions in [false, true] {
        let orders = compare_orders("dogs", "gods", positions, true).unwrap();
        check("orders", &orders);
        check("embed", &embed("dog", positions).unwrap());
    }
    check("sinusoidal", &sinusoidal(4, 4).unwrap());
    check("crop", &crop_context(10, 8));
}

/// The notes, the √d_k experiments, the proofs and the backward pass.
#[test]
fn the_notes_scaling_and_proofs() {
    use crate::lesson::backward::head_grads;
    use crate::lesson::notes::*;
    use crate::lesson::proofs::*;
    use crate::lesson::scaling::*;

    let (_, x, w, _, _) = hou();
    let batch = batch_independence(1, 4, 3, 2).unwrap();
    check("batch independence", &batch);
    check("norm", &norm_counterexample(1));
    check("encoder decoder", &encoder_decoder(&x, &w, false).unwrap());
    let non_finite = check("dk slider", &dk_slider(1, 4, true, true).unwrap());
    assert!(non_finite > 0, "the causal slider's masked scores are −∞");
    check("variance", &variance_experiment(1, &[1, 4], 20).unwrap());
    let sharp = softmax_sharpening(&[1., 2., 3.], &[0.5, 2.]).unwrap();
    check("sharpening", &sharp);
    check("avg max", &avg_max_weight(1, 4, 4, 2).unwrap());
    check("manual", &manual_vs_naive(1, 3, 2, true).unwrap());
    check("grad check", &grad_check(1, 3, 2, true).unwrap());
    check("future change", &future_change(1, 4, 3, 2).unwrap());
    let dout = Matrix::from_vec(3, 2, vec![1., 0., 0., 1., 1., 1.]).unwrap();
    check("backward", &head_grads(&x, &w, true, false, &dout).unwrap());
}

#[test]
fn the_bigram() {
    use crate::lesson::bigram::{param_counts, training_examples, Bigram};
    use crate::lesson::init_loss::initial_losses;

    let model = Bigram::from_corpus("hello world, hello there\nwho is there?").unwrap();
    let words = ["hello".to_string(), "the".to_string()];
    check("bigram compare", &model.compare(&words, 3).unwrap());
    check("initial losses", &initial_losses(&model, 4, 1).unwrap());
    check("params", &param_counts(65, 32).unwrap());
    check("examples", &training_examples("hello").unwrap());
}
