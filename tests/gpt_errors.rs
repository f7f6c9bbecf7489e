//! Every `GptError` has a stable code and named params (for the page's string tables,
//! `err.<code>`) and says in English exactly what it said before codes existed: the
//! learner-facing errors are made here from real inputs and compared with their full
//! text. The page's English is generated from `MESSAGES` (tools/error-tables.mjs), which,
//! with tests/page/i18n-tables.test.mjs, holds the Chinese of www/js/i18n/gpt.js to it.

mod gpt_util;
use attention_playground::error::simple_params;
use attention_playground::gpt::error::MESSAGES;
use attention_playground::gpt::{
    from_bytes, state, to_bytes, Dataset, Gpt, GptConfig, GptError, Hyperparams, Trainer, Vocab,
};
use gpt_util::with_header;
use std::collections::BTreeSet;

fn tiny() -> Hyperparams {
    Hyperparams::preset("tiny").unwrap()
}

fn cfg() -> GptConfig {
    GptConfig {
        vocab_size: 4,
        block_size: 3,
        n_layer: 2,
        n_head: 2,
        n_embd: 4,
        bias: true,
    }
}

fn vocab() -> Vocab {
    Vocab {
        chars: vec!['\n', ' ', 'a', 'é'],
    }
}

/// A text long enough for the tiny preset, in a 4-character vocab.
fn text() -> String {
    "ab cd\n".repeat(40)
}

fn check(e: GptError, code: &str, english: &str) {
    assert_eq!(e.to_string(), english);
    assert_eq!(e.code(), code, "{english}");
}

fn starts(e: GptError, code: &str, prefix: &str) {
    let s = e.to_string();
    assert!(s.starts_with(prefix), "{s} does not start with {prefix}");
    assert_eq!(e.code(), code, "{s}");
}

fn load_err(bytes: &[u8]) -> GptError {
    from_bytes(bytes).expect_err("refused")
}

#[test]
fn config_errors_say_what_they_said() {
    let e = |c: GptConfig| c.validate().unwrap_err();
    check(
        e(GptConfig { n_head: 0, ..cfg() }),
        "gpt.config.size_range",
        "n_head must be between 1 and 1048576, got 0",
    );
    check(
        e(GptConfig {
            n_layer: 2000,
            ..cfg()
        }),
        "gpt.config.too_many_layers",
        "n_layer is 2000; the limit is 1024 layers",
    );
    check(
        e(GptConfig {
            n_embd: 30,
            n_head: 4,
            ..cfg()
        }),
        "gpt.config.heads_divide",
        "n_embd (30) must be divisible by n_head (4): each head gets n_embd / n_head channels",
    );
    let huge = GptConfig {
        n_layer: 100,
        n_embd: 1024,
        n_head: 4,
        ..cfg()
    };
    check(
        e(huge.clone()),
        "gpt.config.too_many_params",
        &format!(
            "this config has {} parameters; the limit is 25000000 (25 M) so training fits in memory",
            huge.num_params()
        ),
    );
    let mut hp = tiny();
    hp.batch_size = 0;
    check(
        hp.validate(65).unwrap_err(),
        "gpt.config.size_range",
        "batch_size must be between 1 and 1048576, got 0",
    );
    hp.batch_size = 1 << 19;
    hp.block_size = 1024;
    let e = hp.validate(65).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("MB of activations; the limit is 256 MB"),
        "{e}"
    );
    starts(
        e,
        "gpt.config.activations",
        "batch_size 524288 × block_size 1024 needs ",
    );
    check(
        Hyperparams::preset("huge").unwrap_err(),
        "gpt.config.unknown_preset",
        "unknown preset \"huge\"; choose one of tiny, small, cpu, induction",
    );
    let mut hp = tiny();
    hp.lr = -1.0;
    check(
        hp.validate(65).unwrap_err(),
        "gpt.config.bad_lr",
        "lr must be a positive number, got -1",
    );
    let mut hp = tiny();
    hp.weight_decay = -0.5;
    check(
        hp.validate(65).unwrap_err(),
        "gpt.config.bad_weight_decay",
        "weight_decay must be ≥ 0, got -0.5",
    );
}

