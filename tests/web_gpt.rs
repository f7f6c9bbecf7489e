//! The worker-facing GPT API (`GptLab`) in a real browser: construct, train, estimate,
//! generate, open the attention, save and load, and the learner-facing errors.
#![cfg(target_arch = "wasm32")]

use attention_playground::wasm::gpt::GptLab;
use serde::Deserialize;
use wasm_bindgen_test::*;
use web_util::{f32s, get, message};

mod web_util;

wasm_bindgen_test_configure!(run_in_browser);

/// A generated corpus with structure to learn: repeated phrases, 4 000 characters.
fn corpus() -> String {
    let words = [
        "the cat sat. ",
        "a dog ran! ",
        "we see it? ",
        "to be or not. ",
    ];
    (0..400)
        .map(|i| words[(i * 7 + i / 3) % 4])
        .collect::<String>()[..4000]
        .to_string()
}

fn load(bytes: &[u8], text: Option<String>) -> GptLab {
    GptLab::from_bytes(bytes, text, None, 1).expect("load")
}

/// The tiny preset made smaller still (C = 16, 2 heads, batch 8, lr 1e-2): these tests
/// run unoptimised on the page's main thread, which must answer the driver within 30 s.
const SMALL_TINY: &str =
    r#"{"preset": "tiny", "n_embd": 16, "n_head": 2, "batch_size": 8, "lr": 0.01}"#;

fn tiny() -> GptLab {
    GptLab::new(SMALL_TINY, &corpus(), 1337).expect("tiny on the corpus")
}

#[derive(Deserialize)]
struct M {
    rows: usize,
    cols: usize,
    data: Vec<f32>,
}

#[derive(Deserialize)]
struct P {
    char: String,
    p: f32,
}

#[derive(Deserialize)]
struct Attention {
    tokens: Vec<String>,
    layers: Vec<Vec<M>>,
    scores: Vec<Vec<M>>,
    /// T·T: where the causal mask hides the key, the same for every head.
    masked: Option<Vec<bool>>,
    probs: Vec<P>,
    causal: bool,
}

#[derive(Deserialize)]
struct Config {
    vocab_size: usize,
    block_size: usize,
    n_layer: usize,
    n_head: usize,
    params: usize,
    steps: f64,
    trainable: bool,
    untrainable_reason: Option<String>,
    vocab: String,
}

fn attention(lab: &mut GptLab, prompt: &str) -> Attention {
    web_util::from_value(lab.attention(prompt).expect("attention")).expect("shape")
}

fn config(lab: &GptLab) -> Config {
    web_util::from_value(lab.config().expect("config")).expect("config shape")
}

#[wasm_bindgen_test]
fn tiny_builds_with_the_texts_vocab() {
    let lab = tiny();
    let c = config(&lab);
    let mut chars: Vec<char> = corpus().chars().collect();
    chars.sort_unstable();
    chars.dedup();
    assert_eq!(c.vocab, chars.iter().collect::<String>());
    assert_eq!(c.vocab_size, c.vocab.chars().count());
    assert_eq!((c.block_size, c.n_layer, c.n_head), (8, 1, 2));
    assert_eq!(c.params, lab.param_count());
    assert_eq!(c.steps, 0.0);
    assert!(c.trainable && c.untrainable_reason.is_none());
    assert_eq!(lab.tokens_per_step(), 8 * 8);
}

#[wasm_bindgen_test]
fn steps_lower_the_loss() {
    let mut lab = tiny();
    let before = lab.estimate_loss(5).expect("estimate");
    let losses = lab.step(150).expect("steps");
    assert_eq!(losses.len(), 150);
    assert!(losses.iter().all(|l| l.is_finite()));
    let after = lab.estimate_loss(5).expect("estimate");
    assert!(after[0] < before[0] - 0.5, "train {before:?} -> {after:?}");
    assert!(after[1] < before[1] - 0.5, "val {before:?} -> {after:?}");
    assert_eq!(lab.steps(), 150.0);
    // the bench's split step is the same step
    lab.next_batch().expect("batch");
    assert!(lab.step_batch().expect("step").is_finite());
    assert_eq!(lab.steps(), 151.0);
}

