//! Matrices from the page (rows, cols and row-major numbers as JS hands them over, e.g.
//! `HeadLab.setMatrix`) and the head that runs them: a shape that does not fit, a
//! non-finite entry or an overflow is an Err, never a panic.
#![no_main]

use arbitrary::Arbitrary;
use attention_playground::attention::HeadWeights;
use attention_playground::lesson::check_matrix;
use attention_playground::lesson::head_experiments::run_head;
use attention_playground::schemes::{
    content_average, loop_average, matrix_average, normalize_rows, softmax_average,
};
use attention_playground::tensor::{softmax_row, Matrix};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct M {
    rows: u8,
    cols: u8,
    /// false: sizes mod 9 and `data` padded or cut to rows·cols (most inputs then reach
    /// the head);
    /// true: taken as given, so wrong lengths are tried too.
    raw: bool,
    data: Vec<f64>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    x: M,
    w_q: M,
    w_k: M,
    w_v: M,
    causal: bool,
    scaled: bool,
}

/// What the binding does with (rows, cols, data): the checked matrix or None.
fn matrix(m: M) -> Option<Matrix> {
    let (mut rows, mut cols, mut data) = (m.rows as usize, m.cols as usize, m.data);
    if !m.raw {
        (rows, cols) = (rows % 9, cols % 9);
        data.resize(rows * cols, 0.5);
    }
    let m = Matrix::from_vec(rows, cols, data).ok()?;
    check_matrix("m", &m).ok()?;
    Some(m)
}

fuzz_target!(|inp: Input| {
    if let Some(p) = softmax_row(&inp.x.data) {
        assert!(p.iter().all(|w| (0.0..=1.0).contains(w)), "{p:?}");
    }
    let (Some(x), Some(w_q), Some(w_k), Some(w_v)) = (
        matrix(inp.x),
        matrix(inp.w_q),
        matrix(inp.w_k),
        matrix(inp.w_v),
    ) else {
        return;
    };
    let _ = (loop_average(&x), matrix_average(&x), softmax_average(&x));
    let _ = normalize_rows(&x);
    let w = HeadWeights { w_q, w_k, w_v };
    if w.check(x.cols).is_ok() {
        let _ = content_average(&x, &w.w_q, &w.w_k, &w.w_v);
    }
    if let Ok(t) = run_head(&x, &w, inp.causal, inp.scaled) {
        assert_eq!((t.out.rows, t.out.cols), (x.rows, w.w_v.rows));
    }
});
