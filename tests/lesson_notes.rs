//! LESSON §5: the graph, batch independence (BatchNorm as the
//! counterexample), encoder vs decoder, and the √d_k scale measured.

mod common;

use attention_playground::attention::{head_forward, hou_defaults, HeadWeights};
use attention_playground::explain::{explain_batch, Body, Cell, Kind};
use attention_playground::lesson::notes::{
    batch_independence, batched_head, encoder_decoder, norm_counterexample,
};
use attention_playground::lesson::scaling::{
    avg_max_weight, dk_slider, softmax_sharpening, variance_experiment,
};
use common::Rng;

fn round(v: &[f64], decimals: i32) -> Vec<f64> {
    let f = 10f64.powi(decimals);
    v.iter().map(|x| (x * f).round() / f).collect()
}

#[test]
fn replacing_sequence_1_leaves_sequence_0_bit_identical() {
    for seed in 0..5 {
        for (t, c, d) in [(1, 1, 1), (8, 4, 2), (5, 16, 16)] {
            let b = batch_independence(seed, t, c, d).unwrap();
            assert_eq!(b.seq0_max_change, 0.0);
            assert!(b.seq0_bit_identical);
            assert!(b.seq1_max_change > 0.0);
            assert_eq!(b.x_before[0], b.x_after[0]);
        }
    }
    assert!(batch_independence(0, 17, 2, 2).is_err());
}

/// Note 3's explanations: a cell of sequence 0 explains itself from sequence 0's
/// rows only, so redrawing sequence 1 leaves its whole explanation unchanged,
/// and the terms recombine to the drawn number.
#[test]
fn a_batch_cell_explains_itself_from_its_own_sequence() {
    let shape = (3, 4, 4, 4);
    let b = batch_independence(3, 4, 4, 4).unwrap();
    for (kind, drawn) in [
        (Kind::Out, &b.before[0].out),
        (Kind::Weight, &b.before[0].weights),
    ] {
        for t in 0..4 {
            for j in 0..4 {
                let cell = Cell::new(kind, t, j);
                let before = explain_batch(shape, false, 0, cell, 8).unwrap();
                let after = explain_batch(shape, true, 0, cell, 8).unwrap();
                assert_eq!(before, after, "{kind:?}[{t}][{j}]");
                assert_eq!(before.value.to_bits(), drawn.get(t, j).to_bits());
                match &before.body {
                    Body::Dot(d) => {
                        let sum: f64 = d.terms.iter().map(|x| x.a * x.b).sum();
                        assert!((sum - before.value).abs() < 1e-12);
                        assert!(d
                            .terms
                            .iter()
                            .all(|x| x.a_src.row == t && x.a_src.matrix == "weights"));
                    }
                    Body::Softmax(s) => {
                        assert!((s.numerator / s.denominator - before.value).abs() < 1e-12);
                        assert_eq!(s.target_masked, j > t); // the future gets weight 0
                    }
                    other => panic!("{kind:?}[{t}][{j}]: {other:?}"),
                }
            }
        }
    }
    // Sequence 1 was redrawn: its explanation changes with it.
    let cell = Cell::new(Kind::Out, 3, 0);
    let (one_before, one_after) = (
        explain_batch(shape, false, 1, cell, 8).unwrap(),
        explain_batch(shape, true, 1, cell, 8).unwrap(),
    );
    assert_eq!(
        one_before.value.to_bits(),
        b.before[1].out.get(3, 0).to_bits()
    );
    assert_eq!(
        one_after.value.to_bits(),
        b.after[1].out.get(3, 0).to_bits()
    );
    assert_ne!(one_before, one_after);
    let q = explain_batch(shape, false, 0, Cell::new(Kind::Q, 2, 1), 8).unwrap();
    assert_eq!(q.value.to_bits(), b.before[0].q.get(2, 1).to_bits());
    let err = explain_batch(shape, false, 2, cell, 8).unwrap_err();
    assert!(err.0.contains("sequence 2"), "{err}");
    assert!(explain_batch(shape, false, 0, Cell::new(Kind::Out, 4, 0), 8).is_err());
    assert!(explain_batch((0, 17, 2, 2), false, 0, cell, 8).is_err());
}

#[test]
fn the_batched_projections_equal_the_per_sequence_head() {
    let mut rng = Rng::new(21);
    let w = HeadWeights {
        w_q: rng.matrix(3, 4, 1.0),
        w_k: rng.matrix(3, 4, 1.0),
        w_v: rng.matrix(2, 4, 1.0),
    };
    let xs: Vec<_> = (0..3).map(|_| rng.matrix(6, 4, 1.0)).collect();
    for (b, trace) in batched_head(&xs, &w, true, true).into_iter().enumerate() {
        assert_eq!(trace, head_forward(&xs[b], &w, true, true).unwrap());
    }
}

#[test]
fn batchnorm_couples_samples_layernorm_does_not() {
    for seed in 0..5 {
        let n = norm_counterexample(seed);
        assert!(n.batchnorm_max_diff > 1e-3, "seed {seed}");
        assert_eq!(n.layernorm_max_diff, 0.0);
        assert_eq!(n.batches[0].row(0), n.sample.as_slice());
        assert_eq!(n.batches[1].row(0), n.sample.as_slice());
    }
}

