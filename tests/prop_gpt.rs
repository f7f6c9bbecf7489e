//! Properties of the GPT on random tiny configs: the loss is finite and its gradients
//! match central differences; with the causal mask, earlier logits ignore later tokens
//! bit for bit; the checkpoint loader turns arbitrary or mutated bytes into an Err, never
//! a panic. Few cases (the debug profile runs these on every `cargo test`).
//!
//! B = batch, T = time, C = channels, NH = heads, V = vocab.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency

use attention_playground::gpt::{
    from_bytes, to_bytes, ActGrads, Activations, Gpt, GptConfig, Rng, Vocab,
};
use proptest::prelude::*;

/// A tiny config: V 2..=8, block_size 1..=5, 1–2 layers, 1–2 heads, C 4 or 8. (C = 2
/// makes LayerNorm nearly a sign function: too curved for differences with eps = 1e-2.)
fn tiny_config() -> impl Strategy<Value = GptConfig> {
    (
        2usize..=8,
        1usize..=5,
        1usize..=2,
        1usize..=2,
        prop_oneof![Just(4usize), Just(8)],
        any::<bool>(),
    )
        .prop_map(
            |(vocab_size, block_size, n_layer, n_head, n_embd, bias)| GptConfig {
                vocab_size,
                block_size,
                n_layer,
                n_head,
                n_embd,
                bias,
            },
        )
}

/// Random weights everywhere (biases and LayerNorm too), so every path carries gradient.
fn random_model(cfg: GptConfig, seed: u64) -> Gpt {
    let mut model = Gpt::new(cfg, seed).unwrap();
    let mut rng = Rng::new(seed.wrapping_add(100));
    for spec in model.index.specs.clone() {
        let ln_weight = spec.name.contains("ln_") && spec.name.ends_with("weight");
        for p in &mut model.params[spec.range.clone()] {
            *p = rng.normal(if ln_weight { 1.0 } else { 0.0 }, 0.3);
        }
    }
    model
}

