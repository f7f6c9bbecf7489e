//! The lesson's other grids: the head probe (M, x M xᵀ, scores), normalising
//! (rows, columns, whole, the keepdim trap), the sinusoidal table, the
//! exercise's weights, the multi-head check's head 0, the wrong-axis softmax and
//! the future-change outputs. Every cell of every grid on the lesson defaults
//! and on random inputs: the value is the drawn number, the operands are the
//! numbers in the cells they name, and they recombine to the value (1e-12).

use super::*;
use crate::common::Rng;
use attention_playground::attention::attend;
use attention_playground::lesson::exercise::{exercise_run, MaskLine, ScoreLine, SoftmaxAxis};
use attention_playground::lesson::head_experiments::{compatibility, score_two_ways};
use attention_playground::lesson::ladder::{keepdim_trap, normalize_directions};
use attention_playground::lesson::multihead::{head_slice, multihead_check, multihead_inputs};
use attention_playground::lesson::position::sinusoidal;
use attention_playground::lesson::practice::wrong_axis;
use attention_playground::lesson::proofs::{future_change, future_inputs};

/// Every cell of `drawn`, explained by `explain`, checked against the drawn number.
fn every_cell(
    drawn: &Matrix,
    m: &HashMap<&str, &Matrix>,
    mut explain: impl FnMut(usize, usize) -> Explanation,
) {
    for r in 0..drawn.rows {
        for c in 0..drawn.cols {
            let e = explain(r, c);
            assert_eq!((e.row, e.col), (r, c));
            check(&e, m, drawn.get(r, c));
            extra_checks(&e, m);
        }
    }
}

/// Operand checks for the ops `check` does not know.
fn extra_checks(e: &Explanation, m: &HashMap<&str, &Matrix>) {
    let at = |s: &SourceCell| m[s.matrix].get(s.row, s.col);
    match &e.body {
        Body::Bilinear(b) => {
            assert_eq!(b.first.len(), b.then.terms.len());
            for (j, (first, then)) in b.first.iter().zip(&b.then.terms).enumerate() {
                for t in &first.terms {
                    assert_eq!((t.a, t.b), (at(&t.a_src), at(&t.b_src)));
                    assert_eq!((t.a_src.matrix, t.b_src.matrix), ("x", "M"));
                    assert_eq!((t.a_src.row, t.b_src.col), (e.row, j));
                }
                assert_eq!(then.a, first.sum, "x M entry {j} is its sum");
                assert_eq!((then.a_src.matrix, then.a_src.col), ("x M", j));
                assert_eq!((then.b, then.b_src.row), (at(&then.b_src), e.col));
            }
            assert_eq!(e.value, b.then.sum);
        }
        Body::Normalise(n) => {
            assert_eq!(n.numerator.value, at(&n.numerator.src));
            assert_eq!((n.numerator.src.row, n.numerator.src.col), (e.row, e.col));
            for a in &n.terms {
                assert_eq!(a.value, at(&a.src));
                match n.over {
                    Over::Row => assert_eq!(a.src.row, e.row),
                    Over::Column => assert_eq!(a.src.col, e.col),
                    Over::RowOfColumn => assert_eq!(a.src.row, e.col),
                    Over::All => {}
                }
            }
            close(
                "quotient",
                n.numerator.value / n.denominator,
                e.value,
                1e-12,
            );
        }
        Body::Softmax(s) => {
            for t in &s.terms {
                match s.axis {
                    Axis::Row => assert_eq!(t.src.row, e.row),
                    Axis::Column => assert_eq!(t.src.col, e.col),
                }
            }
        }
        _ => {}
    }
}

fn probe_case(x: &Matrix, w: &HeadWeights) {
    let r = score_two_ways(x, w, 0, 0).unwrap();
    let trace = head_forward(x, w, false, false).unwrap();
    let mut m = trace_matrices(&trace);
    m.extend([("x", x), ("W_q", &w.w_q), ("W_k", &w.w_k), ("M", &r.m)]);
    for (kind, drawn) in [
        (Kind::M, &r.m),
        (Kind::ViaM, &r.scores_m),
        (Kind::Score, &r.scores_qk),
    ] {
        every_cell(drawn, &m, |row, col| {
            let e = explain_compat(x, w, Cell::new(kind, row, col), DEFAULT_MAX_TERMS).unwrap();
            assert_eq!(e.kind, kind);
            e
        });
    }
}

