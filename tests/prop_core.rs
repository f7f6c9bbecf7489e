//! Properties of the core that must hold for every input, not only the lesson's:
//! softmax rows are distributions (even at ±1e300), a causal head's output ignores the
//! future bit for bit, an unmasked head without positions is permutation-equivariant,
//! averaging schemes 1–3 agree, and `parse_number` never panics and reads back what
//! Rust formats.
//!
//! T = time, C = channels, d = head size.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use attention_playground::attention::{head_forward, HeadWeights};
use attention_playground::parse::parse_number;
use attention_playground::schemes::{loop_average, matrix_average, softmax_average};
use attention_playground::tensor::{softmax_row, softmax_rows, Matrix};
use proptest::prelude::*;

/// A (rows, cols) matrix with entries in `range`.
fn matrix(rows: usize, cols: usize, range: std::ops::Range<f64>) -> impl Strategy<Value = Matrix> {
    prop::collection::vec(range, rows * cols)
        .prop_map(move |data| Matrix::from_vec(rows, cols, data).expect("rows·cols entries"))
}

/// x (T, C) and a head (d, C) with T in 1..=8, C in 1..=5, d in 1..=4.
fn head_case() -> impl Strategy<Value = (Matrix, HeadWeights)> {
    (1usize..=8, 1usize..=5, 1usize..=4).prop_flat_map(|(t, c, d)| {
        (
            matrix(t, c, -3.0..3.0),
            matrix(d, c, -1.0..1.0),
            matrix(d, c, -1.0..1.0),
            matrix(d, c, -1.0..1.0),
        )
            .prop_map(|(x, w_q, w_k, w_v)| (x, HeadWeights { w_q, w_k, w_v }))
    })
}

/// Finite f64 from everywhere: ordinary sizes, ±1e300 and exact extremes.
fn score() -> impl Strategy<Value = f64> {
    prop_oneof![
        -10.0..10.0f64,
        -1e300..1e300f64,
        Just(1e300),
        Just(-1e300),
        Just(0.0),
        prop::num::f64::NORMAL,
    ]
}