#[test]
fn encoder_and_decoder_differ_by_the_mask_only() {
    let (_, x, w) = hou_defaults();
    let e = encoder_decoder(&x, &w, false).unwrap();
    assert_eq!(e.decoder_edges.len(), 6);
    assert_eq!(e.encoder_edges.len(), 9);
    assert_eq!(e.decoder.scores, e.encoder.scores);
    assert_eq!(e.decoder.weights.get(0, 2), 0.0);
    assert!(e.encoder.weights.get(0, 2) > 0.0);
    let edge = &e.decoder_edges[5];
    assert_eq!((edge.from, edge.to), (2, 2));
    assert_eq!(edge.weight, e.decoder.weights.get(2, 2));
}

#[test]
fn softmax_sharpens_when_scores_grow() {
    let s = softmax_sharpening(&[0.1, -0.2, 0.3, -0.2, 0.5], &[1.0, 4.0, 8.0]).unwrap();
    assert_eq!(round(&s[0].weights, 2), vec![0.19, 0.14, 0.24, 0.14, 0.29]);
    assert_eq!(round(&s[1].weights, 2), vec![0.11, 0.03, 0.25, 0.03, 0.56]);
    assert_eq!(round(&s[2].weights, 2), vec![0.03, 0.00, 0.16, 0.00, 0.80]);
    assert!(s[0].max_weight < s[1].max_weight && s[1].max_weight < s[2].max_weight);
    assert!(softmax_sharpening(&[], &[1.0]).is_err());
    assert!(softmax_sharpening(&[1e308, 0.0], &[10.0]).is_err());
}

#[test]
fn var_q_dot_k_is_d_and_scaling_brings_it_to_1() {
    // The lesson's pure-Python run (20 000 samples each): 3.91, 15.98, 63.76, 258.20
    // and 0.978, 0.999, 0.996, 1.009. Our seeded draws land within sampling error
    // (relative sd √(2/n) ≈ 1 %), so we compare at 5 %.
    let rows = variance_experiment(0, &[4, 16, 64, 256, 512], 20_000).unwrap();
    let lesson = [3.91, 15.98, 63.76, 258.20];
    for (r, l) in rows.iter().zip(lesson) {
        assert!(
            (r.var_unscaled / l - 1.0).abs() < 0.05,
            "d={} {}",
            r.d,
            r.var_unscaled
        );
    }
    for r in &rows {
        let d = r.d as f64;
        assert!(
            (r.var_unscaled / d - 1.0).abs() < 0.05,
            "d={} {}",
            r.d,
            r.var_unscaled
        );
        assert!(
            (r.var_scaled - 1.0).abs() < 0.05,
            "d={} {}",
            r.d,
            r.var_scaled
        );
        assert!((r.var_scaled - r.var_unscaled / d).abs() < 1e-9);
    }
    // "With d_k = 512 the unscaled score std is about 22."
    assert!(
        (21.5..23.5).contains(&rows[4].std_unscaled),
        "{}",
        rows[4].std_unscaled
    );
    // Adding a dimension changes no other row.
    let again = variance_experiment(0, &[16], 20_000).unwrap();
    assert_eq!(again[0], rows[1]);
    assert!(
        variance_experiment(0, &[512], 100_000).is_err(),
        "too much work"
    );
    assert!(variance_experiment(0, &[], 100).is_err());
    assert!(variance_experiment(0, &[4], 1).is_err());
}

#[test]
fn average_max_weight_unscaled_and_scaled() {
    // The lesson's NumPy run: 0.958 unscaled, 0.365 scaled (1000 rows, 8 keys, d = 512).
    let m = avg_max_weight(0, 1000, 8, 512).unwrap();
    assert!((m.unscaled - 0.958).abs() < 0.02, "{}", m.unscaled);
    assert!((m.scaled - 0.365).abs() < 0.02, "{}", m.scaled);
    assert!(avg_max_weight(0, 0, 8, 512).is_err());
}

#[test]
fn the_dk_slider_sharpens_unscaled_and_stays_flat_scaled() {
    let small = dk_slider(7, 4, false, false).unwrap();
    let big = dk_slider(7, 512, false, false).unwrap();
    let big_scaled = dk_slider(7, 512, true, false).unwrap();
    assert!(big.mean_max_weight > 0.9, "{}", big.mean_max_weight);
    assert!(big_scaled.mean_max_weight < big.mean_max_weight);
    assert!(big.score_std > 10.0 && big_scaled.score_std < 3.0);
    // The first d_k dimensions: d_k = 4 is a prefix of d_k = 512.
    assert_eq!(small.q.row(2), &big.q.row(2)[..4]);
    for d_k in [1, 2, 16, 100, 512] {
        for (scaled, causal) in [(false, false), (true, true)] {
            let s = dk_slider(7, d_k, scaled, causal).unwrap();
            assert_eq!((s.weights.rows, s.weights.cols), (6, 6));
            assert!(s.row_sums.iter().all(|r| (r - 1.0).abs() < 1e-12));
            if causal {
                assert_eq!(s.weights.get(0, 5), 0.0);
                assert_eq!(s.masked_scores.get(2, 3), f64::NEG_INFINITY);
            }
        }
    }
    assert_eq!(
        dk_slider(7, 64, true, true).unwrap(),
        dk_slider(7, 64, true, true).unwrap()
    );
    assert!(dk_slider(7, 0, true, true).is_err());
    assert!(dk_slider(7, 513, true, true).is_err());
}
