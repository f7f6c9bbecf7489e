//! LESSON §1: the bigram's last-position logits depend on the last character
//! only; parameter counts; ln V; a chunk of T + 1 characters is T examples.

mod common;

use attention_playground::lesson::bigram::{param_counts, training_examples, Bigram};
use attention_playground::lesson::init_loss::{corpus_loss, initial_losses};
use common::Rng;

/// Tiny Shakespeare's 65 symbols, in sorted order.
const VOCAB65: &str = "\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A generated corpus that uses every symbol (the tests need no data file).
fn corpus(seed: u64, len: usize) -> String {
    let chars: Vec<char> = VOCAB65.chars().collect();
    let mut rng = Rng::new(seed);
    let mut text: String = VOCAB65.to_string();
    text.extend((0..len).map(|_| chars[rng.below(chars.len())]));
    text
}

fn words(ws: &[&str]) -> Vec<String> {
    ws.iter().map(|s| s.to_string()).collect()
}

#[test]
fn hou_you_thou_get_bit_identical_last_logits() {
    let model = Bigram::from_corpus(&corpus(1, 20_000)).unwrap();
    assert_eq!(model.vocab_size(), 65);
    assert_eq!(model.encode("u").unwrap(), vec![59], "u has index 59");
    let c = model.compare(&words(&["hou", "you", "thou"]), 3).unwrap();
    assert!(c.all_identical);
    for w in &c.words {
        assert_eq!(w.last_index, 59);
        assert_eq!(w.last_char, "u");
        assert!(w.identical_to_first);
        assert_eq!(w.top, c.words[0].top);
        assert_eq!(w.top.len(), 3);
        assert_eq!(w.logits.len(), 65);
    }
    assert_eq!(c.words[2].indices.len(), 4);
    // A different last character gives different logits.
    let c = model.compare(&words(&["hou", "hot"]), 3).unwrap();
    assert!(!c.all_identical);
    assert!(!c.words[1].identical_to_first);
}

#[test]
fn logits_are_smoothed_log_probabilities_of_the_counts() {
    // "abab": a→b twice, b→a once; V = 2.
    let model = Bigram::from_corpus("abab").unwrap();
    let la = model.logits_row(0);
    assert_eq!(la, vec![(1.0f64 / 4.0).ln(), (3.0f64 / 4.0).ln()]);
    let lb = model.logits_row(1);
    assert_eq!(lb, vec![(2.0f64 / 3.0).ln(), (1.0f64 / 3.0).ln()]);
    let top = model.top_next(0, 5);
    assert_eq!(top.len(), 2, "k is capped at V");
    assert_eq!((top[0].char.as_str(), top[0].count), ("b", 2));
    assert!((top[0].prob - 0.75).abs() < 1e-15);
    // Each row of probabilities sums to 1.
    let model = Bigram::from_corpus(&corpus(2, 5_000)).unwrap();
    for a in 0..65 {
        let s: f64 = model.logits_row(a).iter().map(|l| l.exp()).sum();
        assert!((s - 1.0).abs() < 1e-12);
    }
    let f = model.forward(&[3, 59, 59]);
    assert_eq!((f.rows, f.cols), (3, 65));
    assert_eq!(f.row(1), f.row(2));
}

#[test]
fn unknown_characters_and_bad_sizes_are_errors_a_learner_can_act_on() {
    let model = Bigram::from_corpus(&corpus(3, 1_000)).unwrap();
    let e = model.compare(&words(&["hou", "hé"]), 3).unwrap_err();
    assert!(e.0.contains("'é'") && e.0.contains("U+00E9"), "{e}");
    assert!(model.compare(&words(&[""]), 3).is_err());
    assert!(model.compare(&[], 3).is_err());
    assert!(model.compare(&words(&["a"; 17]), 3).is_err());
    assert!(model.compare(&["x".repeat(65)], 3).is_err());
    assert!(Bigram::from_corpus("a").is_err());
    assert!(Bigram::from_corpus("").is_err());
}

#[test]
fn splitting_the_table_keeps_4225_parameters_and_starts_near_ln_65() {
    let p = param_counts(65, 32).unwrap();
    assert_eq!(p.bigram, 4225);
    assert_eq!((p.wte, p.lm_head_weight, p.lm_head_bias), (2080, 2080, 65));
    assert_eq!(p.split, 4225);
    assert_eq!(format!("{:.2}", p.initial_loss), "4.17");
    assert_eq!(format!("{:.3}", p.init_bound), "0.177");
    assert!(param_counts(0, 32).is_err());
    assert!(param_counts(65, 100_001).is_err());
    assert_eq!(
        param_counts(100_000, 100_000).unwrap().split,
        20_000_100_000
    );
}

#[test]
fn a_chunk_of_t_plus_1_characters_is_t_examples() {
    let ex = training_examples("Let's hea").unwrap();
    assert_eq!(ex.len(), 8);
    assert_eq!(
        (ex[3].context.as_str(), ex[3].target.as_str()),
        ("Let'", "s")
    );
    assert_eq!((ex[0].context.as_str(), ex[0].target.as_str()), ("L", "e"));
    assert_eq!(ex[7].context, "Let's he");
    assert!(training_examples("L").is_err());
    assert!(training_examples(&"x".repeat(66)).is_err());
}

#[test]
fn a_corpus_with_too_many_symbols_is_refused_before_counting() {
    let text: String = (0..1100u32)
        .filter_map(|i| char::from_u32(0x4E00 + i))
        .collect();
    let e = Bigram::from_corpus(&text).unwrap_err();
    assert!(e.0.contains("1100 distinct characters"), "{e}");
}