#[test]
fn probe_m_and_x_m_x_on_the_lesson_head_and_random_heads() {
    let (x, w, _) = hou();
    probe_case(&x, &w);
    // score(u→h) = 4 both ways; M[c₂][c₀] = W_q[:, c₂] · W_k[:, c₀] over d.
    let e = explain_compat(&x, &w, Cell::new(Kind::ViaM, 2, 0), 8).unwrap();
    assert_eq!(e.value, 4.0);
    let m = compatibility(&w);
    let e = explain_compat(&x, &w, Cell::new(Kind::M, 2, 0), 8).unwrap();
    let Body::Dot(d) = &e.body else {
        panic!("{e:?}")
    };
    assert_eq!(d.terms.len(), w.w_q.rows);
    let want: Vec<(f64, f64)> = (0..w.w_q.rows)
        .map(|k| (w.w_q.get(k, 2), w.w_k.get(k, 0)))
        .collect();
    assert_eq!(d.terms.iter().map(|t| (t.a, t.b)).collect::<Vec<_>>(), want);
    assert_eq!(e.value, m.get(2, 0));
    assert!(
        e.sources.iter().any(|s| s.matrix == "W_q") && e.sources.iter().any(|s| s.matrix == "W_k")
    );

    let mut rng = Rng::new(5);
    for _ in 0..25 {
        let (t, c, d) = (1 + rng.below(6), 1 + rng.below(6), 1 + rng.below(5));
        let w = HeadWeights {
            w_q: rng.matrix(d, c, 3.0),
            w_k: rng.matrix(d, c, 3.0),
            w_v: rng.matrix(d, c, 3.0),
        };
        probe_case(&rng.matrix(t, c, 3.0), &w);
    }
}

#[test]
fn probe_errors_are_errors() {
    let (x, w, _) = hou();
    let ask = |kind, r, c| explain_compat(&x, &w, Cell::new(kind, r, c), 8);
    assert!(matches!(
        ask(Kind::M, 3, 0),
        Err(ExplainError::OutOfRange { .. })
    ));
    assert!(matches!(
        ask(Kind::ViaM, 0, 3),
        Err(ExplainError::OutOfRange { .. })
    ));
    assert!(matches!(
        ask(Kind::Pe, 0, 0),
        Err(ExplainError::NotHere { .. })
    ));
    assert!(matches!(
        ask(Kind::Weight, 0, 0),
        Err(ExplainError::NotHere { .. })
    ));
    let bad = HeadWeights {
        w_q: Matrix::zeros(2, 3),
        w_k: Matrix::zeros(3, 3),
        w_v: Matrix::zeros(2, 3),
    };
    assert!(explain_compat(&x, &bad, Cell::new(Kind::M, 0, 0), 8).is_err());
    // A lesson kind asked of a head is an error, not a panic.
    let e = try_explain_hou(false, Kind::M, 0, 0);
    assert!(matches!(e, Err(ExplainError::NotHere { .. })), "{e:?}");
    assert!(Kind::parse("M").is_err() && Kind::parse_any("M") == Ok(Kind::M));
    assert_eq!(Kind::parse_any("x M xᵀ"), Ok(Kind::ViaM));
}

fn normalize_case(a: &Matrix) {
    let d = normalize_directions(a).unwrap();
    let m = HashMap::from([("A", a)]);
    let ask = |kind, r, c| explain_normalize(a, Cell::new(kind, r, c), DEFAULT_MAX_TERMS);
    for (kind, drawn) in [
        (Kind::ByRows, &d.by_rows),
        (Kind::ByColumns, &d.by_columns),
        (Kind::Whole, &d.whole),
    ] {
        match drawn {
            Some(drawn) => every_cell(drawn, &m, |r, c| ask(kind, r, c).unwrap()),
            None => assert!(
                ask(kind, 0, 0).is_err(),
                "a grid not drawn is not explained"
            ),
        }
    }
    if a.rows == a.cols {
        match keepdim_trap(a) {
            Ok(k) => {
                every_cell(&k.right, &m, |r, c| ask(Kind::Right, r, c).unwrap());
                every_cell(&k.wrong, &m, |r, c| ask(Kind::Wrong, r, c).unwrap());
            }
            Err(_) => assert!(ask(Kind::Wrong, 0, 0).is_err()),
        }
    } else {
        assert!(ask(Kind::Wrong, 0, 0).is_err());
    }
}

