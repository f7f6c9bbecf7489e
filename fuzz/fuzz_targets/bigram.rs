//! §1's bigram lab on any corpus and words the learner types: counting, encoding,
//! comparing words and cutting a chunk into examples return Err or numbers, never panic.
//! Input: byte k, then UTF-8 (lossy) `corpus \0 chunk \0 word \0 word ...`.
#![no_main]

use attention_playground::lesson::bigram::{param_counts, training_examples, Bigram};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut fields = text.split('\0');
    let corpus = fields.next().unwrap_or("");
    let chunk = fields.next().unwrap_or("");
    let words: Vec<String> = fields.map(str::to_string).collect();
    let _ = training_examples(chunk);
    let _ = param_counts(k as u64 * 1000, corpus.len() as u64);
    let Ok(bigram) = Bigram::from_corpus(corpus) else {
        return;
    };
    let v = bigram.vocab_size();
    let total: u64 = (0..v)
        .flat_map(|a| (0..v).map(move |b| (a, b)))
        .map(|(a, b)| bigram.count(a, b))
        .sum();
    assert_eq!(total as usize + 1, corpus.chars().count());
    for a in 0..v {
        assert!(bigram.logits_row(a).iter().all(|l| l.is_finite()));
    }
    let _ = bigram.encode(chunk);
    if let Ok(cmp) = bigram.compare(&words, k as usize) {
        assert_eq!(cmp.words.len(), words.len());
        for w in &cmp.words {
            assert!(!w.top.is_empty() && w.top.len() <= v);
        }
    }
});
