//! §7 bindings: the three checks that the mask works, and the head's
//! backward pass on the page's own head.

use wasm_bindgen::JsValue;

use super::HeadIn;
use crate::lesson::backward::head_grads;
use crate::lesson::proofs::{future_change, grad_check, manual_vs_naive};
use crate::wasm::MatIn;

exports! {
    #[doc = " `manualVsNaive(seed, T, d, causal)` (T, d ≤ 16) -> `{ max_err (≈ 2.22e-16), out }`."]
    manualVsNaive = fn manual_vs_naive_js(seed: u32, t_len: usize, d: usize, causal: bool)
        => manual_vs_naive(seed.into(), t_len, d, causal);

    #[doc = " `gradCheck(seed, T, d, causal)` (T, d ≤ 16) -> `{ h, q, k, v, max_rel_err, passed }`,"]
    #[doc = " each of q, k, v `{ analytic, numeric, max_rel_err, max_abs_err }`."]
    gradCheck = fn grad_check_js(seed: u32, t_len: usize, d: usize, causal: bool)
        => grad_check(seed.into(), t_len, d, causal);

    #[doc = " `futureChange(seed, T, d, from)` (1 ≤ from < T ≤ 16) -> `{ from, with_mask (0),"]
    #[doc = " without_mask (> 0), masked_before, masked_after, unmasked_before, unmasked_after }`."]
    futureChange = fn future_change_js(seed: u32, t_len: usize, d: usize, from: usize)
        => future_change(seed.into(), t_len, d, from);

    #[doc = " `headBackward(head, dout)` (dout shaped like out, `{ rows, cols, data }`) ->"]
    #[doc = " `{ dweights, dscores, dq, dk, dv, d_w_q, d_w_k, d_w_v, dx }`."]
    headBackward = fn head_backward_js(head_in: JsValue, dout: JsValue) => {
        let h = HeadIn::read("headBackward(head, dout)", head_in)?;
        let (causal, scaled) = (h.causal, h.scaled);
        let (x, w) = h.head()?;
        let dout = MatIn::read("headBackward(head, dout)", dout)?.matrix("dout")?;
        head_grads(&x, &w, causal, scaled, &dout)
    };
}
