//! The Rust GPT against the PyTorch reference (tools/gpt_torch.py `fixture`, run by
//! tools/make_gpt_fixtures.sh): from the same init weights and batches, the logits
//! and loss of the first batch, every parameter gradient, the ten AdamW losses and the
//! weights after them.

mod gpt_util;
use attention_playground::gpt::AdamW;
use gpt_util::reference::check_fixture;
use gpt_util::*;

#[test]
fn tiny_matches_pytorch() {
    check_fixture("gpt_tiny", None);
}

/// The debug profile (plain `cargo test`) is ~50× slower than release: there the small
/// model checks the first batch (logits, loss, every gradient) and one AdamW step (4 s);
/// `cargo test --release` replays all ten steps and compares the final weights.
#[test]
fn small_matches_pytorch() {
    check_fixture(
        "gpt_small",
        if cfg!(debug_assertions) {
            Some(1)
        } else {
            None
        },
    );
}

/// AdamW alone, from the reference's own gradients: one step from init must land on the
/// reference's weights after one step (fixture `after1.safetensors`, made with --steps 1)
/// to within f32 rounding, as no gradient difference is there to be magnified.
#[test]
fn adamw_one_step_matches_pytorch() {
    let (mut model, _) = load_model("gpt_tiny", "init.safetensors");
    let grads = tensors("gpt_tiny", "grads.safetensors");
    for spec in &model.index.specs {
        model.grads[spec.range.clone()].copy_from_slice(&grads[&spec.name].1);
    }
    let mut opt = AdamW::new(&model.index, 1e-3, 0.1);
    opt.step(&mut model.params, &model.grads);
    let after = tensors("gpt_tiny", "after1.safetensors");
    for spec in &model.index.specs {
        assert_close(
            &format!("after1 {}", spec.name),
            model.param(&spec.name).unwrap(),
            &after[&spec.name].1,
            1e-6,
        );
    }
}