#[test]
fn normalising_by_rows_columns_whole_and_the_keepdim_trap() {
    let a = Matrix::from_rows(&[
        vec![1.0, 1.0, 0.0],
        vec![2.0, 1.0, 1.0],
        vec![3.0, 3.0, 2.0],
    ])
    .unwrap();
    normalize_case(&a);
    // Row 2 by rows: 3 / (3 + 3 + 2) = 3/8; the trap divides A[2][0] by row 0's sum 2.
    let e = explain_normalize(&a, Cell::new(Kind::ByRows, 2, 0), 8).unwrap();
    assert_eq!(
        (e.value, e.fraction.map(|f| (f.num, f.den))),
        (0.375, Some((3, 8)))
    );
    let Body::Normalise(n) = &e.body else {
        panic!()
    };
    assert_eq!(
        (n.numerator.value, n.denominator, n.over),
        (3.0, 8.0, Over::Row)
    );
    let e = explain_normalize(&a, Cell::new(Kind::Wrong, 2, 0), 8).unwrap();
    let Body::Normalise(n) = &e.body else {
        panic!()
    };
    assert_eq!(
        (e.value, n.denominator, n.over),
        (1.5, 2.0, Over::RowOfColumn)
    );
    assert!(e.sources.contains(&SourceCell {
        matrix: "A",
        row: 2,
        col: 0
    }));
    let e = explain_normalize(&a, Cell::new(Kind::Whole, 0, 0), 4).unwrap();
    let Body::Normalise(n) = &e.body else {
        panic!()
    };
    assert_eq!(
        (n.terms.len(), n.rest.as_ref().map(|r| r.count)),
        (4, Some(5))
    );
    assert_eq!((n.denominator, e.sources.len()), (14.0, 9));

    let mut rng = Rng::new(9);
    for case in 0..30 {
        let (r, c) = (1 + rng.below(6), 1 + rng.below(6));
        let c = if case % 2 == 0 { r } else { c };
        let mut a = rng.matrix(r, c, 4.0);
        if case % 5 == 0 {
            a.set(0, 0, 0.0); // integers with zero sums now and then
            a = a.map(|v| v.round());
        }
        normalize_case(&a);
    }
}

#[test]
fn normalising_errors_are_errors() {
    let a = Matrix::from_rows(&[vec![1.0, -1.0], vec![2.0, 2.0]]).unwrap();
    let ask = |kind, r, c| explain_normalize(&a, Cell::new(kind, r, c), 8);
    assert!(matches!(
        ask(Kind::ByRows, 0, 0),
        Err(ExplainError::Shape(_))
    )); // row 0 sums to 0
    assert!(ask(Kind::ByColumns, 1, 1).is_ok());
    assert!(matches!(
        ask(Kind::ByColumns, 2, 0),
        Err(ExplainError::OutOfRange { .. })
    ));
    assert!(matches!(
        ask(Kind::Out, 0, 0),
        Err(ExplainError::NotHere { .. })
    ));
    let wide = Matrix::from_rows(&[vec![1.0, 2.0, 3.0]]).unwrap();
    assert!(explain_normalize(&wide, Cell::new(Kind::Wrong, 0, 0), 8).is_err());
    assert!(explain_normalize(&wide, Cell::new(Kind::Right, 0, 2), 8).is_ok());
}

