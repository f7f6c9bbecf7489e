//! §7 The single head's backward pass as the lesson runs it on a learner's input:
//! `head_grads` checks x, the weights and dout, then runs the reference forward and
//! backward of `crate::attention` (where every op is a forward/backward pair).
//!
//! T = time, C = channels, d = head size, d_v = value size.

use super::head_experiments::run_head;
use super::{check_matrix, fail, LessonError};
use crate::attention::{head_backward, HeadGrads, HeadWeights};
use crate::tensor::{causal_or_none, Matrix};

/// Checks the learner's x, weights and dout (T, d_v), runs forward then backward.
pub fn head_grads(
    x: &Matrix,
    w: &HeadWeights,
    causal: bool,
    scaled: bool,
    dout: &Matrix,
) -> Result<HeadGrads, LessonError> {
    let trace = run_head(x, w, causal, scaled)?;
    check_matrix("dout", dout)?;
    if (dout.rows, dout.cols) != (trace.out.rows, trace.out.cols) {
        let (rows, cols, dout_rows, dout_cols) =
            (trace.out.rows, trace.out.cols, dout.rows, dout.cols);
        return fail!(
            "lesson.backward.dout_shape",
            rows,
            cols,
            dout_rows,
            dout_cols
        );
    }
    if !trace.overflow_rows.is_empty() {
        return fail!("lesson.head.score_overflow");
    }
    let mask = causal_or_none(causal, x.rows, x.rows);
    Ok(head_backward(x, w, &trace, &mask, dout))
}
