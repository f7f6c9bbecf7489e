//! Sampling from a trained model with a typed prompt and settings (temperature, top-k,
//! greedy, seed, length): Err on a prompt outside the vocab or a bad temperature, a
//! generated text of n characters in the vocab otherwise, never a panic.
//! Input: n (u8), greedy (u8), temperature (f32 LE), top_k (u32 LE, 0 = none),
//! seed (u32 LE), then the prompt as UTF-8 (lossy).
#![no_main]

use attention_playground::gpt::sample::{generate, SampleOptions};
use attention_playground::gpt::{Hyperparams, Trainer};
use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;

const CORPUS: &str =
    "First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n";

thread_local! {
    static TRAINER: RefCell<Trainer> = RefCell::new({
        let hp = Hyperparams {
            n_layer: 1,
            n_head: 2,
            n_embd: 8,
            block_size: 4,
            batch_size: 2,
            ..Hyperparams::preset("tiny").unwrap()
        };
        Trainer::new(CORPUS, hp, 7).unwrap()
    });
}

struct Input {
    prompt: String,
    n: u8,
    greedy: bool,
    temperature: f32,
    top_k: Option<usize>,
    seed: u64,
}

fn input(data: &[u8]) -> Option<Input> {
    let (head, prompt) = (data.get(..14)?, &data[14..]);
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap());
    Some(Input {
        n: head[0],
        greedy: head[1] & 1 != 0,
        temperature: f32::from_bits(u32_at(2)),
        top_k: Some(u32_at(6) as usize).filter(|&k| k != 0),
        seed: u32_at(10) as u64,
        prompt: String::from_utf8_lossy(prompt).into_owned(),
    })
}

fuzz_target!(|data: &[u8]| {
    let Some(inp) = input(data) else {
        return;
    };
    TRAINER.with(|t| {
        let mut t = t.borrow_mut();
        let n = inp.n as usize % 16;
        if let Ok(text) = t.generate(&inp.prompt, n, inp.temperature, inp.top_k, inp.seed) {
            assert_eq!(text.chars().count(), n);
            assert!(text.chars().all(|c| CORPUS.contains(c)), "{text:?}");
        }
        let _ = t.forward_text(&inp.prompt);
        // the sampler's own entry point, with `greedy` independent of the temperature
        let t = &mut *t;
        if let Ok(mut ids) = t.data.vocab.encode(&inp.prompt) {
            let opts = SampleOptions {
                greedy: inp.greedy,
                temperature: inp.temperature,
                top_k: inp.top_k,
                seed: inp.seed,
            };
            let start = ids.len();
            if generate(&t.model, &mut t.infer, &mut ids, n, &opts).is_ok() {
                assert!(ids[start..]
                    .iter()
                    .all(|&i| (i as usize) < t.data.vocab.len()));
            }
        }
    });
});
