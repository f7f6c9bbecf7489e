//! "Why is this cell this number?" on any matrices the learner typed: the kind and scheme
//! names, the cell's row and column and the term limit come from the page. Err for a
//! name, cell or shape that does not fit, never a panic.
#![no_main]

use arbitrary::Arbitrary;
use attention_playground::attention::{head_forward, HeadWeights};
use attention_playground::explain::{
    explain_head, explain_scheme, formula_steps, Cell, HeadInputs, Kind, Scheme,
};
use attention_playground::lesson::check_matrix;
use attention_playground::tensor::{causal_or_none, Matrix};
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
struct Input<'a> {
    kind: &'a str,
    scheme: &'a str,
    row: usize,
    col: usize,
    max_terms: usize,
    causal: bool,
    scaled: bool,
    x: M,
    w_q: M,
    w_k: M,
    w_v: M,
}

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
    let Ok(kind) = Kind::parse(inp.kind) else {
        return;
    };
    let cell = Cell::new(kind, inp.row % 70, inp.col % 70);
    let max_terms = inp.max_terms % 100;
    let Some(x) = matrix(inp.x) else {
        return;
    };
    if let Ok(scheme) = Scheme::parse(inp.scheme) {
        let _ = explain_scheme(scheme, &x, cell, max_terms);
    }
    let (Some(w_q), Some(w_k), Some(w_v)) = (matrix(inp.w_q), matrix(inp.w_k), matrix(inp.w_v))
    else {
        return;
    };
    let w = HeadWeights { w_q, w_k, w_v };
    let Ok(trace) = head_forward(&x, &w, inp.causal, inp.scaled) else {
        return;
    };
    let t = x.rows;
    let mask = causal_or_none(inp.causal, t, t);
    let _ = formula_steps(&trace, &mask);
    let inputs = HeadInputs {
        x_q: &x,
        x_kv: &x,
        w: &w,
        mask: &mask,
    };
    let _ = explain_head(&trace, inputs, cell, max_terms);
});
