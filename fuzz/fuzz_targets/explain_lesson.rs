//! The lesson's other explainable grids (the head probe's M and x M xᵀ, normalising,
//! the position table, the exercise, the multi-head check, the wrong-axis softmax, the
//! proofs' future change), with every argument the page hands the core: kind, grid and
//! line names, sizes, seeds and cells as they come. Err for whatever does not fit,
//! never a panic and never an allocation past the limits.
#![no_main]

use arbitrary::Arbitrary;
use attention_playground::attention::HeadWeights;
use attention_playground::explain::{
    explain_compat, explain_exercise, explain_future_change, explain_multihead, explain_normalize,
    explain_sinusoid, explain_wrong_axis, Axis, Cell, FutureGrid, Kind,
};
use attention_playground::lesson::check_matrix;
use attention_playground::lesson::exercise::{MaskLine, ScoreLine, SoftmaxAxis};
use attention_playground::tensor::Matrix;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct M {
    rows: u8,
    cols: u8,
    data: Vec<f64>,
}

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    kind: &'a str,
    row: usize,
    col: usize,
    max_terms: usize,
    /// the exercise's three blanks, the proofs' grid name
    lines: [&'a str; 4],
    seed: u32,
    /// sizes as the page passes them (T, C, B, H, d_k, from …), unreduced
    sizes: [usize; 4],
    causal: bool,
    column: bool,
    x: M,
    w_q: M,
    w_k: M,
    w_v: M,
}

/// Sizes mod 9 and `data` padded or cut, so most inputs reach the explanation.
fn matrix(m: M) -> Option<Matrix> {
    let (rows, cols, mut data) = (m.rows as usize % 9, m.cols as usize % 9, m.data);
    data.resize(rows * cols, 0.5);
    let m = Matrix::from_vec(rows, cols, data).ok()?;
    check_matrix("m", &m).ok()?;
    Some(m)
}

fuzz_target!(|inp: Input| {
    let Ok(kind) = Kind::parse_any(inp.kind) else {
        return;
    };
    let cell = Cell::new(kind, inp.row, inp.col);
    let terms = inp.max_terms % 100;
    let [a, b, c, d] = inp.sizes;
    let seed = u64::from(inp.seed);

    let _ = explain_sinusoid(a, b, cell);
    let _ = explain_multihead(seed, [a, b, c, d], inp.causal, cell, terms);
    let axis = if inp.column { Axis::Column } else { Axis::Row };
    let _ = explain_wrong_axis(seed, a, b, c, axis, cell, terms);
    if let Ok(grid) = FutureGrid::parse(inp.lines[3]) {
        let _ = explain_future_change(seed, a, b, c, grid, cell, terms);
    }
    if let (Ok(score), Ok(mask), Ok(axis)) = (
        ScoreLine::parse(inp.lines[0]),
        MaskLine::parse(inp.lines[1]),
        SoftmaxAxis::parse(inp.lines[2]),
    ) {
        let _ = explain_exercise(score, mask, axis, cell, terms);
    }

    let Some(x) = matrix(inp.x) else {
        return;
    };
    let _ = explain_normalize(&x, cell, terms);
    let (Some(w_q), Some(w_k), Some(w_v)) = (matrix(inp.w_q), matrix(inp.w_k), matrix(inp.w_v))
    else {
        return;
    };
    let _ = explain_compat(&x, &HeadWeights { w_q, w_k, w_v }, cell, terms);
});
