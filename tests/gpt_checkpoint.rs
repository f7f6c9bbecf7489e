//! Checkpoints: save → load → save gives identical bytes; the reference's files load;
//! corrupt, truncated, wrong-shape, missing-tensor, bad-metadata and garbage bytes give an
//! Err with a message, never a panic. A trainer made from a checkpoint trains on a text
//! that fits it, and otherwise opens untrainable and says why.

mod gpt_util;
use attention_playground::gpt::data::{check_text, MAX_TEXT_CHARS};
use attention_playground::gpt::{
    from_bytes, to_bytes, Dataset, Gpt, GptConfig, GptError, Hyperparams, Param, Trainer, Vocab,
};
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

/// The reason a trainer from a checkpoint cannot train: `gpt.lab.text_cannot_train`
/// wrapping the text's own error, whose code this returns.
fn cause(why: &GptError) -> &'static str {
    assert_eq!(why.code(), "gpt.lab.text_cannot_train", "{why}");
    match why.params() {
        [("reason", Param::Error(e))] => e.code(),
        other => panic!("{why}: params {other:?}"),
    }
}

/// `Trainer::from_checkpoint` (what the page's `GptLab.fromBytes` does): the shape and
/// weights come from the file, batch size, lr, weight decay and the mask from `hp`; a text
/// in the file's vocab, long enough for its block size, trains.
#[test]
fn a_trainer_from_a_checkpoint_trains_on_a_text_that_fits() {
    let (model, vocab) = small_model(true);
    let bytes = to_bytes(&model, &vocab);
    let hp = Hyperparams {
        batch_size: 2,
        lr: 0.01,
        weight_decay: 0.0,
        causal: false,
        ..Hyperparams::preset("small").unwrap()
    };
    let text = "a é\n".repeat(30);
    let (mut tr, why) = Trainer::from_checkpoint(&bytes, Some(&text), hp.clone(), 7).unwrap();
    assert!(why.is_none(), "{why:?}");
    assert_eq!(tr.model.config, model.config);
    assert_eq!(tr.model.params, model.params);
    assert_eq!(tr.data.vocab, vocab);
    assert_eq!(tr.hp, hp.clone().on_model(&model.config));
    assert_eq!(
        (tr.hp.n_layer, tr.hp.block_size, tr.hp.batch_size),
        (2, 3, 2)
    );
    assert!(!tr.model.causal);
    assert_eq!(tr.data.train.len() + tr.data.val.len(), 120);
    assert!(tr.step().is_finite());
    assert_eq!(tr.steps, 1);
    assert_ne!(tr.model.params, model.params, "the step moved the weights");

    // the same as assembling the parts by hand, bit for bit
    let data = Dataset::with_vocab(&text, vocab.clone()).unwrap();
    let mut by_hand = Trainer::from_parts(model, data, hp.on_model(&tr.model.config), 7).unwrap();
    by_hand.step();
    assert_eq!(by_hand.model.params, tr.model.params);
}

/// Without a text, or with one the file's model cannot train on, the trainer still opens
/// (to be inspected and sampled) on a placeholder of the vocab, and says why not.
#[test]
fn a_trainer_from_a_checkpoint_says_why_it_cannot_train() {
    let (model, vocab) = small_model(false);
    let bytes = to_bytes(&model, &vocab);
    let hp = Hyperparams::preset("tiny").unwrap();
    let open = |text: Option<&str>| {
        let (tr, why) = Trainer::from_checkpoint(&bytes, text, hp.clone(), 1).unwrap();
        assert_eq!(tr.model.params, model.params);
        assert_eq!(tr.data.vocab, vocab);
        // the placeholder: 10 · (block_size + 1) + 1 characters of the vocab, in order
        assert_eq!(tr.data.train.len() + tr.data.val.len(), 41);
        assert_eq!(&tr.data.train[..6], &[0, 1, 2, 3, 0, 1]);
        why.expect("cannot train")
    };
    for text in [None, Some("")] {
        let why = open(text);
        assert_eq!(why.code(), "gpt.lab.no_text");
        assert_eq!(
            why.to_string(),
            "no training text was given with this model"
        );
    }
    let why = open(Some(&"xyz a".repeat(40)));
    assert_eq!(cause(&why), "gpt.data.not_in_vocab");
    assert_eq!(
        why.to_string(),
        "the current text cannot train this model: characters not in the model's vocab: \
         ['x', 'y', 'z']"
    );
    assert_eq!(cause(&open(Some("aaaa"))), "gpt.text.one_char");
    assert_eq!(cause(&open(Some("a é"))), "gpt.data.too_short");
    assert_eq!(
        Vocab::from_text("ab").placeholder_text(1),
        "ababababababababababa"
    );
}

/// What is not a checkpoint, or settings the model cannot train with, are errors.
#[test]
fn a_trainer_from_a_checkpoint_refuses_bad_bytes_and_settings() {
    let (model, vocab) = small_model(true);
    let bytes = to_bytes(&model, &vocab);
    let text = "a é\n".repeat(30);
    let tiny = Hyperparams::preset("tiny").unwrap();
    let refused = |b: &[u8], hp: Hyperparams| {
        Trainer::from_checkpoint(b, Some(&text), hp, 1)
            .err()
            .expect("refused")
            .code()
    };
    assert_eq!(
        refused(b"not a checkpoint", tiny.clone()),
        "gpt.checkpoint.not_safetensors"
    );
    assert_eq!(
        refused(
            &bytes,
            Hyperparams {
                lr: -1.0,
                ..tiny.clone()
            }
        ),
        "gpt.config.bad_lr"
    );
    assert_eq!(
        refused(
            &bytes,
            Hyperparams {
                batch_size: 0,
                ..tiny
            }
        ),
        "gpt.config.size_range"
    );
}

/// The texts a trainer accepts (`check_text`): not empty, not one character repeated,
/// at most `MAX_TEXT_CHARS` characters.
#[test]
fn texts_no_model_can_learn_from_are_refused() {
    let code = |t: &str| check_text(t).err().map(|e| e.code());
    assert_eq!(code(""), Some("gpt.text.empty"));
    assert_eq!(code("a"), Some("gpt.text.one_char"));
    assert_eq!(code("éééé"), Some("gpt.text.one_char"));
    assert_eq!(code("ab"), None);
    let long = "ab".repeat(MAX_TEXT_CHARS / 2);
    assert_eq!(code(&long), None);
    assert_eq!(code(&format!("{long}c")), Some("gpt.text.too_long"));
    assert_eq!(
        check_text(&format!("{long}c")).unwrap_err().to_string(),
        "the text has 20000001 characters; the limit is 20000000 (20 M)"
    );
}
