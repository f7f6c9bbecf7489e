//! LESSON §4: without positions and without a mask attention is
//! permutation-equivariant; position rows make dog and god differ.

mod common;

use attention_playground::attention::{head_forward, HeadWeights};
use attention_playground::lesson::position::{
    anagram_permutation, compare_orders, crop_context, embed, sinusoidal,
};
use attention_playground::tensor::Matrix;
use common::Rng;

fn round(v: &[f64], decimals: i32) -> Vec<f64> {
    let f = 10f64.powi(decimals);
    v.iter().map(|x| (x * f).round() / f).collect()
}

#[test]
fn dog_and_god_with_positions() {
    let dog = embed("dog", true).unwrap();
    assert_eq!(round(dog.row(0), 12), vec![1.1, 0.0]);
    assert_eq!(round(dog.row(2), 12), vec![2.3, 1.0]);
    let god = embed("god", true).unwrap();
    assert_eq!(round(god.row(0), 12), vec![2.1, 1.0]);
    assert_eq!(round(god.row(2), 12), vec![1.3, 0.0]);
    // The same d: [1.1, 0] at position 0, [1.3, 0] at position 2.
    assert_eq!(
        embed("dog", false).unwrap().row(0),
        embed("god", false).unwrap().row(2)
    );
    assert!(embed("cat", false).unwrap_err().0.contains("'c'"));
    assert!(embed("", false).is_err());
    assert!(embed("dogsdogsd", false).is_err());
}

#[test]
fn dogs_and_gods_last_position_sees_the_same_set() {
    for causal in [false, true] {
        let c = compare_orders("dogs", "gods", false, causal).unwrap();
        assert_eq!(c.permutation, Some(vec![2, 1, 0, 3]));
        assert!(c.last_row_max_diff < 1e-15, "{}", c.last_row_max_diff);
        let err = c.equivariance_max_err.unwrap();
        if causal {
            assert!(err > 1e-3, "the mask breaks equivariance");
        } else {
            assert!(err < 1e-15, "{err}");
        }
    }
    let c = compare_orders("dogs", "gods", true, false).unwrap();
    assert!(c.last_row_max_diff > 1e-3, "positions tell them apart");
    assert!(c.equivariance_max_err.unwrap() > 1e-3);
    assert_eq!(
        compare_orders("dog", "dogs", false, false)
            .unwrap()
            .permutation,
        None
    );
    assert_eq!(anagram_permutation("odd", "dod"), Some(vec![1, 0, 2]));
}

#[test]
fn permuting_the_input_permutes_the_output_without_mask() {
    let mut rng = Rng::new(12);
    for t in 1..=9 {
        let (c, d) = (1 + rng.below(5), 1 + rng.below(4));
        let w = HeadWeights {
            w_q: rng.matrix(d, c, 1.0),
            w_k: rng.matrix(d, c, 1.0),
            w_v: rng.matrix(d + 1, c, 1.0),
        };
        let x = rng.matrix(t, c, 2.0);
        let mut perm: Vec<usize> = (0..t).collect();
        for i in (1..t).rev() {
            perm.swap(i, rng.below(i + 1));
        }
        let px = Matrix::from_fn(t, c, |i, j| x.get(perm[i], j));
        let a = head_forward(&x, &w, false, true).unwrap();
        let b = head_forward(&px, &w, false, true).unwrap();
        let pa = Matrix::from_fn(t, d + 1, |i, j| a.out.get(perm[i], j));
        assert!(pa.max_abs_diff(&b.out) < 1e-13, "T={t}");
    }
}

#[test]
fn sinusoidal_table_and_cropping() {
    let pe = sinusoidal(4, 6).unwrap();
    assert_eq!(pe.row(0), &[0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);
    assert!((pe.get(1, 0) - 1f64.sin()).abs() < 1e-15);
    assert!((pe.get(2, 3) - (2.0 / 10000f64.powf(2.0 / 6.0)).cos()).abs() < 1e-15);
    assert!(sinusoidal(4, 7).unwrap().is_finite());
    assert!(sinusoidal(0, 6).is_err());
    let c = crop_context(10, 8);
    assert_eq!((c.start, c.kept, c.dropped), (2, 8, 2));
    assert_eq!(crop_context(3, 8).start, 0);
}
