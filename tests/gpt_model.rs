//! The model's own properties: finite-difference gradients, causality (and its absence
//! without the mask), config validation, the trained reference checkpoint's eval loss and
//! greedy sample, and that training beats a bigram.

mod gpt_util;
use attention_playground::gpt::sample::{generate, SampleOptions};
use attention_playground::gpt::{ActGrads, Activations, Gpt, GptConfig, Hyperparams, Rng, Trainer};
use gpt_util::*;

fn micro(bias: bool) -> GptConfig {
    GptConfig {
        vocab_size: 7,
        block_size: 5,
        n_layer: 2,
        n_head: 2,
        n_embd: 8,
        bias,
    }
}

/// Random weights everywhere (biases and LayerNorm too), so every path carries gradient.
fn random_model(cfg: GptConfig, seed: u64) -> Gpt {
    let mut model = Gpt::new(cfg, seed).unwrap();
    let mut rng = Rng::new(seed + 100);
    for spec in model.index.specs.clone() {
        let ln_weight = spec.name.contains("ln_") && spec.name.ends_with("weight");
        for p in &mut model.params[spec.range.clone()] {
            *p = if ln_weight {
                1.0 + rng.normal(0.0, 0.3)
            } else {
                rng.normal(0.0, 0.3)
            };
        }
    }
    model
}

/// Central differences on a few entries of every tensor. In f32 with eps = 1e-2 the
/// truncation error is O(eps²·f''') ≈ 1e-5 and the rounding error is ~ulp(loss)/eps ≈
/// 2.4e-7·2/1e-2 ≈ 5e-5, so a gradient is checked to |diff| ≤ 5e-4 + 2 % of its size.
#[test]
fn gradients_match_finite_differences() {
    for (bias, causal) in [(true, true), (false, true), (true, false)] {
        let (b, t) = (2, 5);
        let mut model = random_model(micro(bias), 7);
        model.causal = causal;
        let mut rng = Rng::new(3);
        let idx: Vec<u32> = (0..b * t).map(|_| rng.below(7) as u32).collect();
        let targets: Vec<u32> = (0..b * t).map(|_| rng.below(7) as u32).collect();
        let mut acts = Activations::new(&model.config, b, t);
        let mut dacts = ActGrads::new(&model.config, b, t);
        model.forward(&mut acts, &idx, Some(&targets), b, t);
        model.backward(&acts, &mut dacts, &idx, &targets);
        let grads = model.grads.clone();
        let eps = 1e-2f32;
        for spec in model.index.specs.clone() {
            let n = spec.range.len();
            for j in [0, n / 3, n / 2, n - 1] {
                let i = spec.range.start + j;
                let p0 = model.params[i];
                model.params[i] = p0 + eps;
                let up = model
                    .forward(&mut acts, &idx, Some(&targets), b, t)
                    .unwrap();
                model.params[i] = p0 - eps;
                let down = model
                    .forward(&mut acts, &idx, Some(&targets), b, t)
                    .unwrap();
                model.params[i] = p0;
                let numeric = (up - down) / (2.0 * eps);
                let tol = 5e-4 + 0.02 * numeric.abs();
                assert!(
                    (grads[i] - numeric).abs() <= tol,
                    "{}[{j}] (bias {bias}, causal {causal}): analytic {} vs numeric {numeric}",
                    spec.name,
                    grads[i]
                );
            }
        }
    }
}