/// (model, b, t, idx, targets) for a tiny config.
fn case() -> impl Strategy<Value = (Gpt, usize, usize, Vec<u32>, Vec<u32>)> {
    (
        tiny_config(),
        any::<u64>(),
        any::<bool>(),
        1usize..=2,
        any::<u64>(),
    )
        .prop_map(|(cfg, seed, causal, b, data_seed)| {
            let mut rng = Rng::new(data_seed);
            let t = 1 + rng.below(cfg.block_size);
            let v = cfg.vocab_size;
            let idx = (0..b * t).map(|_| rng.below(v) as u32).collect();
            let targets = (0..b * t).map(|_| rng.below(v) as u32).collect();
            let mut model = random_model(cfg, seed);
            model.causal = causal;
            (model, b, t, idx, targets)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Finite loss; finite differences (central, eps = 1e-2 and 5e-3 in f32, extrapolated)
    /// on 12 random parameters agree with backward to 5e-4 + 2 % (tests/gpt_model.rs's
    /// budget).
    #[test]
    fn loss_is_finite_and_gradients_match_finite_differences(
        (mut model, b, t, idx, targets) in case(),
        pick_seed in any::<u64>(),
    ) {
        let mut acts = Activations::new(&model.config, b, t);
        let mut dacts = ActGrads::new(&model.config, b, t);
        let loss = model.forward(&mut acts, &idx, Some(&targets), b, t).unwrap();
        prop_assert!(loss.is_finite() && loss > 0.0, "loss {loss}");
        model.backward(&acts, &mut dacts, &idx, &targets);
        let grads = model.grads.clone();
        prop_assert!(grads.iter().all(|g| g.is_finite()));
        let mut pick = Rng::new(pick_seed);
        for _ in 0..12 {
            let i = pick.below(model.params.len());
            let mut central = |eps: f32| {
                let p0 = model.params[i];
                model.params[i] = p0 + eps;
                let up = model.forward(&mut acts, &idx, Some(&targets), b, t).unwrap();
                model.params[i] = p0 - eps;
                let down = model.forward(&mut acts, &idx, Some(&targets), b, t).unwrap();
                model.params[i] = p0;
                (up - down) / (2.0 * eps)
            };
            // Richardson: (4·D(eps/2) − D(eps)) / 3 cancels the eps² term, which LayerNorm's
            // curvature makes large at small C
            let numeric = (4.0 * central(5e-3) - central(1e-2)) / 3.0;
            let name = &model.index.specs.iter().find(|s| s.range.contains(&i)).unwrap().name;
            prop_assert!(
                (grads[i] - numeric).abs() <= 5e-4 + 0.02 * numeric.abs(),
                "{name} (param {i}) of {:?}: analytic {} vs numeric {numeric}",
                model.config,
                grads[i]
            );
        }
    }

    /// Causal: rewriting tokens after position p leaves the logits of positions 0..=p
    /// bit-identical, in every sequence of the batch.
    #[test]
    fn causal_logits_ignore_the_future(
        (mut model, b, t, idx, _targets) in case(),
        cut in 0usize..5,
        shift in 1u32..8,
    ) {
        model.causal = true;
        let (v, p) = (model.config.vocab_size, cut % t);
        let mut acts = Activations::new(&model.config, b, t);
        model.forward(&mut acts, &idx, None, b, t);
        let before = acts.logits[..b * t * v].to_vec();
        let changed: Vec<u32> = idx
            .iter()
            .enumerate()
            .map(|(i, &x)| if i % t > p { (x + shift) % v as u32 } else { x })
            .collect();
        model.forward(&mut acts, &changed, None, b, t);
        for bi in 0..b {
            let rows = bi * t * v..(bi * t + p + 1) * v;
            let (x, y): (Vec<u32>, Vec<u32>) = (
                before[rows.clone()].iter().map(|f| f.to_bits()).collect(),
                acts.logits[rows].iter().map(|f| f.to_bits()).collect(),
            );
            prop_assert_eq!(x, y, "sequence {} positions 0..={}", bi, p);
        }
    }

    /// Mutations of a real checkpoint (byte flips, cuts, insertions): Ok or Err, never a
    /// panic; what loads saves back to the same bytes' weights.
    #[test]
    fn mutated_checkpoints_are_errors_not_panics(
        cfg in tiny_config(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let vocab = Vocab { chars: "abcdefgh".chars().take(cfg.vocab_size).collect() };
        let mut bytes = to_bytes(&Gpt::new(cfg, 1).unwrap(), &vocab);
        for (at, byte, kind) in edits {
            let i = at.index(bytes.len());
            match kind {
                0 => bytes[i] ^= byte | 1,
                1 => bytes.truncate(i),
                _ => bytes.insert(i, byte),
            }
            if bytes.is_empty() {
                break;
            }
        }
        if let Ok((model, vocab)) = from_bytes(&bytes) {
            let (again, _) = from_bytes(&to_bytes(&model, &vocab)).unwrap();
            let bits = |p: &[f32]| p.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&again.params), bits(&model.params));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Arbitrary bytes, and arbitrary bytes behind a plausible header length: Err.
    #[test]
    fn arbitrary_bytes_are_errors(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        header_len in 0u64..600,
    ) {
        prop_assert!(from_bytes(&bytes).is_err());
        let mut framed = header_len.to_le_bytes().to_vec();
        framed.extend_from_slice(&bytes);
        prop_assert!(from_bytes(&framed).is_err());
    }
}

/// Regression (found by fuzz/ target `checkpoint`): a 6 kB file whose metadata claims
/// 999 990 layers of width 1 passed the parameter cap, and the loader built the layout of
/// twelve million named tensors (2 GB, seconds) before noticing the file holds none.
#[test]
fn a_checkpoint_claiming_a_million_layers_is_refused_at_once() {
    let cfg = GptConfig {
        vocab_size: 4,
        block_size: 3,
        n_layer: 1,
        n_head: 1,
        n_embd: 4,
        bias: true,
    };
    let vocab = Vocab {
        chars: "abcd".chars().collect(),
    };
    let good = to_bytes(&Gpt::new(cfg, 1).unwrap(), &vocab);
    let n = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&good[8..8 + n]).unwrap();
    let meta = &mut header["__metadata__"];
    meta["n_layer"] = "999990".into();
    meta["n_embd"] = "1".into();
    let mut h = serde_json::to_vec(&header).unwrap();
    h.resize(h.len().next_multiple_of(8), b' ');
    let mut bad = (h.len() as u64).to_le_bytes().to_vec();
    bad.extend(h);
    bad.extend(&good[8 + n..]);
    let started = std::time::Instant::now();
    let e = from_bytes(&bad).expect_err("refused").to_string();
    assert!(e.contains("n_layer"), "{e}");
    assert!(
        started.elapsed().as_secs_f64() < 0.5,
        "{:?}",
        started.elapsed()
    );
}
