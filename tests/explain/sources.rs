//! Sources a widget does not draw are named (`elsewhere`), and a widget drawing several
//! grids of one kind gets each cell titled by its grid (`grid`).

use super::*;
use attention_playground::lesson::exercise::{MaskLine, ScoreLine, SoftmaxAxis};

/// The matrices of `e`'s sources, once each, in order.
fn source_matrices(e: &Explanation) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for s in &e.sources {
        if !names.contains(&s.matrix) {
            names.push(s.matrix);
        }
    }
    names
}

fn named(e: &Explanation) -> Vec<(&'static str, &'static str)> {
    e.elsewhere.iter().map(|x| (x.matrix, x.what)).collect()
}

#[test]
fn the_probe_names_the_heads_matrices_it_does_not_draw() {
    let (x, w, _) = hou();
    let m = explain_compat(&x, &w, Cell::new(Kind::M, 1, 2), 8).unwrap();
    assert_eq!(source_matrices(&m), ["W_q", "W_k"]);
    assert_eq!(
        named(&m),
        [("W_q", "head_weights"), ("W_k", "head_weights")]
    );
    let via = explain_compat(&x, &w, Cell::new(Kind::ViaM, 2, 0), 8).unwrap();
    assert_eq!(source_matrices(&via), ["x", "M"]);
    assert_eq!(named(&via), [("x", "head_input")], "M is drawn beside it");
    let s = explain_compat(&x, &w, Cell::new(Kind::Score, 2, 0), 8).unwrap();
    assert_eq!(source_matrices(&s), ["q", "k"]);
    assert_eq!(named(&s), [("q", "head_q"), ("k", "head_k")]);
    assert!([&m, &via, &s].iter().all(|e| e.grid.is_none()));
}

#[test]
fn the_exercise_and_practice_name_their_scores() {
    let e = explain_exercise(
        ScoreLine::Scaled,
        MaskLine::StrictUpper,
        SoftmaxAxis::Last,
        Cell::new(Kind::Weight, 2, 1),
        8,
    )
    .unwrap();
    assert_eq!(source_matrices(&e), ["masked_scores"]);
    assert_eq!(named(&e), [("masked_scores", "exercise_scores")]);
    for axis in [Axis::Row, Axis::Column] {
        let e = explain_wrong_axis(0, 2, 3, 0, axis, Cell::new(Kind::Weight, 1, 1), 8).unwrap();
        assert_eq!(named(&e), [("masked_scores", "practice_scores")]);
    }
}

#[test]
fn each_future_change_grid_has_its_own_title_and_names_its_weights_and_v() {
    let grids = [
        (
            FutureGrid::MaskedBefore,
            "proof_weights_masked",
            "proof_v_before",
        ),
        (
            FutureGrid::MaskedAfter,
            "proof_weights_masked",
            "proof_v_after",
        ),
        (
            FutureGrid::UnmaskedBefore,
            "proof_weights_unmasked",
            "proof_v_before",
        ),
        (
            FutureGrid::UnmaskedAfter,
            "proof_weights_unmasked",
            "proof_v_after",
        ),
    ];
    let mut titles = Vec::new();
    for (grid, weights, v) in grids {
        let e = explain_future_change(0, 4, 8, 2, grid, Cell::new(Kind::Out, 1, 3), 8).unwrap();
        assert_eq!(e.kind, Kind::Out);
        assert_eq!(FutureGrid::parse(e.grid.unwrap()).unwrap(), grid);
        assert_eq!(source_matrices(&e), ["weights", "v"]);
        assert_eq!(named(&e), [("weights", weights), ("v", v)]);
        titles.push(e.grid.unwrap());
    }
    assert_eq!(
        titles,
        [
            "masked_before",
            "masked_after",
            "unmasked_before",
            "unmasked_after"
        ]
    );
}

#[test]
fn explanations_carry_grid_and_elsewhere_to_the_page() {
    let e = explain_future_change(
        0,
        4,
        8,
        2,
        FutureGrid::MaskedAfter,
        Cell::new(Kind::Out, 1, 3),
        8,
    )
    .unwrap();
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["grid"], "masked_after");
    assert_eq!(
        v["elsewhere"],
        serde_json::json!([
            { "matrix": "weights", "what": "proof_weights_masked" },
            { "matrix": "v", "what": "proof_v_after" }
        ])
    );
    let v = serde_json::to_value(explain_hou(false, Kind::Weight, 2, 0)).unwrap();
    assert!(v["grid"].is_null());
    assert_eq!(v["elsewhere"], serde_json::json!([]));
}