#[wasm_bindgen_test]
fn attention_is_one_matrix_per_layer_and_head() {
    let cfg = r#"{"preset":"tiny","n_layer":2,"n_embd":16,"batch_size":4}"#;
    let mut lab = GptLab::new(cfg, &corpus(), 1).unwrap();
    lab.step(20).unwrap();
    let a = attention(&mut lab, "the cat");
    assert_eq!(a.tokens, ["t", "h", "e", " ", "c", "a", "t"]);
    assert!(a.causal);
    assert_eq!(a.layers.len(), 2);
    let masked = a.masked.as_ref().expect("causal → mask");
    assert_eq!(masked.len(), 49);
    for heads in &a.layers {
        assert_eq!(heads.len(), 4);
        for m in heads {
            assert_eq!((m.rows, m.cols, m.data.len()), (7, 7, 49));
            for r in 0..7 {
                let row = &m.data[r * 7..][..7];
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                for c in r + 1..7 {
                    assert!(masked[r * 7 + c] && row[c] == 0.0, "future ({r}, {c})");
                }
                assert!(!masked[r * 7 + r]);
            }
        }
    }
    // The scores are what the weights are the softmax of, −∞ where masked.
    for (heads, scores) in a.layers.iter().zip(&a.scores) {
        for (w, s) in heads.iter().zip(scores) {
            assert_eq!((s.rows, s.cols), (7, 7));
            for r in 0..7 {
                let row = &s.data[r * 7..][..r + 1];
                assert!(s.data[r * 7 + r + 1..][..6 - r]
                    .iter()
                    .all(|&x| x == f32::NEG_INFINITY));
                let max = row.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x));
                let sum: f64 = row.iter().map(|&x| f64::from(x - max).exp()).sum();
                for (c, &score) in row.iter().enumerate() {
                    let p = f64::from(score - max).exp() / sum;
                    assert!(
                        (p - f64::from(w.data[r * 7 + c])).abs() < 1e-5,
                        "({r}, {c})"
                    );
                }
            }
        }
    }
    assert_eq!(a.probs.len(), 10);
    assert!(a.probs.windows(2).all(|w| w[0].p >= w[1].p));
    assert!(a
        .probs
        .iter()
        .all(|p| p.char.chars().count() == 1 && p.p >= 0.0));
    // a prompt longer than block_size keeps its last 8 characters
    assert_eq!(attention(&mut lab, "we see it? the cat").tokens.len(), 8);
    // without the mask every key is visible
    lab.set_causal(false);
    let a = attention(&mut lab, "the cat");
    assert!(!a.causal && a.masked.is_none());
    assert!(a.layers[0][0].data[1] > 0.0, "row 0 reads position 1");
}

/// The maps as the page gets them: each one Float32Array, the very f32s of the forward
/// pass (the same model run natively from the lab's saved state), −∞ where masked.
#[wasm_bindgen_test]
fn attention_maps_cross_as_float32_arrays_bit_for_bit() {
    let cfg = r#"{"preset":"tiny","n_layer":2,"n_embd":16,"batch_size":4}"#;
    let mut lab = GptLab::new(cfg, &corpus(), 1).unwrap();
    lab.step(5).unwrap();
    let a = lab.attention("the cat").expect("attention");
    let mut tr = attention_playground::gpt::state::from_bytes(&lab.state_bytes(), &corpus())
        .expect("the lab's state");
    let nh = tr.model.config.n_head;
    let acts = tr.forward_text("the cat").expect("forward");
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut minus_inf = 0;
    for (field, want) in [("layers", false), ("scores", true)] {
        for l in 0..2 {
            for h in 0..nh {
                let what = format!("{field}[{l}][{h}]");
                let m = get(&get(&get(&a, field), &l.to_string()), &h.to_string());
                let got = f32s(&get(&m, "data"), &what);
                let drawn = if want {
                    acts.preatt(l, 0, h, nh)
                } else {
                    acts.att(l, 0, h, nh)
                };
                assert_eq!(bits(&got), bits(drawn), "{what}");
                minus_inf += got.iter().filter(|x| **x == f32::NEG_INFINITY).count();
            }
        }
    }
    assert_eq!(
        minus_inf,
        2 * nh * 21,
        "the 21 masked cells of each head's 7×7 scores"
    );
}

