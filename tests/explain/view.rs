//! Other data sources (a GPT head in f32 buffers), the formula steps, the JSON shape.

use super::*;
use crate::common::Rng;

/// A GPT head's view from its q, k, v grids: no projections (a GPT's x and W are not
/// drawn beside its heads), nothing stored yet.
fn gpt_view<'a>([q, k, v]: [&'a dyn Grid; 3], mask: &'a Mask, scale: f64) -> HeadView<'a> {
    HeadView {
        q,
        k,
        v,
        mask,
        scale,
        projections: None,
        drawn: None,
    }
}

#[test]
fn a_gpt_head_in_f32_buffers_explains_itself_through_strided_views() {
    // qkv (T, 3C) with C = n_head · hs = 2 · 3; head 1 of a 4-token sequence.
    let mut rng = Rng::new(7);
    let (t_len, n_embd, hs, h) = (4, 6, 3, 1);
    let qkv: Vec<f32> = (0..t_len * 3 * n_embd)
        .map(|_| rng.uniform() as f32)
        .collect();
    let view_of =
        |block: usize| Strided::new(&qkv, block * n_embd + h * hs, t_len, hs, 3 * n_embd).unwrap();
    let (q, k, v) = (view_of(0), view_of(1), view_of(2));
    let mask = causal_mask(t_len, t_len);
    let scale = 1.0 / (hs as f64).sqrt();
    let view = gpt_view([&q, &k, &v], &mask, scale);
    let to_matrix = |g: &Strided<f32>| Matrix::from_fn(t_len, hs, |r, c| g.at(r, c));
    let trace = attention_playground::attention::attend(
        to_matrix(&q),
        to_matrix(&k),
        to_matrix(&v),
        &mask,
        scale,
    );
    let m = HashMap::from([
        ("q", &trace.q),
        ("k", &trace.k),
        ("v", &trace.v),
        ("scores", &trace.scores),
        ("masked_scores", &trace.masked_scores),
        ("weights", &trace.weights),
    ]);
    for (kind, drawn) in [
        (Kind::Score, &trace.scores),
        (Kind::MaskedScore, &trace.masked_scores),
        (Kind::Weight, &trace.weights),
        (Kind::Out, &trace.out),
    ] {
        for r in 0..drawn.rows {
            for c in 0..drawn.cols {
                check(
                    &explain_attention_cell(&view, Cell::new(kind, r, c), 2).unwrap(),
                    &m,
                    drawn.get(r, c),
                );
            }
        }
    }
}

/// With the stored matrices given (a GPT's f32 scores, weights and out), every
/// explanation ends on the stored number bit for bit, reads its operands from the
/// stored matrices, and its terms still make that number to f32 precision.
#[test]
fn a_view_with_its_drawn_matrices_ends_on_the_stored_numbers() {
    let mut rng = Rng::new(11);
    let (t_len, d) = (5, 3);
    let [q, k, v] = [0, 1, 2].map(|_| rng.matrix(t_len, d, 1.0));
    let mask = causal_mask(t_len, t_len);
    let scale = 1.0 / (d as f64).sqrt();
    let trace =
        attention_playground::attention::attend(q.clone(), k.clone(), v.clone(), &mask, scale);
    // What an f32 forward pass would have stored: the f64 numbers rounded to f32.
    let f32s = |m: &Matrix| m.data.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    let stored = [&trace.masked_scores, &trace.weights, &trace.out].map(f32s);
    let (masked_scores, weights, out) = (
        Strided::new(&stored[0], 0, t_len, t_len, t_len).unwrap(),
        Strided::new(&stored[1], 0, t_len, t_len, t_len).unwrap(),
        Strided::new(&stored[2], 0, t_len, d, d).unwrap(),
    );
    let view = HeadView {
        drawn: Some(Drawn {
            masked_scores: &masked_scores,
            weights: &weights,
            out: &out,
        }),
        ..gpt_view([&q, &k, &v], &mask, scale)
    };
    for (kind, g) in [
        (Kind::Score, &masked_scores),
        (Kind::MaskedScore, &masked_scores),
        (Kind::Weight, &weights),
        (Kind::Out, &out),
    ] {
        let (rows, cols) = g.shape();
        for r in 0..rows {
            for c in 0..cols {
                let e = explain_attention_cell(&view, Cell::new(kind, r, c), 2).unwrap();
                let what = format!("{}[{r}, {c}]", kind.name());
                if kind == Kind::Score && !mask.get(r, c) {
                    // A masked score is not stored: it is q·k/√d as computed here.
                    close(&what, e.value, trace.scores.get(r, c), 1e-12);
                    continue;
                }
                assert_eq!(e.value.to_bits(), g.at(r, c).to_bits(), "{what}");
                close(&what, recombine(&e), e.value, 1e-6);
                if kind == Kind::Out {
                    let Body::Dot(dot) = &e.body else {
                        panic!("{e:?}")
                    };
                    for t in &dot.terms {
                        assert_eq!(t.a, weights.at(r, t.a_src.col), "{what}: a stored weight");
                    }
                }
            }
        }
    }
    // A stored matrix of the wrong shape is refused.
    let bad = HeadView {
        drawn: Some(Drawn {
            masked_scores: &out,
            weights: &weights,
            out: &out,
        }),
        ..view
    };
    assert!(matches!(
        explain_attention_cell(&bad, Cell::new(Kind::Weight, 0, 0), 8),
        Err(ExplainError::Shape(_))
    ));
}

