//! The averaging schemes: running sums, normalised rows, softmax of zeros, fractions.

use super::*;
use crate::common::Rng;
use attention_playground::schemes::{loop_average, matrix_average, softmax_average};

fn check_scheme(scheme: Scheme, x: &Matrix) {
    let (weights, out) = match scheme {
        Scheme::Loop => (loop_average(x).weights, loop_average(x).out),
        Scheme::Matrix => (matrix_average(x).weights, matrix_average(x).out),
        Scheme::Softmax => (softmax_average(x).weights, softmax_average(x).out),
    };
    let t_len = x.rows;
    let tril = Matrix::from_fn(t_len, t_len, |t, s| if s <= t { 1.0 } else { 0.0 });
    let scores = Matrix::zeros(t_len, t_len);
    let masked = tril.map(|v| if v == 1.0 { 0.0 } else { f64::NEG_INFINITY });
    let m = HashMap::from([
        ("x", x),
        ("tril", &tril),
        ("scores", &scores),
        ("masked_scores", &masked),
        ("weights", &weights),
    ]);
    for (kind, drawn) in [
        (Kind::Weight, &weights),
        (Kind::Out, &out),
        (Kind::MaskedScore, &masked),
    ] {
        for r in 0..drawn.rows {
            for c in 0..drawn.cols {
                match explain_scheme(scheme, x, Cell::new(kind, r, c), 2) {
                    Ok(e) => check(&e, &m, drawn.get(r, c)),
                    Err(e) => assert_eq!((scheme, kind), (scheme, Kind::MaskedScore), "{e}"),
                }
            }
        }
    }
}

#[test]
fn scheme_cells_recombine_and_show_fractions() {
    let mut rng = Rng::new(2);
    let hou_x = Matrix::from_rows(&[[2.0, 7.0], [6.0, 4.0], [6.0, 5.0]]).unwrap();
    for scheme in [Scheme::Loop, Scheme::Matrix, Scheme::Softmax] {
        check_scheme(scheme, &hou_x);
        for t_len in 1..=7 {
            let c = 1 + rng.below(4);
            check_scheme(scheme, &rng.matrix(t_len, c, 5.0));
        }
    }
    let frac = |scheme, kind, r, c, x: &Matrix| {
        explain_scheme(scheme, x, Cell::new(kind, r, c), 8)
            .unwrap()
            .fraction
    };
    let f = |num, den| Some(Fraction { num, den });
    assert_eq!(frac(Scheme::Matrix, Kind::Weight, 1, 0, &hou_x), f(1, 2));
    assert_eq!(frac(Scheme::Matrix, Kind::Weight, 2, 1, &hou_x), f(1, 3));
    assert_eq!(frac(Scheme::Matrix, Kind::Weight, 0, 0, &hou_x), None); // 1 is an integer
    let x = Matrix::from_rows(&[[0.5], [0.0], [2.0]]).unwrap();
    assert_eq!(frac(Scheme::Matrix, Kind::Out, 2, 0, &x), f(5, 6)); // (0.5 + 0 + 2) / 3
    assert_eq!(frac(Scheme::Loop, Kind::Out, 2, 0, &hou_x), f(14, 3));

    // The loop: running sum 7 + 4 + 5 = 16, then ÷ 3.
    let e = explain_scheme(Scheme::Loop, &hou_x, Cell::new(Kind::Out, 2, 1), 8).unwrap();
    let Body::Mean(m) = &e.body else { panic!() };
    assert_eq!((m.sum, m.count, m.terms.len()), (16.0, 3, 3));
    // The normalised row: 1 / (1 + 1 + 1) from the row sum of tril.
    let e = explain_scheme(Scheme::Matrix, &hou_x, Cell::new(Kind::Weight, 2, 0), 8).unwrap();
    let Body::Normalise(n) = &e.body else {
        panic!()
    };
    assert_eq!(
        (n.numerator.value, n.denominator, n.terms[0].src.matrix),
        (1.0, 3.0, "tril")
    );
    // softmax of zeros: e^0 / (e^0 + e^0 + e^0) = 1/3; the future gets e^−∞ = 0.
    let e = explain_scheme(Scheme::Softmax, &hou_x, Cell::new(Kind::Weight, 1, 0), 8).unwrap();
    let Body::Softmax(s) = &e.body else { panic!() };
    assert_eq!(
        (s.numerator, s.denominator, e.fraction),
        (1.0, 2.0, f(1, 2))
    );
    assert_eq!(
        s.terms.iter().map(|t| t.masked).collect::<Vec<_>>(),
        vec![false, false, true]
    );
}
