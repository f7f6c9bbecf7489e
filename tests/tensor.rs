//! The matrix type's own checks: matmul against matmul_t and the identity on sizes
//! 0..11, softmax on the lesson's example, fully masked rows and huge scores, masks.

use attention_playground::tensor::{causal_mask, softmax_row, softmax_rows, Mask, Matrix};

#[test]
fn matmul_sizes_0_to_11_match_matmul_t_and_identity() {
    for r in 0..12 {
        for k in 0..12 {
            let c = (r * 7 + k * 3) % 12;
            let a = Matrix::from_fn(r, k, |i, j| (i as f64) * 0.5 - (j as f64) * 1.25 + 1.0);
            let b = Matrix::from_fn(k, c, |i, j| ((i * 3 + j) % 5) as f64 - 2.0);
            let ab = a.matmul(&b);
            assert_eq!((ab.rows, ab.cols), (r, c));
            assert!(ab.is_finite());
            assert_eq!(a.matmul_t(&b.transpose()), ab, "r={r} k={k} c={c}");
            assert_eq!(a.matmul(&Matrix::identity(k)), a);
        }
    }
    // A hand-checked non-square product: (2,3) @ (3,1).
    let a = Matrix::from_rows(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
    let b = Matrix::from_rows(&[[1.0], [0.0], [-1.0]]).unwrap();
    assert_eq!(a.matmul(&b).data, vec![-2.0, -2.0]);
}

#[test]
fn softmax_masked_example_from_lesson() {
    // scores [2, −1, 3, 5] with position 3 in the future.
    let p = softmax_row(&[2.0, -1.0, 3.0, f64::NEG_INFINITY]).unwrap();
    let rounded: Vec<f64> = p.iter().map(|v| (v * 100.0).round() / 100.0).collect();
    assert_eq!(rounded, vec![0.27, 0.01, 0.72, 0.0]);
    assert_eq!(p[3], 0.0);
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
}

#[test]
fn softmax_of_all_masked_row_is_reported_not_nan() {
    assert_eq!(softmax_row(&[f64::NEG_INFINITY; 3]), None);
    let x = Matrix::from_rows(&[[1.0, 2.0], [f64::NEG_INFINITY, f64::NEG_INFINITY]]).unwrap();
    let (p, bad) = softmax_rows(&x);
    assert_eq!(bad, vec![1]);
    assert!(p.is_finite());
}

#[test]
fn softmax_survives_huge_scores() {
    let p = softmax_row(&[1e308, -1e308, 0.0]).unwrap();
    assert_eq!(p, vec![1.0, 0.0, 0.0]);
}

#[test]
fn causal_mask_shapes() {
    let m = causal_mask(2, 4);
    assert_eq!(
        m.allowed,
        vec![true, false, false, false, true, true, false, false]
    );
    assert!(causal_mask(3, 3).fully_masked_rows().is_empty());
    assert_eq!(
        Mask::from_fn(2, 2, |t, _| t == 0).fully_masked_rows(),
        vec![1]
    );
}

#[test]
fn ragged_rows_are_an_error() {
    let e = Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0]]).unwrap_err();
    assert!(e.to_string().contains("row 1"));
    assert!(Matrix::from_vec(2, 2, vec![1.0]).is_err());
}
