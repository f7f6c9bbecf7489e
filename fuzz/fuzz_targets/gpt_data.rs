//! A training corpus (any text the learner pastes or uploads): the vocab, encoding,
//! decoding, the 90/10 split and the length check never panic; encode∘decode is the
//! identity on the corpus.
#![no_main]

use attention_playground::gpt::{Dataset, Vocab};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&t, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let vocab = Vocab::from_text(&text);
    let ids = vocab.encode(&text).expect("a text's own vocab encodes it");
    assert_eq!(ids.len(), text.chars().count());
    assert_eq!(vocab.decode(&ids), text);
    let _ = vocab.decode(&[u32::MAX, ids.len() as u32]);
    let ds = Dataset::new(&text).expect("own vocab");
    assert_eq!(ds.train.len() + ds.val.len(), ids.len());
    let _ = ds.check_fits(t as usize);
    // a corpus against another vocab (a checkpoint's): Err on unknown characters
    let half = text
        .chars()
        .take(text.chars().count() / 2)
        .collect::<String>();
    let _ = Dataset::with_vocab(&text, Vocab::from_text(&half));
    let _ = Vocab { chars: vec![] }.encode(&text);
});