#[test]
fn text_and_prompt_errors_say_what_they_said() {
    check(
        Vocab::from_text("abc").encode("abz€z").unwrap_err(),
        "gpt.data.not_in_vocab",
        "characters not in the model's vocab: ['z', '€']",
    );
    check(
        Trainer::new("abc", tiny(), 1).err().unwrap(),
        "gpt.data.too_short",
        "the text is too short: block_size 8 needs more than 8 characters in both the 90 % train split (2) and the 10 % validation split (1); use at least 91 characters",
    );
    let mut tr = Trainer::new(&text(), tiny(), 1).unwrap();
    check(
        tr.generate("", 5, 1.0, None, 1).unwrap_err(),
        "gpt.sample.empty_prompt",
        "the prompt is empty: give at least one character",
    );
    check(
        tr.generate("a", 5, f32::NAN, None, 1).unwrap_err(),
        "gpt.sample.bad_temperature",
        "temperature must be > 0 (or use greedy), got NaN",
    );
    let model = Gpt::new(cfg(), 1).unwrap();
    let data = Dataset::new(&"abcde\n".repeat(40)).unwrap();
    check(
        Trainer::from_parts(model, data, tiny(), 1).err().unwrap(),
        "gpt.trainer.vocab_mismatch",
        "the text's vocab has 6 characters but the model has 4",
    );
}

#[test]
fn checkpoint_errors_say_what_they_said() {
    let model = Gpt::new(cfg(), 42).unwrap();
    let good = to_bytes(&model, &vocab());
    starts(
        load_err(b"not a checkpoint"),
        "gpt.checkpoint.not_safetensors",
        "not a valid safetensors checkpoint (corrupt or truncated?): ",
    );
    let meta = |key: &str, value: &str| {
        let (key, value) = (key.to_string(), value.to_string());
        load_err(&with_header(&good, move |h| {
            h["__metadata__"][&key] = value.clone().into()
        }))
    };
    check(
        meta("n_embd", "five"),
        "gpt.checkpoint.meta_not_number",
        "checkpoint metadata \"n_embd\" is \"five\", not a whole number",
    );
    check(
        meta("bias", "yes"),
        "gpt.checkpoint.meta_bias",
        "checkpoint metadata \"bias\" is \"yes\", expected \"true\" or \"false\"",
    );
    check(
        meta("n_head", "3"),
        "gpt.checkpoint.bad_config",
        "checkpoint config: n_embd (4) must be divisible by n_head (3): each head gets n_embd / n_head channels",
    );
    starts(
        meta("vocab", "[1, 2"),
        "gpt.checkpoint.vocab_not_json",
        "checkpoint vocab is not a JSON array of strings: ",
    );
    check(
        meta("vocab", "[\"ab\", \"c\", \"d\", \"e\"]"),
        "gpt.checkpoint.vocab_entry",
        "checkpoint vocab entry \"ab\" is not exactly one character",
    );
    check(
        meta("vocab_size", "5"),
        "gpt.checkpoint.vocab_size",
        "checkpoint vocab has 4 entries but vocab_size is 5",
    );
    check(
        meta("vocab", "[\"a\", \"b\", \"a\", \"c\"]"),
        "gpt.checkpoint.vocab_duplicate",
        "checkpoint vocab lists a character twice",
    );
    check(
        load_err(&with_header(&good, |h| {
            h["__metadata__"].as_object_mut().unwrap().remove("vocab");
        })),
        "gpt.checkpoint.meta_missing",
        "checkpoint metadata lacks \"vocab\"",
    );
    check(
        load_err(&with_header(&good, |h| {
            h.as_object_mut().unwrap().remove("__metadata__");
        })),
        "gpt.checkpoint.no_metadata",
        "the safetensors file has no metadata: a GPT checkpoint needs vocab, vocab_size, block_size, n_layer, n_head, n_embd and bias",
    );
    check(
        load_err(&with_header(&good, |h| {
            h["transformer.wte.weight"]["shape"] = serde_json::json!([2, 8])
        })),
        "gpt.checkpoint.tensor_shape",
        "tensor \"transformer.wte.weight\" has shape [2, 8], expected [4, 4]",
    );
    check(
        load_err(&with_header(&good, |h| {
            let o = h.as_object_mut().unwrap();
            let t = o.remove("transformer.ln_f.bias").unwrap();
            o.insert("transformer.ln_f.bias_renamed".into(), t);
        })),
        "gpt.checkpoint.unexpected_tensor",
        "checkpoint has an unexpected tensor \"transformer.ln_f.bias_renamed\" for this config",
    );
    check(
        meta("n_layer", "3"),
        "gpt.checkpoint.missing_tensor",
        "checkpoint lacks tensor \"transformer.h.2.ln_1.weight\"",
    );
    check(
        load_err(&with_header(&good, |h| {
            h["transformer.ln_f.bias"]["dtype"] = "I32".into()
        })),
        "gpt.checkpoint.tensor_dtype",
        "tensor \"transformer.ln_f.bias\" is I32, expected F32",
    );
}

