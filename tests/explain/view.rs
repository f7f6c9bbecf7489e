//! Other data sources (a GPT head in f32 buffers), the formula steps, the JSON shape.

use super::*;
use crate::common::Rng;

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
    let view = HeadView {
        q: &q,
        k: &k,
        v: &v,
        mask: &mask,
        scale,
        projections: None,
    };
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
