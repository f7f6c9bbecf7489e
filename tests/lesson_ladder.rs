//! LESSON §2: all-ones and lower-triangular matrices, arbitrary scores, the
//! masked softmax stage by stage, the direction of normalisation, keepdim.

use attention_playground::lesson::ladder::{
    keepdim_trap, ladder, loop_iterations, masked_softmax_steps, normalize_by_sum,
    normalize_directions,
};
use attention_playground::schemes::lower_triangular_ones;
use attention_playground::tensor::Matrix;

fn round(v: &[f64], decimals: i32) -> Vec<f64> {
    let f = 10f64.powi(decimals);
    v.iter().map(|x| (x * f).round() / f).collect()
}

fn hou() -> Matrix {
    Matrix::from_rows(&[[2.0, 7.0], [6.0, 4.0], [6.0, 5.0]]).unwrap()
}

#[test]
fn the_ladder_gives_the_lessons_numbers() {
    let l = ladder(&hou()).unwrap();
    assert_eq!(
        round(&l.loop_average.out.data, 2),
        vec![2.0, 7.0, 4.0, 5.5, 4.67, 5.33]
    );
    assert_eq!(
        l.all_ones.out.data,
        vec![14.0, 16.0, 14.0, 16.0, 14.0, 16.0]
    );
    assert_eq!(l.tril_sums.out.data, vec![2.0, 7.0, 8.0, 11.0, 14.0, 16.0]);
    assert_eq!(l.tril_sums.weights, lower_triangular_ones(3));
    assert_eq!(
        round(&l.matrix_average.out.data, 2),
        round(&l.loop_average.out.data, 2)
    );
    // Values up to 16: a few ulps of 5 (the 2.22e-16 claim is for the data set below).
    assert!(
        l.max_err_matrix_vs_loop <= 1e-15,
        "{}",
        l.max_err_matrix_vs_loop
    );
    assert!(l.max_err_softmax_vs_loop <= 1e-15);
    assert_eq!(loop_iterations(64, 256), 16_384);
}

#[test]
fn second_data_set_agrees_to_2_22e_16() {
    let x = Matrix::from_rows(&[[2.0, 0.0], [0.0, 4.0], [4.0, 2.0]]).unwrap();
    let l = ladder(&x).unwrap();
    assert_eq!(
        round(&l.loop_average.out.data, 12),
        vec![2.0, 0.0, 1.0, 2.0, 2.0, 2.0]
    );
    assert!(
        l.max_err_matrix_vs_loop <= 2.23e-16,
        "{}",
        l.max_err_matrix_vs_loop
    );
    assert!(ladder(&Matrix::zeros(0, 2)).is_err());
    assert!(ladder(&Matrix::filled(65, 1, 1.0)).is_err());
    assert!(ladder(&Matrix::filled(2, 2, f64::NAN)).is_err());
}

#[test]
fn arbitrary_scores_give_a_negative_weight_or_divide_by_zero() {
    let n = normalize_by_sum(&[2.0, -1.0, 3.0]).unwrap();
    assert_eq!(n.sum, 4.0);
    assert_eq!(n.weights, Some(vec![0.5, -0.25, 0.75]));
    assert_eq!(n.negative, vec![1]);
    let z = normalize_by_sum(&[1.0, -1.0, 0.0]).unwrap();
    assert!(z.divides_by_zero);
    assert_eq!((z.sum, z.weights), (0.0, None));
    assert!(normalize_by_sum(&[]).is_err());
    assert!(normalize_by_sum(&[f64::INFINITY]).is_err());
}

#[test]
fn softmax_over_a_minus_infinity_mask_stage_by_stage() {
    let s = masked_softmax_steps(&[2.0, -1.0, 3.0, 5.0], &[true, true, true, false]).unwrap();
    assert_eq!(s.masked[3], f64::NEG_INFINITY);
    assert_eq!(&s.masked[..3], &[2.0, -1.0, 3.0]);
    assert_eq!(round(&s.exp, 2), vec![7.39, 0.37, 20.09, 0.0]);
    assert_eq!(format!("{:.2}", s.sum), "27.84");
    assert_eq!(round(&s.weights, 2), vec![0.27, 0.01, 0.72, 0.0]);
    assert_eq!(s.weights[3], 0.0);
    assert!(!s.fully_masked && !s.exp_overflow);
    // Masking after softmax leaves the row summing to less than 1.
    assert!(s.mask_after_sum < 0.5, "{}", s.mask_after_sum);
    // All-zero scores: scheme 2 is scheme 3 with zero scores.
    let z = masked_softmax_steps(&[0.0; 4], &[true, true, true, false]).unwrap();
    assert_eq!(round(&z.weights, 2), vec![0.33, 0.33, 0.33, 0.0]);
    // Every position masked: no denominator, NaN.
    let f = masked_softmax_steps(&[1.0, 2.0], &[false, false]).unwrap();
    assert!(f.fully_masked && f.weights.iter().all(|w| w.is_nan()));
    assert_eq!(f.sum, 0.0);
    // Huge scores overflow e^x but not the weights.
    let h = masked_softmax_steps(&[800.0, 0.0], &[true, true]).unwrap();
    assert!(h.exp_overflow);
    assert_eq!(h.weights, vec![1.0, 0.0]);
    assert!(masked_softmax_steps(&[1.0, 2.0], &[true]).is_err());
}

#[test]
fn normalisation_needs_a_direction() {
    let a = Matrix::from_rows(&[[1.0, 1.0, 0.0], [2.0, 1.0, 1.0], [3.0, 3.0, 2.0]]).unwrap();
    let d = normalize_directions(&a).unwrap();
    assert_eq!(d.row_sums, vec![2.0, 4.0, 8.0]);
    let rows = d.by_rows.unwrap();
    assert_eq!(round(rows.row(2), 2), vec![0.38, 0.38, 0.25]);
    assert!(rows.row_sums().iter().all(|s| (s - 1.0).abs() < 1e-15));
    let cols = d.by_columns.unwrap();
    assert!(cols
        .transpose()
        .row_sums()
        .iter()
        .all(|s| (s - 1.0).abs() < 1e-15));
    let whole = d.whole.unwrap();
    assert!((whole.data.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    assert!(cols.max_abs_diff(&rows) > 0.1 && whole.max_abs_diff(&rows) > 0.1);
    let z = normalize_directions(&Matrix::from_rows(&[[1.0, 0.0], [-1.0, 0.0]]).unwrap()).unwrap();
    assert!(z.by_rows.is_some() && z.by_columns.is_none() && z.whole.is_none());
}

#[test]
fn losing_keepdim_broadcasts_along_the_wrong_axis_silently() {
    for t in 2..=8 {
        let k = keepdim_trap(&lower_triangular_ones(t)).unwrap();
        assert!(k.right_row_sums.iter().all(|s| (s - 1.0).abs() < 1e-15));
        assert!(k.max_err > 0.1, "T={t}");
        assert!(k.wrong_row_sums.iter().any(|s| (s - 1.0).abs() > 0.1));
        // wrong[r][c] = a[r][c] / sums[c]: row 0 of tril is [1, 0, …] / 1.
        assert_eq!(k.wrong.get(t - 1, t - 1), 1.0 / t as f64);
    }
    // T = 1 has nothing to get wrong.
    assert_eq!(keepdim_trap(&Matrix::identity(1)).unwrap().max_err, 0.0);
    assert!(keepdim_trap(&Matrix::filled(2, 3, 1.0)).is_err());
    assert!(keepdim_trap(&Matrix::zeros(2, 2)).is_err());
}