fn bits(m: &Matrix) -> Vec<u64> {
    m.data.iter().map(|x| x.to_bits()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// softmax(x) ≥ 0 and Σ = 1 for any finite row, however large its entries.
    #[test]
    fn softmax_rows_are_distributions(x in prop::collection::vec(score(), 1..12)) {
        let p = softmax_row(&x).expect("a finite row has a denominator");
        prop_assert!(p.iter().all(|&w| (0.0..=1.0).contains(&w)), "{p:?}");
        let sum: f64 = p.iter().sum();
        prop_assert!((sum - 1.0).abs() <= 1e-12, "Σ = {sum} for {x:?}");
        // the largest entry gets the largest weight
        let (imax, _) = x.iter().enumerate().fold((0, f64::MIN), |a, (i, &v)| if v > a.1 { (i, v) } else { a });
        prop_assert!(p.iter().all(|&w| w <= p[imax]));
    }

    /// The same for every row of a matrix (−∞ cells get weight exactly 0).
    #[test]
    fn softmax_rows_of_masked_matrices(
        m in (1usize..6, 1usize..6).prop_flat_map(|(r, c)| matrix(r, c, -1e300..1e300)),
        hide in prop::collection::vec(any::<bool>(), 36),
    ) {
        let mut masked = m.clone();
        for (i, x) in masked.data.iter_mut().enumerate() {
            if hide[i] && i % masked.cols != 0 { // column 0 stays: no row fully masked
                *x = f64::NEG_INFINITY;
            }
        }
        let (p, bad) = softmax_rows(&masked);
        prop_assert!(bad.is_empty());
        for r in 0..p.rows {
            let sum: f64 = p.row(r).iter().sum();
            prop_assert!((sum - 1.0).abs() <= 1e-12, "row {r}: Σ = {sum}");
            for (w, x) in p.row(r).iter().zip(masked.row(r)) {
                prop_assert!(*w >= 0.0);
                if *x == f64::NEG_INFINITY {
                    prop_assert_eq!(*w, 0.0);
                }
            }
        }
    }

    /// Causal head: rewriting positions after t leaves rows 0..=t of every
    /// intermediate (q, scores, weights, out) bit-identical.
    #[test]
    fn causal_outputs_ignore_the_future(
        (x, w) in head_case(),
        cut in 0usize..8,
        noise in prop::collection::vec(-3.0..3.0f64, 40),
        scaled in any::<bool>(),
    ) {
        let t = cut % x.rows;
        let mut x2 = x.clone();
        for s in t + 1..x.rows {
            for c in 0..x.cols {
                x2.set(s, c, noise[(s * x.cols + c) % noise.len()]);
            }
        }
        let a = head_forward(&x, &w, true, scaled).unwrap();
        let b = head_forward(&x2, &w, true, scaled).unwrap();
        for (name, ma, mb) in [("out", &a.out, &b.out), ("weights", &a.weights, &b.weights), ("q", &a.q, &b.q)] {
            let n = (t + 1) * ma.cols;
            prop_assert_eq!(&bits(ma)[..n], &bits(mb)[..n], "{} rows 0..={}", name, t);
        }
    }

    /// Without a mask and without positions, permuting the inputs permutes the outputs:
    /// out(P x) = P out(x), to 1e-12.
    #[test]
    fn unmasked_head_is_permutation_equivariant(
        (x, w) in head_case(),
        keys in prop::collection::vec(any::<u32>(), 8),
        scaled in any::<bool>(),
    ) {
        let mut perm: Vec<usize> = (0..x.rows).collect();
        perm.sort_by_key(|&i| (keys[i], i));
        let px = Matrix::from_fn(x.rows, x.cols, |i, c| x.get(perm[i], c));
        let out = head_forward(&x, &w, false, scaled).unwrap().out;
        let pout = head_forward(&px, &w, false, scaled).unwrap().out;
        for i in 0..x.rows {
            for c in 0..out.cols {
                let (got, want) = (pout.get(i, c), out.get(perm[i], c));
                prop_assert!((got - want).abs() <= 1e-12, "row {i} col {c}: {got} vs {want} (perm {perm:?})");
            }
        }
    }

    /// The loop, the tril matrix and the masked softmax give the same weights and outputs.
    #[test]
    fn schemes_1_to_3_agree(
        x in (1usize..=10, 1usize..=4).prop_flat_map(|(t, c)| matrix(t, c, -100.0..100.0)),
    ) {
        let (l, m, s) = (loop_average(&x), matrix_average(&x), softmax_average(&x));
        for (name, other) in [("matrix", &m), ("softmax", &s)] {
            let dw = l.weights.max_abs_diff(&other.weights);
            let dout = l.out.max_abs_diff(&other.out);
            prop_assert!(dw <= 1e-15, "{name} weights differ by {dw}");
            prop_assert!(dout <= 1e-12, "{name} outputs differ by {dout}");
        }
    }

    /// Any text: a number within ±1e300 or an Err with a message, never a panic.
    #[test]
    fn parse_number_never_panics(text in ".{0,80}") {
        match parse_number(&text) {
            Ok(v) => prop_assert!(v.is_finite() && v.abs() <= 1e300, "{text:?} -> {v}"),
            Err(e) => {
                // The page translates by code and quotes `text()`: both must fit the message.
                prop_assert!(e.code().starts_with("number."));
                if let Some(t) = e.text() {
                    prop_assert!(e.to_string().contains(t), "{e} lacks {t:?}");
                }
            }
        }
    }

    /// Text made of number characters (the parser's interesting neighbourhood).
    #[test]
    fn parse_number_never_panics_on_numberish_text(text in "[ 0-9eE.,+/−–-]{0,70}") {
        if let Ok(v) = parse_number(&text) {
            prop_assert!(v.is_finite() && v.abs() <= 1e300, "{text:?} -> {v}");
        }
    }

    /// Every finite f64 within ±1e300 reads back bit for bit from Rust's shortest
    /// round-trip formats (`{:e}`, `{:?}`, and `{}` when it fits the 64-character cell),
    /// also with a Unicode minus and a decimal comma.
    #[test]
    fn parse_number_round_trips_formatted_floats(
        v in prop_oneof![prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO, -1e6..1e6f64]
            .prop_filter("within ±1e300", |v| v.abs() <= 1e300),
    ) {
        let mut texts = vec![format!("{v:e}"), format!("{v:?}")];
        let plain = format!("{v}");
        if plain.len() <= 64 {
            texts.push(plain);
        }
        for text in texts {
            for t in [text.clone(), text.replace('-', "−"), text.replace('.', ",")] {
                let got = parse_number(&t);
                prop_assert_eq!(got.map(f64::to_bits), Ok(v.to_bits()), "{:?} from {}", t, v);
            }
        }
    }
}
