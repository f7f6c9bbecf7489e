//! GPT settings typed on the page (every field arbitrary): validation returns Err or a
//! config whose model and activations stay within the documented memory limits; a
//! preset name is one of the three or an Err. Never a panic, never a huge allocation.
#![no_main]

use arbitrary::Arbitrary;
use attention_playground::gpt::config::{MAX_ACTIVATION_FLOATS, MAX_PARAMS};
use attention_playground::gpt::{Activations, Gpt, Hyperparams};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    preset: &'a str,
    n_layer: usize,
    n_head: usize,
    n_embd: usize,
    block_size: usize,
    batch_size: usize,
    lr: f64,
    weight_decay: f64,
    bias: bool,
    causal: bool,
    vocab_size: usize,
    /// Small sizes are where configs pass; big ones where they must fail.
    small: bool,
}

fuzz_target!(|inp: Input| {
    let _ = Hyperparams::preset(inp.preset);
    let shrink = |n: usize| if inp.small { n % 300 } else { n };
    let hp = Hyperparams {
        n_layer: shrink(inp.n_layer),
        n_head: shrink(inp.n_head),
        n_embd: shrink(inp.n_embd),
        block_size: shrink(inp.block_size),
        batch_size: shrink(inp.batch_size),
        lr: inp.lr,
        weight_decay: inp.weight_decay,
        bias: inp.bias,
        causal: inp.causal,
    };
    let vocab_size = shrink(inp.vocab_size);
    let cfg = hp.model_config(vocab_size);
    let _ = cfg.validate_batch(hp.batch_size);
    if cfg.validate().is_err() {
        assert!(Gpt::zeros(cfg).is_err());
        return;
    }
    assert!(cfg.num_params() as u128 <= MAX_PARAMS);
    // a valid shape builds (zeroed buffers are lazily mapped, so this is cheap)
    let model = Gpt::zeros(cfg.clone()).expect("validated");
    assert_eq!(model.params.len(), cfg.num_params());
    if hp.validate(vocab_size).is_ok() {
        assert!(cfg.activation_floats(hp.batch_size) <= MAX_ACTIVATION_FLOATS);
        let acts = Activations::new(&cfg, 1, cfg.block_size);
        assert_eq!(acts.blocks.len(), cfg.n_layer);
    }
});