#[test]
fn state_errors_say_what_they_said() {
    let text = text();
    let mut tr = Trainer::new(&text, tiny(), 1).unwrap();
    tr.step();
    let good = state::to_bytes(&tr);
    let err = |b: &[u8], t: &str| state::from_bytes(b, t).err().expect("refused");
    check(
        err(b"", &text),
        "gpt.state.not_state",
        "this is not a saved training state",
    );
    check(
        err(&good[..20], &text),
        "gpt.state.truncated",
        "the saved training state is truncated",
    );
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 4]);
    let n = good.len() - 12 - u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
    check(
        err(&longer, &text),
        "gpt.state.wrong_length",
        &format!(
            "the saved training state has {} bytes after its header, expected {n}",
            n + 4
        ),
    );
    let mut bad_header = good.clone();
    bad_header[12] = b'!';
    starts(
        err(&bad_header, &text),
        "gpt.state.damaged",
        "the saved training state is damaged: ",
    );
    check(
        err(&good, "xyz xyz xyz"),
        "gpt.data.not_in_vocab",
        "characters not in the model's vocab: ['x', 'y', 'z']",
    );
}

#[test]
fn codes_are_unique_and_simple() {
    let mut seen = BTreeSet::new();
    for (code, _) in MESSAGES {
        assert!(code.starts_with("gpt."), "{code}");
        assert!(seen.insert(*code), "{code} twice");
    }
    assert_eq!(simple_params(MESSAGES), Ok(()));
}

#[test]
fn every_code_the_core_uses_is_in_the_table() {
    let known: BTreeSet<&str> = MESSAGES.iter().map(|(c, _)| *c).collect();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let files = [
        "checkpoint",
        "config",
        "data",
        "model",
        "parallel",
        "sample",
        "state",
        "trainer",
        "toy",
        "heads",
        "hf",
        "bpe",
    ]
    .map(|f| format!("{dir}/gpt/{f}.rs"))
    .into_iter()
    .chain(
        ["mod", "config", "inspect", "replica", "lab", "gpt2"]
            .map(|f| format!("{dir}/wasm/gpt/{f}.rs")),
    )
    .chain([format!("{dir}/bin/gpt/hf.rs")]);
    let mut used = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        for (i, _) in src.match_indices("\"gpt.") {
            let code = &src[i + 1..i + 1 + src[i + 1..].find('"').unwrap()];
            assert!(known.contains(code), "{path}: {code} has no English text");
            used += 1;
        }
    }
    assert!(
        used >= MESSAGES.len(),
        "{used} uses of {} codes",
        MESSAGES.len()
    );
}
