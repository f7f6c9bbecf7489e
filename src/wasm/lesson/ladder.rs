//! §2 bindings: the ladder's rungs, arbitrary scores, the masked softmax
//! stage by stage, the direction of normalisation, the keepdim trap.

use wasm_bindgen::prelude::*;

use crate::lesson::ladder::{
    keepdim_trap, ladder, loop_iterations, masked_softmax_steps, normalize_by_sum,
    normalize_directions,
};
use crate::wasm::{Fields, MatIn};

exports! {
    #[doc = " `averagingLadder({ rows: 3, cols: 2, data: [2,7, 6,4, 6,5] })` -> `{ loop_average,"]
    #[doc = " all_ones, tril_sums, matrix_average, softmax_average }` each `{ weights, out }`,"]
    #[doc = " plus `max_err_matrix_vs_loop`, `max_err_softmax_vs_loop`."]
    averagingLadder = fn averaging_ladder(x: JsValue) => {
        let x = MatIn::read("averagingLadder(x)", x)?.matrix("x")?;
        ladder(&x)
    };

    #[doc = " `normalizeBySum([2, -1, 3])` -> `{ scores, sum, weights (null when the sum is 0),"]
    #[doc = " negative, divides_by_zero }`."]
    normalizeBySum = fn normalize_by_sum_js(scores: Vec<f64>) => normalize_by_sum(&scores);

    #[doc = " `maskedSoftmaxSteps({ scores: [2,-1,3,5], allowed: [true,true,true,false] })` ->"]
    #[doc = " `{ scores, allowed, masked, exp, sum, weights, fully_masked, exp_overflow,"]
    #[doc = " mask_after_weights, mask_after_sum }`."]
    maskedSoftmaxSteps = fn masked_softmax_steps_js(args: JsValue) => {
        let a = Fields::of("maskedSoftmaxSteps({ scores, allowed })", args)?;
        let (scores, allowed) = (a.numbers("scores")?, a.flags("allowed")?);
        masked_softmax_steps(&scores, &allowed)
    };

    #[doc = " `normalizeDirections({ rows: 3, cols: 3, data: [1,1,0, 2,1,1, 3,3,2] })` ->"]
    #[doc = " `{ row_sums, col_sums, total, by_rows, by_columns, whole }` (matrices or null)."]
    normalizeDirections = fn normalize_directions_js(a: JsValue) => {
        let a = MatIn::read("normalizeDirections(a)", a)?.matrix("the matrix")?;
        normalize_directions(&a)
    };

    #[doc = " `keepdimTrap({ rows: 3, cols: 3, data: [1,0,0, 1,1,0, 1,1,1] })` -> `{ sums, right,"]
    #[doc = " wrong, right_row_sums, wrong_row_sums, max_err }`; the matrix must be square."]
    keepdimTrap = fn keepdim_trap_js(a: JsValue) => {
        let a = MatIn::read("keepdimTrap(a)", a)?.matrix("the matrix")?;
        keepdim_trap(&a)
    };
}

/// `loopIterations(64, 256)` -> 16384 (B·T loop runs per step of scheme 1).
#[wasm_bindgen(js_name = loopIterations)]
pub fn loop_iterations_js(batch: u32, block_size: u32) -> f64 {
    loop_iterations(batch.into(), block_size.into()) as f64
}
