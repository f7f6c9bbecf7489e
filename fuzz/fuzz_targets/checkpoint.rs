//! Checkpoint bytes (a file the learner uploads): `from_bytes` and `read_f32_tensors`
//! return Err on anything that is not a GPT checkpoint, never panic; what loads saves
//! back to bytes that load to the same weights, bit for bit.
#![no_main]

use attention_playground::gpt::checkpoint::{from_bytes, read_f32_tensors, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = read_f32_tensors(bytes);
    if let Ok((model, vocab)) = from_bytes(bytes) {
        assert_eq!(vocab.len(), model.config.vocab_size);
        assert_eq!(model.params.len(), model.config.num_params());
        let again = to_bytes(&model, &vocab);
        let (model2, vocab2) = from_bytes(&again).expect("a saved checkpoint loads");
        assert_eq!(model2.config, model.config);
        assert_eq!(vocab2, vocab);
        let bits = |p: &[f32]| p.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&model2.params), bits(&model.params));
    }
});
