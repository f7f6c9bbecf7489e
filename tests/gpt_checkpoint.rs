//! Checkpoints: save → load → save gives identical bytes; the reference's files load;
//! corrupt, truncated, wrong-shape, missing-tensor, bad-metadata and garbage bytes give an
//! Err with a message, never a panic.

mod gpt_util;
use attention_playground::gpt::{from_bytes, to_bytes, Gpt, GptConfig, Vocab};
use gpt_util::*;

fn small_model(bias: bool) -> (Gpt, Vocab) {
    let cfg = GptConfig {
        vocab_size: 4,
        block_size: 3,
        n_layer: 2,
        n_head: 2,
        n_embd: 4,
        bias,
    };
    let vocab = Vocab {
        chars: vec!['\n', ' ', 'a', 'é'],
    };
    (Gpt::new(cfg, 42).unwrap(), vocab)
}

#[test]
fn round_trip_is_byte_identical() {
    for bias in [true, false] {
        let (model, vocab) = small_model(bias);
        let bytes = to_bytes(&model, &vocab);
        let (loaded, vocab2) = from_bytes(&bytes).unwrap();
        assert_eq!(loaded.config, model.config);
        assert_eq!(loaded.params, model.params);
        assert_eq!(vocab2, vocab);
        assert_eq!(
            to_bytes(&loaded, &vocab2),
            bytes,
            "save → load → save (bias {bias})"
        );
    }
}

#[test]
fn reference_checkpoints_round_trip() {
    let bytes = read("gpt_tiny", "init.safetensors");
    let (model, vocab) = from_bytes(&bytes).unwrap();
    assert_eq!(vocab.len(), 65);
    assert_eq!(model.config.n_embd, 32);
    let again = to_bytes(&model, &vocab);
    let (model2, vocab2) = from_bytes(&again).unwrap();
    assert_eq!(model2.params, model.params);
    assert_eq!(vocab2, vocab);
}

fn err(bytes: &[u8]) -> String {
    match from_bytes(bytes) {
        Ok(_) => panic!("{} bytes loaded but should not", bytes.len()),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            e.to_string()
        }
    }
}

#[test]
fn bad_bytes_are_errors_not_panics() {
    let (model, vocab) = small_model(true);
    let good = to_bytes(&model, &vocab);
    assert!(err(b"").contains("safetensors"));
    assert!(err(b"not a checkpoint at all, just some text").contains("safetensors"));
    assert!(err(&[0xff; 64]).contains("safetensors"));
    for cut in [1, 7, 8, 100, good.len() / 2, good.len() - 1] {
        err(&good[..cut]); // every truncation
    }
    let mut longer = good.clone();
    longer.push(0);
    err(&longer);
    // flip bytes inside the header: corrupt JSON, never a panic
    for i in (8..200).step_by(7) {
        let mut bad = good.clone();
        bad[i] ^= 0x5a;
        let _ = from_bytes(&bad);
    }
    // the header length says more than there is
    let mut bad = good.clone();
    bad[..8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    err(&bad);

    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["n_embd"] = "five".into()
    }));
    assert!(e.contains("n_embd"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["n_head"] = "3".into()
    }));
    assert!(e.contains("divisible"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["bias"] = "yes".into()
    }));
    assert!(e.contains("bias"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["vocab"] = "[\"ab\", \"c\", \"d\", \"e\"]".into()
    }));
    assert!(e.contains("one character"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["vocab"] = "[1, 2".into()
    }));
    assert!(e.contains("vocab"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["vocab_size"] = "5".into()
    }));
    assert!(e.contains("vocab"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["n_layer"] = "1000000".into()
    }));
    assert!(e.contains("limit"), "{e}");
    let e = err(&with_header(&good, |h| {
        h["__metadata__"]["n_layer"] = "1000".into()
    }));
    assert!(e.contains("lacks tensor"), "{e}");
    let e = err(&with_header(&good, |h| {
        h.as_object_mut().unwrap().remove("__metadata__");
    }));
    assert!(e.contains("metadata"), "{e}");
    // wrong shape with the same byte count: (4, 4) stored as (2, 8)
    let e = err(&with_header(&good, |h| {
        h["transformer.wte.weight"]["shape"] = serde_json::json!([2, 8])
    }));
    assert!(e.contains("shape"), "{e}");
    // a renamed tensor is both unexpected and missing
    let e = err(&with_header(&good, |h| {
        let o = h.as_object_mut().unwrap();
        let t = o.remove("transformer.ln_f.bias").unwrap();
        o.insert("transformer.ln_f.bias_renamed".into(), t);
    }));
    assert!(e.contains("ln_f.bias"), "{e}");
    // a model without biases is not one with them
    let (nobias, _) = small_model(false);
    let e = err(&with_header(&to_bytes(&nobias, &vocab), |h| {
        h["__metadata__"]["bias"] = "true".into()
    }));
    assert!(e.contains("lacks tensor"), "{e}");
}