#[test]
fn formula_steps_name_their_term_and_matrix() {
    let (x, w, mask) = hou();
    for (causal, scaled) in [(true, false), (false, true)] {
        let mask = if causal {
            mask.clone()
        } else {
            Mask::none(3, 3)
        };
        let trace = head_forward(&x, &w, causal, scaled).unwrap();
        let steps = formula_steps(&trace, &mask);
        let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
        assert_eq!(names, ["qk", "scale", "mask", "softmax", "weighted_sum"]);
        for s in &steps {
            assert_eq!(FORMULA.matches(s.term).count(), 1, "{}", s.term);
            assert_eq!(&FORMULA[s.span.0..s.span.1], s.term);
        }
        let terms: Vec<&str> = steps.iter().map(|s| s.term).collect();
        assert_eq!(
            terms,
            [
                r"QK^\top",
                r"\sqrt{d_k}",
                r"\mathrm{mask}",
                r"\mathrm{softmax}",
                "V"
            ]
        );
        assert_eq!(steps[0].output.scale(trace.scale), trace.scores);
        assert_eq!(steps[0].output.get(2, 0), 4.0);
        assert_eq!(
            (steps[1].active, steps[1].factor),
            (scaled, Some(trace.scale))
        );
        assert_eq!(
            (steps[2].active, steps[2].masked_cells),
            (causal, Some(if causal { 3 } else { 0 }))
        );
        let produced: Vec<&Matrix> = steps[1..].iter().map(|s| &s.output).collect();
        assert_eq!(
            produced,
            [
                &trace.scores,
                &trace.masked_scores,
                &trace.weights,
                &trace.out
            ]
        );
        let fields: Vec<&str> = steps.iter().map(|s| s.produces).collect();
        assert_eq!(fields, ["qk", "scores", "masked_scores", "weights", "out"]);
    }
}

#[test]
fn explanations_serialise_flat_with_an_op_tag() {
    let e = explain_hou(false, Kind::Weight, 2, 0);
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(
        (v["kind"].as_str(), v["op"].as_str()),
        (Some("weights"), Some("softmax"))
    );
    assert_eq!(
        v["terms"][0]["src"],
        serde_json::json!({ "matrix": "masked_scores", "row": 2, "col": 0 })
    );
    assert!(v["rest"].is_null() && v["fraction"].is_null());
    let e = explain_hou(false, Kind::MaskedScore, 0, 2);
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(
        (v["op"].as_str(), v["reason"].as_str()),
        (Some("masked"), Some("future"))
    );
}
