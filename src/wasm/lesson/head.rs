//! §3 and §4 bindings: around the h/o/u head (M, output terms, `you`, W_v,
//! biases) and position (dog/god, sinusoidal table, cropping).
//! `head` arguments are `{ x?, W_q?, W_k?, W_v?, causal? = true, scaled? = false }`
//! with missing matrices taken from the h/o/u head; `{}` is the lesson's head.

use wasm_bindgen::JsValue;

use super::HeadIn;
use crate::attention::HeadWeights;
use crate::lesson::content::compare_words as compare_words_core;
use crate::lesson::head_experiments::{
    bias_effect, output_terms, run_head, score_two_ways, value_change,
};
use crate::lesson::position::{compare_orders, crop_context, embed, sinusoidal};
use crate::tensor::Matrix;
use crate::wasm::MatIn;

/// The checked head and its flags.
struct Head {
    x: Matrix,
    w: HeadWeights,
    causal: bool,
    scaled: bool,
}

fn head(h: JsValue, what: &str) -> Result<Head, JsValue> {
    let h = HeadIn::read(what, h)?;
    let (causal, scaled) = (h.causal, h.scaled);
    let (x, w) = h.head()?;
    Ok(Head {
        x,
        w,
        causal,
        scaled,
    })
}

exports! {
    #[doc = " `scoreTwoWays({}, 2, 0)` -> `{ m, m_symmetric, scores_qk, scores_m, max_err, receiver,"]
    #[doc = " source, score, score_via_m, score_reversed }` (4.0, 4.0, 1.0 for u→h)."]
    scoreTwoWays = fn score_two_ways_js(head_in: JsValue, receiver: usize, source: usize) => {
        let h = head(head_in, "scoreTwoWays(head, receiver, source)")?;
        score_two_ways(&h.x, &h.w, receiver, source)
    };

    #[doc = " `outputTerms({}, 2)` -> `{ receiver, terms: [{ source, weight, value, contribution }], out }`."]
    outputTerms = fn output_terms_js(head_in: JsValue, receiver: usize) => {
        let h = head(head_in, "outputTerms(head, receiver)")?;
        run_head(&h.x, &h.w, h.causal, h.scaled).and_then(|t| output_terms(&t, receiver))
    };

    #[doc = " `compareWords(\"hou\", \"you\", {})` (letters h, o, u, y; x of `head` is ignored) ->"]
    #[doc = " `{ a: { word, x, trace }, b: { word, x, trace }, weights_max_diff }`."]
    compareWords = fn compare_words(a: &str, b: &str, head_in: JsValue) => {
        let h = head(head_in, "compareWords(a, b, head)")?;
        compare_words_core(a, b, &h.w, h.causal, h.scaled)
    };

    #[doc = " `valueChange({}, { rows: 2, cols: 3, data: [...] })` -> `{ before, after,"]
    #[doc = " weights_identical, out_max_change }` (traces `{ q, k, v, scale, scores,"]
    #[doc = " masked_scores, weights, out, fully_masked_rows }`)."]
    valueChange = fn value_change_js(head_in: JsValue, new_w_v: JsValue) => {
        let h = head(head_in, "valueChange(head, new_W_v)")?;
        let new_w_v = MatIn::read("valueChange(head, new_W_v)", new_w_v)?.matrix("new W_v")?;
        value_change(&h.x, &h.w, &new_w_v, h.causal, h.scaled)
    };

    #[doc = " `biasEffect({}, [1, 1], [1, -2])` (b_q, b_k of length d) -> `{ base, k_bias: { trace,"]
    #[doc = " max_weight_change }, k_row_shift, q_bias: { trace, max_weight_change } }`."]
    biasEffect = fn bias_effect_js(head_in: JsValue, b_q: Vec<f64>, b_k: Vec<f64>) => {
        let h = head(head_in, "biasEffect(head, b_q, b_k)")?;
        bias_effect(&h.x, &h.w, &b_q, &b_k, h.causal, h.scaled)
    };

    #[doc = " `compareOrders(\"dogs\", \"gods\", positions, causal)` (letters d, o, g, s; ≤ 8) ->"]
    #[doc = " `{ a: { word, x, trace }, b, permutation (or null), equivariance_max_err (or null),"]
    #[doc = " last_row_max_diff }`."]
    compareOrders = fn compare_orders_js(a: &str, b: &str, positions: bool, causal: bool)
        => compare_orders(a, b, positions, causal);

    #[doc = " `embedToy(\"dog\", true)` -> `{ rows: 3, cols: 2, data: [1.1,0, 0.2,1, 2.3,1] }`."]
    embedToy = fn embed_toy(word: &str, positions: bool) => embed(word, positions);

    #[doc = " `sinusoidalTable(T, C)` -> `{ rows: T, cols: C, data }`, T, C in 1..=64."]
    sinusoidalTable = fn sinusoidal_table(t_len: usize, c: usize) => sinusoidal(t_len, c);

    #[doc = " `cropContext(10, 8)` -> `{ start: 2, kept: 8, dropped: 2 }` (`idx[:, -block_size:]`)."]
    cropContext = fn crop_context_js(len: usize, block_size: usize)
        => Ok(crop_context(len, block_size));
}
