//! The core against NumPy's float64 numbers (tests/fixtures/, made by the
//! course's NumPy scripts; each JSON file carries its own description).

mod common;

use attention_playground::attention::{head_forward, hou_defaults, HeadWeights};
use common::{assert_close, fixture, matrix};

#[test]
fn hou_head_matches_numpy_unscaled_and_scaled() {
    let f = fixture("hou.json");
    let (tokens, x, w) = hou_defaults();
    assert_eq!(tokens, vec!["h", "o", "u"]);
    assert_close("x", &x, &matrix(&f["x"]), 0.0);
    assert_close("W_q", &w.w_q, &matrix(&f["W_q"]), 0.0);
    assert_close("W_k", &w.w_k, &matrix(&f["W_k"]), 0.0);
    assert_close("W_v", &w.w_v, &matrix(&f["W_v"]), 0.0);
    for (key, scaled) in [("unscaled", false), ("scaled", true)] {
        let t = head_forward(&x, &w, true, scaled).unwrap();
        let e = &f[key];
        assert_close("q", &t.q, &matrix(&f["q"]), 1e-12);
        assert_close("k", &t.k, &matrix(&f["k"]), 1e-12);
        assert_close("v", &t.v, &matrix(&f["v"]), 1e-12);
        assert!(
            (t.scale - e["scale"].as_f64().unwrap()).abs() < 1e-12,
            "{key} scale"
        );
        assert_close(key, &t.scores, &matrix(&e["scores_full"]), 1e-6);
        assert_close(key, &t.masked_scores, &matrix(&e["scores_masked"]), 1e-6);
        assert_close(
            key,
            &t.weights,
            &matrix(&e["weights_full_precision"]),
            1e-12,
        );
        assert_close(key, &t.out, &matrix(&e["out_full_precision"]), 1e-12);
        assert!(t.is_clean());
    }
}

#[test]
fn hou_head_gives_the_lesson_numbers_at_printed_rounding() {
    let (_, x, w) = hou_defaults();
    let t = head_forward(&x, &w, true, false).unwrap();
    assert_eq!(t.scores.get(2, 0), 4.0, "u→h");
    assert_eq!(t.scores.get(0, 2), 1.0, "h→u (before the mask)");
    let r2 = |v: f64| (v * 100.0).round() / 100.0;
    let u: Vec<f64> = t.weights.row(2).iter().map(|&v| r2(v)).collect();
    assert_eq!(u, vec![0.80, 0.02, 0.18]);
    assert_eq!((r2(t.out.get(2, 0)), r2(t.out.get(2, 1))), (8.87, 1.13));
    // M = W_q W_kᵀ gives the same score: x_u M x_hᵀ = 4.0.
    let m = w.w_q.transpose().matmul(&w.w_k); // (C, d) @ (d, C) -> (C, C)
    assert_eq!(m.get(2, 0), 4.0);
    assert_eq!(m.get(0, 2), 1.0);
}

#[test]
fn lesson1_exercise_matches_numpy() {
    let f = fixture("lesson1.json");
    // The exercise stores W as (d_model, d) with Q = X @ W; nn.Linear layout is Wᵀ.
    let x = matrix(&f["X"]);
    let w = HeadWeights {
        w_q: matrix(&f["W_q"]).transpose(),
        w_k: matrix(&f["W_k"]).transpose(),
        w_v: matrix(&f["W_v"]).transpose(),
    };
    let t = head_forward(&x, &w, true, true).unwrap();
    assert_close("Q", &t.q, &matrix(&f["Q"]), 1e-12);
    assert_close("K", &t.k, &matrix(&f["K"]), 1e-12);
    assert_close("V", &t.v, &matrix(&f["V"]), 1e-12);
    assert_close(
        "scores_masked",
        &t.masked_scores,
        &matrix(&f["scores_masked"]),
        1e-12,
    );
    assert_close("weights", &t.weights, &matrix(&f["weights"]), 1e-12);
    assert_close("out", &t.out, &matrix(&f["out"]), 1e-12);
    for s in t.weights.row_sums() {
        assert!((s - 1.0).abs() < 1e-12);
    }
    let printed = matrix(&f["printed"]["causal_weights"]);
    let rounded = t.weights.map(|v| (v * 100.0).round() / 100.0);
    assert_close("printed causal weights", &rounded, &printed, 1e-12);
}