#[wasm_bindgen_test]
fn save_and_load_round_trip() {
    let mut lab = tiny();
    lab.step(50).unwrap();
    let bytes = lab.to_bytes();
    let mut back = load(&bytes, Some(corpus()));
    assert_eq!(back.to_bytes(), bytes, "same weights, same bytes");
    let greedy = |l: &mut GptLab| l.generate("the ", 40, 0.0, 0, 7).unwrap();
    assert_eq!(greedy(&mut back), greedy(&mut lab));
    let probs = |l: &mut GptLab| {
        attention(l, "a dog")
            .probs
            .iter()
            .map(|p| p.p)
            .collect::<Vec<_>>()
    };
    assert_eq!(probs(&mut back), probs(&mut lab));
    let sampled = |l: &mut GptLab| l.generate("we", 40, 0.8, 5, 3).unwrap();
    assert_eq!(sampled(&mut back), sampled(&mut lab));
    assert!(config(&back).trainable);
    back.step(5).unwrap();

    // without a text (or with one outside its vocab) it opens but does not train
    let mut bare = load(&bytes, None);
    let c = config(&bare);
    assert!(!c.trainable && c.untrainable_reason.is_some());
    assert_eq!(greedy(&mut bare), greedy(&mut lab));
    assert!(message(bare.step(1)).contains("cannot be trained"));
    let other = load(&bytes, Some("xyz xyz ".repeat(50)));
    assert!(!config(&other).trainable);
}

#[wasm_bindgen_test]
fn broken_files_are_refused() {
    let bytes = tiny().to_bytes();
    let load = |b: &[u8]| GptLab::from_bytes(b, Some(corpus()), None, 1);
    assert!(message(load(b"not a checkpoint at all")).contains("safetensors"));
    assert!(load(&[]).is_err());
    assert!(load(&bytes[..bytes.len() / 2]).is_err(), "truncated");
    let mut flipped = bytes.clone();
    flipped[8..16].copy_from_slice(b"{{{{{{{{");
    assert!(load(&flipped).is_err(), "bad header");
}

#[wasm_bindgen_test]
fn bad_configs_and_texts_say_what_to_do() {
    let text = corpus();
    let new = |cfg: &str, t: &str| GptLab::new(cfg, t, 1);
    assert!(message(new(r#"{"preset":"huge"}"#, &text)).contains("tiny, small, cpu"));
    assert!(message(new(r#"{"n_embd":30,"n_head":4}"#, &text)).contains("divisible"));
    assert!(message(new(r#"{"n_layer":200,"n_embd":1024}"#, &text)).contains("25 M"));
    assert!(message(new(r#"{"batch_size":0}"#, &text)).contains("batch_size"));
    assert!(message(new(r#"{"lr":-1}"#, &text)).contains("lr"));
    assert!(message(new(r#"{"n_layers":2}"#, &text)).contains("config"));
    assert!(message(new("{", &text)).contains("config"));
    assert!(message(new("", "")).contains("empty"));
    assert!(message(new("", "aaaa")).contains("one character"));
    assert!(message(new("", "ab")).contains("too short"));
    assert!(new("", &text).is_ok(), "empty config = tiny");
    let mut lab = tiny();
    assert!(message(lab.attention("")).contains("empty"));
    assert!(message(lab.attention("Zebra")).contains("not in the model's vocab"));
    assert!(message(lab.generate("é", 5, 1.0, 0, 1)).contains("vocab"));
    assert!(lab.generate("the", 5, f32::NAN, 0, 1).is_err());
    assert!(lab.generate("the", 100_000, 1.0, 0, 1).is_err());
}