#[test]
fn sinusoidal_table_every_cell() {
    let empty = HashMap::new();
    for (t, c) in [(12, 8), (1, 1), (64, 64), (5, 3), (16, 7)] {
        let drawn = sinusoidal(t, c).unwrap();
        every_cell(&drawn, &empty, |r, j| {
            let e = explain_sinusoid(t, c, Cell::new(Kind::Pe, r, j)).unwrap();
            let Body::Sinusoid(s) = &e.body else { panic!() };
            assert_eq!(
                (s.pos, s.two_i, s.pair, s.d, s.cos),
                (r, j - j % 2, j / 2, c, j % 2 == 1)
            );
            close("wavelength", s.wavelength, 10000f64.powf(s.exponent), 1e-12);
            close("angle", s.angle * s.wavelength, r as f64, 1e-12);
            assert!(e.sources.is_empty());
            e
        });
    }
    // PE[3][2] with C = 8: sin(3 / 10000^(2/8)) = sin(3 / 10) = sin(0.3).
    let e = explain_sinusoid(12, 8, Cell::new(Kind::Pe, 3, 2)).unwrap();
    let Body::Sinusoid(s) = &e.body else { panic!() };
    close("10", s.wavelength, 10.0, 1e-12);
    close("sin 0.3", e.value, 0.3f64.sin(), 1e-12);
    for (t, c, r, j) in [(0, 8, 0, 0), (12, 65, 0, 0), (12, 8, 12, 0), (12, 8, 0, 8)] {
        assert!(explain_sinusoid(t, c, Cell::new(Kind::Pe, r, j)).is_err());
    }
    assert!(matches!(
        explain_sinusoid(12, 8, Cell::new(Kind::Weight, 0, 0)),
        Err(ExplainError::NotHere { .. })
    ));
}

#[test]
fn exercise_weights_for_every_choice_of_blanks() {
    use MaskLine::*;
    use ScoreLine::*;
    use SoftmaxAxis::*;
    let mut nan_cells = 0;
    for score in [Scaled, Unscaled, DividedByDk] {
        for mask in [StrictUpper, Lower, None, Diagonal] {
            for axis in [Last, Receivers] {
                let run = exercise_run(score, mask, axis);
                let m = HashMap::from([("masked_scores", &run.masked_scores)]);
                every_cell(&run.weights, &m, |r, c| {
                    let e = explain_exercise(score, mask, axis, Cell::new(Kind::Weight, r, c), 8)
                        .unwrap();
                    if e.value.is_nan() {
                        nan_cells += 1;
                        assert!(matches!(
                            e.body,
                            Body::NoValue {
                                reason: NoValueReason::Nan
                            }
                        ));
                    }
                    e
                });
            }
        }
    }
    assert!(nan_cells > 0, "the lower mask leaves rows of −∞: NaN");
    let e = explain_exercise(Scaled, StrictUpper, Last, Cell::new(Kind::Weight, 1, 0), 8).unwrap();
    let Body::Softmax(s) = &e.body else { panic!() };
    let masked = s.terms.iter().filter(|t| t.masked).count();
    assert_eq!((s.axis, s.terms.len(), masked), (Axis::Row, 4, 2));
    let e = explain_exercise(
        Scaled,
        StrictUpper,
        Receivers,
        Cell::new(Kind::Weight, 1, 1),
        8,
    )
    .unwrap();
    let Body::Softmax(s) = &e.body else { panic!() };
    assert_eq!(s.axis, Axis::Column);
    for (kind, r, c) in [(Kind::Weight, 4, 0), (Kind::Out, 0, 0), (Kind::Q, 0, 0)] {
        assert!(explain_exercise(Scaled, StrictUpper, Last, Cell::new(kind, r, c), 8).is_err());
    }
}

