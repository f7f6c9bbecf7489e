//! §7 bindings: the three checks that the mask works, and the head's
//! backward pass on the page's own head.

use wasm_bindgen::prelude::*;

use super::{reply, HeadIn};
use crate::lesson::backward::head_grads;
use crate::lesson::proofs::{future_change, grad_check, manual_vs_naive};
use crate::wasm::MatIn;

/// `manualVsNaive(seed, T, d, causal)` (T, d ≤ 16) -> `{ max_err (≈ 2.22e-16), out }`.
#[wasm_bindgen(js_name = manualVsNaive)]
pub fn manual_vs_naive_js(
    seed: u32,
    t_len: usize,
    d: usize,
    causal: bool,
) -> Result<JsValue, JsValue> {
    reply(manual_vs_naive(seed.into(), t_len, d, causal))
}

/// `gradCheck(seed, T, d, causal)` (T, d ≤ 16) -> `{ h, q, k, v, max_rel_err, passed }`,
/// each of q, k, v `{ analytic, numeric, max_rel_err, max_abs_err }`.
#[wasm_bindgen(js_name = gradCheck)]
pub fn grad_check_js(seed: u32, t_len: usize, d: usize, causal: bool) -> Result<JsValue, JsValue> {
    reply(grad_check(seed.into(), t_len, d, causal))
}

/// `futureChange(seed, T, d, from)` (1 ≤ from < T ≤ 16) -> `{ from, with_mask (0),
/// without_mask (> 0), masked_before, masked_after, unmasked_before, unmasked_after }`.
#[wasm_bindgen(js_name = futureChange)]
pub fn future_change_js(
    seed: u32,
    t_len: usize,
    d: usize,
    from: usize,
) -> Result<JsValue, JsValue> {
    reply(future_change(seed.into(), t_len, d, from))
}

/// `headBackward(head, dout)` (dout shaped like out, `{ rows, cols, data }`) ->
/// `{ dweights, dscores, dq, dk, dv, d_w_q, d_w_k, d_w_v, dx }`.
#[wasm_bindgen(js_name = headBackward)]
pub fn head_backward_js(head_in: JsValue, dout: JsValue) -> Result<JsValue, JsValue> {
    let h = HeadIn::read("headBackward(head, dout)", head_in)?;
    let (causal, scaled) = (h.causal, h.scaled);
    let (x, w) = h.head()?;
    let dout = MatIn::read("headBackward(head, dout)", dout)?.matrix("dout")?;
    reply(head_grads(&x, &w, causal, scaled, &dout))
}