#[test]
fn the_split_model_starts_near_ln_v_and_counting_goes_below() {
    // Every pair occurs: the random logits of all 65 rows are averaged.
    let model = Bigram::from_corpus(&corpus(5, 50_000)).unwrap();
    for seed in 0..5 {
        let l = initial_losses(&model, 32, seed).unwrap();
        assert_eq!(format!("{:.2}", l.uniform), "4.17");
        // N(0, 1) logits cost ≈ ln V + ½; U(±1/√32) weights give logit variance 1/3.
        assert!(
            l.uniform < l.split_init && l.split_init < l.bigram_init,
            "{l:?}"
        );
        assert!(l.split_init - l.uniform < 0.3, "{l:?}");
        assert!(l.bigram_init - l.uniform > 0.3, "{l:?}");
    }
    assert!(initial_losses(&model, 0, 0).is_err());
    // Uniform logits cost exactly ln V on any corpus.
    let zeros = attention_playground::tensor::Matrix::zeros(65, 65);
    assert!((corpus_loss(&model, &zeros) - 65f64.ln()).abs() < 1e-12);
    let text = format!(
        "{VOCAB65}{}",
        "First Citizen: we are accounted poor citizens. ".repeat(200)
    );
    let model = Bigram::from_corpus(&text).unwrap();
    let l = initial_losses(&model, 32, 0).unwrap();
    assert!(l.count_model < 1.5, "a repeated phrase is easy: {l:?}");
}

/// The counts against the plain definition: the sorted, deduplicated characters as the
/// vocabulary, and N[a][b] counted pair by pair, on text mixing ASCII with other scripts.
#[test]
fn counts_match_the_definition_with_non_ascii_text() {
    let alphabet: Vec<char> = "ab \nzé中文😀ü".chars().collect();
    let mut rng = Rng::new(7);
    for len in [2, 3, 50, 2_000] {
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let model = Bigram::from_corpus(&text).unwrap();
        let mut vocab: Vec<char> = text.chars().collect();
        vocab.sort_unstable();
        vocab.dedup();
        assert_eq!(model.vocab(), &vocab[..], "len {len}");
        let chars: Vec<char> = text.chars().collect();
        let index = |c: char| vocab.binary_search(&c).unwrap();
        let mut want = vec![0u64; vocab.len() * vocab.len()];
        for w in chars.windows(2) {
            want[index(w[0]) * vocab.len() + index(w[1])] += 1;
        }
        for a in 0..vocab.len() {
            for b in 0..vocab.len() {
                assert_eq!(
                    model.count(a, b),
                    want[a * vocab.len() + b],
                    "len {len}, N[{a}][{b}]"
                );
            }
        }
    }
}

/// The table file (www/data/bigram.bin) is the counted model, bit for bit: the same
/// vocabulary, counts, comparisons and initial losses as counting the corpus.
#[test]
fn the_table_file_reads_back_to_the_counted_model() {
    let mixed: String = format!("{}ab \nzé中文😀ü", corpus(3, 5_000));
    for text in [corpus(2, 30_000), mixed, "ab".to_string()] {
        let counted = Bigram::from_corpus(&text).unwrap();
        let bytes = counted.to_table();
        let v = counted.vocab_size();
        let vocab_len: usize = counted.vocab().iter().map(|c| c.len_utf8()).sum();
        assert_eq!(bytes.len(), 16 + vocab_len + 4 * v * v);
        assert_eq!(&bytes[..4], b"APBG");
        let read = Bigram::from_table(&bytes).unwrap();
        assert_eq!(read.vocab(), counted.vocab());
        for a in 0..v {
            for b in 0..v {
                assert_eq!(read.count(a, b), counted.count(a, b));
            }
        }
        let ws = words(&["ab", "b"]);
        assert_eq!(
            read.compare(&ws, 3).unwrap(),
            counted.compare(&ws, 3).unwrap()
        );
        let (x, y) = (
            initial_losses(&read, 16, 9).unwrap(),
            initial_losses(&counted, 16, 9).unwrap(),
        );
        assert_eq!(
            format!("{x:?}"),
            format!("{y:?}"),
            "initial losses bit for bit"
        );
    }
}

/// Any other bytes are refused with one code: cut short, grown, another magic or format,
/// a vocabulary out of order or not UTF-8, more pairs than a corpus can hold.
#[test]
fn a_damaged_table_file_is_refused() {
    let good = Bigram::from_corpus("abcab").unwrap().to_table();
    let refused = |bytes: &[u8]| match Bigram::from_table(bytes) {
        Err(e) => e.code() == "lesson.bigram.table",
        Ok(_) => false,
    };
    assert!(refused(&[]));
    assert!(refused(&good[..good.len() - 1]), "cut short");
    assert!(refused(&[&good[..], &[0]].concat()), "grown");
    let with = |at: usize, b: u8| {
        let mut x = good.clone();
        x[at] = b;
        x
    };
    assert!(refused(&with(0, b'X')), "magic");
    assert!(refused(&with(4, 2)), "format 2");
    assert!(refused(&with(8, 4)), "V does not match the vocabulary");
    assert!(
        refused(&with(16, b'c')),
        "vocabulary not sorted and distinct: cbc"
    );
    assert!(refused(&with(16, 0xff)), "vocabulary not UTF-8");
    // Counts summing to MAX_CORPUS pairs or more: no corpus of at most MAX_CORPUS characters.
    let mut big = good.clone();
    let at = big.len() - 4;
    big[at..].copy_from_slice(&10_000_000u32.to_le_bytes());
    assert!(refused(&big), "too many pairs");
    assert!(Bigram::from_table(&good).is_ok());
}