/// Changing a later character leaves every earlier position's logits bit-identical;
/// without the mask they change.
#[test]
fn causal_mask_hides_the_future() {
    let (b, t) = (1, 5);
    for causal in [true, false] {
        let mut model = random_model(micro(true), 11);
        model.causal = causal;
        let v = model.config.vocab_size;
        let mut acts = Activations::new(&model.config, b, t);
        let x1 = [1u32, 2, 3, 4, 5];
        model.forward(&mut acts, &x1, None, b, t);
        let before = acts.logits[..t * v].to_vec();
        let x2 = [1u32, 2, 3, 0, 6]; // positions 3 and 4 changed
        model.forward(&mut acts, &x2, None, b, t);
        let after = &acts.logits[..t * v];
        let same_prefix = before[..3 * v] == after[..3 * v];
        assert_eq!(
            same_prefix, causal,
            "causal {causal}: earlier logits unchanged?"
        );
        if causal {
            for l in 0..2 {
                for h in 0..2 {
                    let att = acts.att(l, 0, h, 2);
                    for q in 0..t {
                        let row = &att[q * t..(q + 1) * t];
                        assert!(
                            row[q + 1..].iter().all(|&w| w == 0.0),
                            "masked weights are 0"
                        );
                        assert!(
                            (row.iter().sum::<f32>() - 1.0).abs() < 1e-6,
                            "rows sum to 1"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn configs_are_validated_before_allocating() {
    let ok = micro(true);
    assert!(ok.validate().is_ok());
    let bad_heads = GptConfig {
        n_head: 3,
        ..ok.clone()
    };
    assert!(bad_heads
        .validate()
        .unwrap_err()
        .to_string()
        .contains("divisible"));
    let zero = GptConfig {
        n_layer: 0,
        ..ok.clone()
    };
    assert!(zero.validate().unwrap_err().to_string().contains("n_layer"));
    let huge = GptConfig {
        n_layer: 1000,
        n_embd: 4096,
        n_head: 32,
        ..ok.clone()
    };
    let e = Gpt::new(huge, 1).unwrap_err().to_string();
    assert!(e.contains("limit"), "{e}");
    let absurd = GptConfig {
        vocab_size: usize::MAX,
        ..ok.clone()
    };
    assert!(absurd.validate().is_err());
    let mut hp = Hyperparams::preset("tiny").unwrap();
    hp.batch_size = 1 << 19;
    hp.block_size = 1024;
    assert!(hp.validate(65).unwrap_err().to_string().contains("MB"));
    assert!(Hyperparams::preset("huge").is_err());
    let e = Trainer::new("abc", Hyperparams::preset("tiny").unwrap(), 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("too short"), "{e}");
}

/// The reference trained a tiny model for 300 steps (tools/make_gpt_fixtures.sh); loading
/// its checkpoint here must give its eval losses and exactly its greedy samples.
#[test]
fn reference_checkpoint_gives_reference_eval_and_greedy_sample() {
    let (model, vocab) = load_model("gpt_tiny", "trained.safetensors");
    let fx = json("gpt_tiny", "trained.json");
    for e in fx["evals"].as_array().unwrap() {
        let ids = vocab.encode(e["text"].as_str().unwrap()).unwrap();
        let t = ids.len() - 1;
        let mut acts = Activations::new(&model.config, 1, t);
        let loss = model
            .forward(&mut acts, &ids[..t], Some(&ids[1..]), 1, t)
            .unwrap();
        let want = e["result"]["loss"].as_f64().unwrap() as f32;
        assert!(
            (loss - want).abs() <= 1e-5 * want,
            "eval loss {loss} vs reference {want}"
        );
        assert_close(
            "per-position losses",
            &acts.losses[..t],
            &f32s(&e["result"]["losses"]),
            1e-5,
        );
    }
    for s in fx["samples"].as_array().unwrap() {
        let mut ids = vocab.encode(s["prompt"].as_str().unwrap()).unwrap();
        let start = ids.len();
        let mut acts = Activations::new(&model.config, 1, model.config.block_size);
        let opts = SampleOptions {
            greedy: true,
            ..Default::default()
        };
        generate(
            &model,
            &mut acts,
            &mut ids,
            s["n"].as_u64().unwrap() as usize,
            &opts,
        )
        .unwrap();
        assert_eq!(vocab.decode(&ids[start..]), s["text"].as_str().unwrap());
    }
}

/// A text with structure a bigram cannot capture (each word repeats its first letter
/// three characters later), a few hundred steps of the tiny preset: the validation loss
/// drops below the bigram's on the same text (the bigram is fitted on the train split).
#[test]
fn training_beats_a_bigram() {
    let mut rng = Rng::new(5);
    let letters: Vec<char> = "abcdefghij".chars().collect();
    let mut text = String::new();
    while text.len() < 20_000 {
        let w: Vec<char> = (0..3).map(|_| letters[rng.below(10)]).collect();
        text.extend([w[0], w[1], w[2], w[0], ' ']);
    }
    let mut hp = Hyperparams::preset("tiny").unwrap();
    (hp.lr, hp.batch_size) = (1e-2, 16); // few steps: the debug profile is slow
    let mut tr = Trainer::new(&text, hp, 1337).unwrap();
    // bigram with add-one smoothing, fitted on train, scored on val
    let v = tr.data.vocab.len();
    let mut counts = vec![1.0f64; v * v];
    for w in tr.data.train.windows(2) {
        counts[w[0] as usize * v + w[1] as usize] += 1.0;
    }
    let val = &tr.data.val;
    let bigram: f64 = val
        .windows(2)
        .map(|w| {
            let row = &counts[w[0] as usize * v..][..v];
            -(row[w[1] as usize] / row.iter().sum::<f64>()).ln()
        })
        .sum::<f64>()
        / (val.len() - 1) as f64;
    let (_, before) = tr.estimate_loss(10);
    let steps = if cfg!(debug_assertions) { 120 } else { 1000 };
    for _ in 0..steps {
        tr.step();
    }
    let (train, after) = tr.estimate_loss(10);
    println!("val loss {before} -> {after} (train {train}) after {steps} steps; bigram {bigram}");
    assert!(
        (after as f64) < bigram - 0.05,
        "val loss {after} not below the bigram's {bigram}"
    );
}