#[test]
fn multihead_head0_weights() {
    for seed in 0..4u64 {
        for causal in [true, false] {
            let shape = [2, 4, 5, 16];
            let r = multihead_check(seed, shape, causal).unwrap();
            let (q, k, v) = multihead_inputs(seed, shape).unwrap();
            let mask = causal_or_none(causal, 5, 5);
            let t = attend(
                head_slice(&q, shape, 0, 0),
                head_slice(&k, shape, 0, 0),
                head_slice(&v, shape, 0, 0),
                &mask,
                0.25,
            );
            let m = trace_matrices(&t);
            for (kind, drawn) in [(Kind::Weight, &r.head0_weights), (Kind::Score, &t.scores)] {
                every_cell(drawn, &m, |row, col| {
                    explain_multihead(seed, shape, causal, Cell::new(kind, row, col), 8).unwrap()
                });
            }
        }
    }
    let shape = [2, 4, 5, 16];
    assert!(explain_multihead(0, shape, true, Cell::new(Kind::Weight, 5, 0), 8).is_err());
    assert!(explain_multihead(0, [9, 4, 5, 16], true, Cell::new(Kind::Weight, 0, 0), 8).is_err());
    assert!(explain_multihead(0, shape, true, Cell::new(Kind::Q, 0, 0), 8).is_err());
    assert!(explain_multihead(0, shape, true, Cell::new(Kind::M, 0, 0), 8).is_err());
}

#[test]
fn wrong_axis_right_and_wrong() {
    for (seed, b, t) in [(0u64, 1, 3), (3, 2, 5), (7, 4, 16)] {
        let w = wrong_axis(seed, b, t).unwrap();
        for batch in 0..b {
            let m = HashMap::from([("masked_scores", &w.scores[batch])]);
            for (axis, drawn) in [
                (Axis::Row, &w.right[batch]),
                (Axis::Column, &w.wrong[batch]),
            ] {
                every_cell(drawn, &m, |r, c| {
                    explain_wrong_axis(seed, b, t, batch, axis, Cell::new(Kind::Weight, r, c), 8)
                        .unwrap()
                });
            }
        }
    }
    // The last column has one key left after the mask: its wrong-axis weight is 1.
    let e = explain_wrong_axis(0, 1, 3, 0, Axis::Column, Cell::new(Kind::Weight, 2, 2), 8).unwrap();
    assert_eq!(e.value, 1.0);
    assert!(explain_wrong_axis(0, 1, 3, 1, Axis::Row, Cell::new(Kind::Weight, 0, 0), 8).is_err());
    assert!(explain_wrong_axis(0, 1, 3, 0, Axis::Row, Cell::new(Kind::Weight, 3, 0), 8).is_err());
    assert!(explain_wrong_axis(0, 1, 3, 0, Axis::Row, Cell::new(Kind::Out, 0, 0), 8).is_err());
    assert!(explain_wrong_axis(0, 5, 3, 0, Axis::Row, Cell::new(Kind::Weight, 0, 0), 8).is_err());
}

#[test]
fn future_change_outputs() {
    for (seed, t_len, d, from) in [(0u64, 4, 8, 2), (1, 4, 8, 1), (5, 6, 3, 5)] {
        let f = future_change(seed, t_len, d, from).unwrap();
        let [q, k, v, v2] = future_inputs(seed, t_len, d, from).unwrap();
        let grids = [
            (FutureGrid::MaskedBefore, &f.masked_before, &v, true),
            (FutureGrid::MaskedAfter, &f.masked_after, &v2, true),
            (FutureGrid::UnmaskedBefore, &f.unmasked_before, &v, false),
            (FutureGrid::UnmaskedAfter, &f.unmasked_after, &v2, false),
        ];
        for (grid, drawn, v, causal) in grids {
            let mask = causal_or_none(causal, t_len, t_len);
            let t = attend(
                q.clone(),
                k.clone(),
                v.clone(),
                &mask,
                1.0 / (d as f64).sqrt(),
            );
            let m = trace_matrices(&t);
            every_cell(drawn, &m, |r, c| {
                let cell = Cell::new(Kind::Out, r, c);
                explain_future_change(seed, t_len, d, from, grid, cell, 8).unwrap()
            });
        }
    }
    let ask = |from, kind, r| {
        explain_future_change(
            0,
            4,
            8,
            from,
            FutureGrid::MaskedAfter,
            Cell::new(kind, r, 0),
            8,
        )
    };
    assert!(ask(0, Kind::Out, 0).is_err());
    assert!(ask(2, Kind::Out, 4).is_err());
    assert!(ask(2, Kind::Pe, 0).is_err());
    assert!(FutureGrid::parse("before").is_err());
}
