//! The Rust GPT against a PyTorch fixture (tools/gpt_torch.py `fixture`): from the same
//! init weights and batches, the logits and loss of the first batch, every parameter
//! gradient, the AdamW losses and the weights after them. Shared by `gpt_reference.rs`
//! (natively, every fixture) and `web_kernels.rs` (the tiny fixture in the browser, under
//! both wasm builds).

use super::*;
use attention_playground::gpt::{ActGrads, Activations, AdamW, Gpt};
use serde_json::Value;

/// The fixture's AdamW, after checking its betas, eps and decay groups are ours.
fn optimizer(model: &Gpt, opt_cfg: &Value) -> AdamW {
    assert_eq!(opt_cfg["betas"], serde_json::json!([0.9, 0.99]));
    assert_eq!(opt_cfg["eps"].as_f64(), Some(1e-8));
    let opt = AdamW::new(
        &model.index,
        opt_cfg["lr"].as_f64().unwrap(),
        opt_cfg["weight_decay"].as_f64().unwrap(),
    );
    // nanoGPT's decay groups are ours
    let decay: Vec<String> = model
        .index
        .specs
        .iter()
        .filter(|s| s.decays())
        .map(|s| s.name.clone())
        .collect();
    let want_decay: Vec<String> = serde_json::from_value(opt_cfg["decay"].clone()).unwrap();
    assert_eq!(decay, want_decay);
    opt
}

/// The first batch: logits, loss and every parameter gradient.
fn check_first_step(dir: &str, model: &Gpt, acts: &Activations, loss: f32, expected: &Value) {
    let (t, v) = (model.config.block_size, model.config.vocab_size);
    let want_logits = f32s(&expected["logits_b0"]);
    let e = assert_close("logits_b0", &acts.logits[..t * v], &want_logits, 1e-5);
    let want_loss = expected["loss"].as_f64().unwrap() as f32;
    let rel = (loss - want_loss).abs() / want_loss;
    println!("{dir}: logits rel {e:e}, loss {loss} vs {want_loss} (rel {rel:e})");
    assert!(
        rel <= 1e-5,
        "loss {loss} vs reference {want_loss}: rel {rel:e}"
    );
    let grads = tensors(dir, "grads.safetensors");
    assert_eq!(
        grads.len(),
        model.index.specs.len(),
        "one gradient per stored tensor"
    );
    let mut worst = 0.0f32;
    for spec in &model.index.specs {
        let (shape, want) = &grads[&spec.name];
        assert_eq!(shape, &spec.shape, "{}", spec.name);
        let got = model.grad(&spec.name).unwrap();
        worst = worst.max(assert_close(
            &format!("grad {}", spec.name),
            got,
            want,
            1e-4,
        ));
    }
    println!("{dir}: grads max rel {worst:e}");
}

/// The weights after every step of the fixture.
fn check_after(dir: &str, model: &Gpt, steps: usize) {
    let after = tensors(dir, "after.safetensors");
    let (mut worst, mut over, mut total) = (0.0f32, 0usize, 0usize);
    for spec in &model.index.specs {
        let (_, want) = &after[&spec.name];
        let got = model.param(&spec.name).unwrap();
        for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
            let d = (g - w).abs();
            worst = worst.max(d);
            over += (d > 1e-5) as usize;
            total += 1;
            // Adam turns gradient rounding (~1e-6 of the largest gradient here, from a
            // different summation order) into weight changes: where a gradient is near 0,
            // m/√v is nearly a sign and a small relative error moves the weight by up to
            // lr per step. So: every weight within 5e-5 and all but 0.1 % within 1e-5.
            assert!(
                d <= 5e-5,
                "after {}: [{i}] got {g:e} want {w:e} (|diff| {d:e})",
                spec.name
            );
        }
    }
    assert!(
        over * 1000 <= total,
        "{over} of {total} weights differ by more than 1e-5 after {steps} steps"
    );
    println!("{dir}: after {steps} steps max |diff| {worst:e}, {over} of {total} above 1e-5");
}

/// Replays `steps` of the fixture's batches (all of them when None).
pub fn check_fixture(dir: &str, steps: Option<usize>) {
    let (mut model, _) = load_model(dir, "init.safetensors");
    let batches = json(dir, "batches.json");
    let expected = json(dir, "expected.json");
    let (b, t) = (
        batches["batch_size"].as_u64().unwrap() as usize,
        model.config.block_size,
    );
    let all_steps = batches["steps"].as_u64().unwrap() as usize;
    let steps = steps.unwrap_or(all_steps);
    let mut opt = optimizer(&model, &batches["optimizer"]);
    let mut acts = Activations::new(&model.config, b, t);
    let mut dacts = ActGrads::new(&model.config, b, t);
    let want_losses = f32s(&expected["losses"])[..steps].to_vec();
    let mut losses = Vec::new();
    for step in 0..steps {
        let (x, y) = (u32s(&batches["x"][step]), u32s(&batches["y"][step]));
        let loss = model.forward(&mut acts, &x, Some(&y), b, t).unwrap();
        model.backward(&acts, &mut dacts, &x, &y);
        if step == 0 {
            check_first_step(dir, &model, &acts, loss, &expected);
        }
        losses.push(loss);
        opt.step(&mut model.params, &model.grads);
    }
    let e = assert_close("losses", &losses, &want_losses, 1e-5);
    println!("{dir}: {steps} losses rel {e:e}: {losses:?}");
    if steps < all_steps {
        println!("{dir}: replayed {steps} of {all_steps} steps; the weights after all of them are checked in release builds");
        return;
    }
    check_after(dir, &model, steps);
}
