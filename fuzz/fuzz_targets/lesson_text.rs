//! Every other lesson input that is text: the exercise's three blanks, the h/o/u/y words
//! of §3, the d/o/g/s words of §4 and the anagram test. Err or numbers, never a panic.
//! Input: a flags byte, then UTF-8 (lossy) `score \0 mask \0 axis \0 word_a \0 word_b`.
#![no_main]

use attention_playground::attention::hou_defaults;
use attention_playground::lesson::content::{compare_words, letters};
use attention_playground::lesson::exercise::{exercise_run, MaskLine, ScoreLine, SoftmaxAxis};
use attention_playground::lesson::position::{anagram_permutation, compare_orders, embed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (positions, causal, scaled) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
    let text = String::from_utf8_lossy(rest);
    let mut f = text.split('\0');
    let mut next = || f.next().unwrap_or("");
    let (score, mask, axis, a, b) = (next(), next(), next(), next(), next());
    if let (Ok(s), Ok(m), Ok(x)) = (
        ScoreLine::parse(score),
        MaskLine::parse(mask),
        SoftmaxAxis::parse(axis),
    ) {
        let _ = exercise_run(s, m, x);
    }
    let _ = letters(a);
    let (_, _, w) = hou_defaults();
    let _ = compare_words(a, b, &w, causal, scaled);
    let _ = embed(a, positions);
    let _ = compare_orders(a, b, positions, causal);
    if let Some(p) = anagram_permutation(a, b) {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        assert_eq!(p.len(), a.len());
        for (i, &j) in p.iter().enumerate() {
            assert_eq!(b[i], a[j], "b[i] = a[perm[i]] for {p:?}");
        }
    }
});
