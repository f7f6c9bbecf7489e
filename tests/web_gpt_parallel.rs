//! The page's data-parallel calls in a real browser: a `GptLab` (worker 0, the
//! coordinator) and one `GptReplica` in the same instance doing what 2 workers do match a
//! lab doing `step` within float tolerance over 20 steps, and the same twice is the same
//! run bit for bit; bad input gives coded errors, never a panic.
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::gpt::{gpt_split_rows, GptLab, GptReplica};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

#[path = "gpt_util/mod.rs"]
mod gpt_util;
mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

const STEPS: usize = 20;
/// batch 5 over 2 workers: slices of 3 and 2 rows.
const CONFIG: &str =
    r#"{"preset": "tiny", "n_layer": 2, "n_embd": 16, "n_head": 2, "batch_size": 5}"#;

fn corpus() -> String {
    "the cat sat. a dog ran! to be, or not? 夏 🙂\n".repeat(60)
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn ids(batch: &js_sys::Object, key: &str) -> Vec<u32> {
    let v = js_sys::Reflect::get(batch, &key.into()).unwrap();
    js_sys::Uint32Array::from(v).to_vec()
}

fn code<T>(r: Result<T, JsValue>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => js_sys::Reflect::get(&e, &"code".into())
            .unwrap()
            .as_string()
            .unwrap_or_default(),
    }
}

/// (losses, final params) of STEPS steps, the slices split as 2 page workers would.
fn two_workers() -> (Vec<f32>, Vec<f32>) {
    let mut lab = GptLab::new(CONFIG, &corpus(), 3).unwrap();
    let mut replica = GptReplica::new(&lab.replica_config()).unwrap();
    let slices = gpt_split_rows(5, 2);
    assert_eq!(slices, vec![0, 3, 3, 2]);
    let t = 8; // tiny's block_size
    let mut losses = Vec::new();
    for _ in 0..STEPS {
        lab.next_batch().unwrap();
        let batch = lab.batch();
        let (x, y) = (ids(&batch, "x"), ids(&batch, "y"));
        let params = lab.params();
        let (row0, rows) = (slices[2] as usize, slices[3] as usize);
        let span = row0 * t..(row0 + rows) * t;
        let g = replica
            .grads(&params, &x[span.clone()], &y[span], rows as u32, 5)
            .unwrap();
        let s0 = lab.slice_grads(slices[0], slices[1]).unwrap();
        lab.add_grads(&g).unwrap();
        losses.push(lab.apply_step(s0 + replica.loss_sum()).unwrap());
    }
    assert_eq!(lab.steps(), STEPS as f64);
    (losses, lab.params())
}

#[wasm_bindgen_test]
fn two_workers_follow_one_and_repeat_bit_for_bit() {
    let mut one = GptLab::new(CONFIG, &corpus(), 3).unwrap();
    let want = one.step(STEPS as u32).unwrap();
    let (losses, params) = two_workers();
    // as tests/gpt_parallel.rs: the slices only reassociate the gradient sums
    gpt_util::assert_close("2 workers' losses", &losses, &want, 1e-6);
    gpt_util::assert_close("2 workers' params", &params, &one.params(), 1e-5);
    assert_ne!(bits(&params), bits(&one.params()), "the batch really split");
    let (losses2, params2) = two_workers();
    assert_eq!(bits(&losses2), bits(&losses));
    assert_eq!(bits(&params2), bits(&params));
}

#[wasm_bindgen_test]
fn bad_input_gives_coded_errors() {
    let mut lab = GptLab::new(CONFIG, &corpus(), 3).unwrap();
    lab.next_batch().unwrap();
    assert_eq!(code(lab.slice_grads(4, 2)), "gpt.parallel.slice");
    assert_eq!(code(lab.add_grads(&[1.0, 2.0])), "gpt.parallel.grads_len");
    assert_eq!(code(GptReplica::new("{")), "gpt.parallel.bad_config");
    let config = lab.replica_config();
    let wrong = config.replace("\"n_head\":2", "\"n_head\":3");
    assert_ne!(wrong, config);
    assert_eq!(code(GptReplica::new(&wrong)), "gpt.config.heads_divide");
    let mut r = GptReplica::new(&config).unwrap();
    let (p, x) = (lab.params(), vec![0u32; 16]);
    assert_eq!(
        code(r.grads(&p[1..], &x, &x, 2, 5)),
        "gpt.parallel.params_len"
    );
    assert_eq!(code(r.grads(&p, &x, &x, 2, 6)), "gpt.parallel.rows");
    assert_eq!(code(r.grads(&p, &x, &x[..8], 2, 5)), "gpt.model.ids_len");
    let vocab = lab.vocab().chars().count() as u32;
    let mut bad = x.clone();
    bad[9] = vocab;
    assert_eq!(
        code(r.grads(&p, &x, &bad, 2, 5)),
        "gpt.model.id_outside_vocab"
    );
    assert_eq!(r.grads(&p, &x, &x, 2, 5).unwrap().len(), p.len());
    assert!(r.loss_sum() > 0.0);
    let said = web_util::message(r.grads(&p, &x, &x, 3, 2));
    assert_eq!(
        said,
        "a slice of 3 rows does not fit a batch of 2 rows (batch_size 5)"
    );
}
