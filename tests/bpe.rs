//! GPT-2's tokenizer (`gpt::bpe`) against implementations we did not write: tiktoken's
//! `r50k_base` (GPT-2's encoding) must give the same ids, and GPT-2's own pre-split pattern
//! run by fancy-regex the same pieces, for text that breaks naive tokenizers, for random
//! text, for every Unicode character and for the corpus.
//!
//! GPT-2's vocab.json and merges.txt are recovered from r50k's ranks, which tiktoken-rs has
//! built in (nothing is downloaded): a token's rank is its GPT-2 id, and the merge that made
//! the token of rank r is the two parts BPE leaves of its bytes when only tokens of rank
//! below r may form. `write_gpt2_tokenizer_files` writes them out for the page tests:
//! `GPT2_TOKENIZER_OUT=dir cargo test --test bpe -- --ignored`.
#![cfg(not(target_arch = "wasm32"))]

use attention_playground::gpt::bpe::{pre_split, Bpe, BYTE_CHARS};
use fancy_regex::Regex;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

/// GPT-2's pre-split pattern as encoder.py writes it (tiktoken's r50k pattern is an
/// equivalent rewrite).
const GPT2_PATTERN: &str =
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

fn r50k() -> &'static CoreBPE {
    tiktoken_rs::r50k_base_singleton()
}

/// GPT-2's tokenizer files, recovered from r50k's ranks.
struct Gpt2Files {
    vocab_json: String,
    merges_txt: String,
    /// tokenizer.json with type "BPE" and merges as "a b" lines.
    tokenizer_json: String,
    /// The same with merges as ["a", "b"] pairs, as newer files write them.
    tokenizer_json_pairs: String,
}

/// The parts BPE leaves of `bytes` when only tokens of rank below `limit` may form: join
/// the adjacent pair whose bytes have the lowest rank, leftmost first, while one has one.
fn bpe_below<'a>(bytes: &'a [u8], rank: &HashMap<&[u8], u32>, limit: u32) -> Vec<&'a [u8]> {
    // part i = bytes[cuts[i]..cuts[i + 1]]
    let mut cuts: Vec<usize> = (0..=bytes.len()).collect();
    loop {
        let joined = |i: usize| rank.get(&bytes[cuts[i]..cuts[i + 2]]).copied();
        let candidates = (0..cuts.len() - 2).filter_map(|i| joined(i).map(|r| (r, i)));
        let Some((_, i)) = candidates.filter(|&(r, _)| r < limit).min() else {
            break;
        };
        cuts.remove(i + 1);
    }
    cuts.windows(2).map(|w| &bytes[w[0]..w[1]]).collect()
}

/// GPT-2's tokens by id (50,257: r50k's 50,256 ranks and `<|endoftext|>`) and its 50,000
/// merges as token pairs, in rank order.
fn gpt2_tokens_merges() -> (Vec<Vec<u8>>, Vec<(usize, usize)>) {
    let tokens: Vec<Vec<u8>> = (0..=50256)
        .map(|r| r50k().decode_bytes(&[r]).unwrap())
        .collect();
    assert_eq!(tokens[50256], b"<|endoftext|>");
    let ranked = &tokens[..50256];
    let rank: HashMap<&[u8], u32> = (0..).zip(ranked).map(|(r, t)| (&t[..], r)).collect();
    assert_eq!(rank.len(), ranked.len(), "every rank has bytes of its own");
    let mut merges = Vec::new();
    for (r, token) in (0..).zip(ranked) {
        if token.len() == 1 {
            assert!(r < 256, "the 256 bytes come first");
            continue;
        }
        let parts = bpe_below(token, &rank, r);
        assert_eq!(parts.len(), 2, "rank {r}: {token:?} ends in {parts:?}");
        merges.push((rank[parts[0]] as usize, rank[parts[1]] as usize));
    }
    (tokens, merges)
}

/// A token as vocab.json spells it: each byte through GPT-2's bytes_to_unicode.
fn spell(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| BYTE_CHARS[b as usize]).collect()
}

/// vocab.json, merges.txt and tokenizer.json (both merge forms) as GPT-2's are laid out:
/// the vocab in id order, merges.txt with its `#version: 0.2` line.
fn gpt2_files() -> Gpt2Files {
    let (tokens, merges) = gpt2_tokens_merges();
    let spelled: Vec<String> = tokens.iter().map(|t| spell(t)).collect();
    let entries: Vec<String> = (spelled.iter().enumerate())
        .map(|(id, s)| format!("{}: {id}", serde_json::to_string(s).unwrap()))
        .collect();
    let vocab_json = format!("{{{}}}", entries.join(", "));
    let lines: Vec<String> = (merges.iter())
        .map(|&(a, b)| format!("{} {}", spelled[a], spelled[b]))
        .collect();
    let merges_txt = format!("#version: 0.2\n{}\n", lines.join("\n"));
    let pairs: Vec<[&str; 2]> = (merges.iter())
        .map(|&(a, b)| [&spelled[a][..], &spelled[b][..]])
        .collect();
    let tokenizer_json = |merges: String| {
        let added = r#"[{"id": 50256, "content": "<|endoftext|>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": true, "special": true}]"#;
        let byte_level = |prefix| {
            format!(
                r#"{{"type": "ByteLevel", "add_prefix_space": {prefix}, "trim_offsets": true, "use_regex": true}}"#
            )
        };
        let model = format!(
            r#"{{"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": "", "end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "vocab": {vocab_json}, "merges": {merges}}}"#
        );
        format!(
            r#"{{"version": "1.0", "truncation": null, "padding": null, "added_tokens": {added}, "normalizer": null, "pre_tokenizer": {}, "post_processor": {}, "decoder": {}, "model": {model}}}"#,
            byte_level(false),
            byte_level(true),
            byte_level(true),
        )
    };
    Gpt2Files {
        tokenizer_json: tokenizer_json(serde_json::to_string(&lines).unwrap()),
        tokenizer_json_pairs: tokenizer_json(serde_json::to_string(&pairs).unwrap()),
        vocab_json,
        merges_txt,
    }
}

/// GPT-2's files and the tokenizers read from them, made once for all tests.
struct Gpt2 {
    files: Gpt2Files,
    /// From vocab.json + merges.txt, from tokenizer.json, from tokenizer.json with pairs.
    bpes: [Bpe; 3],
}

fn gpt2() -> &'static Gpt2 {
    static GPT2: OnceLock<Gpt2> = OnceLock::new();
    GPT2.get_or_init(|| {
        let files = gpt2_files();
        let bpes = [
            Bpe::from_vocab_merges(&files.vocab_json, &files.merges_txt).unwrap(),
            Bpe::from_tokenizer_json(&files.tokenizer_json).unwrap(),
            Bpe::from_tokenizer_json(&files.tokenizer_json_pairs).unwrap(),
        ];
        Gpt2 { files, bpes }
    })
}

fn gpt2_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(GPT2_PATTERN).unwrap())
}

/// The pieces of GPT-2's pattern in `text`, by fancy-regex.
fn regex_split(text: &str) -> Vec<&str> {
    let matches = gpt2_regex().find_iter(text);
    matches.map(|m| m.unwrap().as_str()).collect()
}

/// Our ids for `text` are tiktoken's, for each way of reading the files, and decode back to
/// `text`; on failure, the tokens around the first difference.
fn assert_like_tiktoken(text: &str, what: &str) {
    let want = r50k().encode_ordinary(text);
    for bpe in &gpt2().bpes {
        let got = bpe.encode(text);
        if got != want {
            let at = (got.iter().zip(&want))
                .position(|(a, b)| a != b)
                .unwrap_or(got.len().min(want.len()));
            let show = |ids: &[u32]| {
                let window = &ids[at.saturating_sub(3)..(at + 4).min(ids.len())];
                let pieces: Vec<String> = (window.iter())
                    .map(|&id| format!("{id} {:?}", bpe.piece(id)))
                    .collect();
                pieces.join(", ")
            };
            panic!(
                "{what}: token {at} differs ({} tokens from tiktoken, {} ours)\n  tiktoken: {}\n  ours:     {}",
                want.len(),
                got.len(),
                show(&want),
                show(&got)
            );
        }
        assert_eq!(bpe.decode(&got), text, "{what}: decode(encode(text))");
    }
}

/// Text that breaks naive tokenizers: whitespace runs, contractions, digits, emoji, scripts
/// without spaces, combining marks, right-to-left text, control characters, long words.
fn hard_texts() -> Vec<String> {
    let short = [
        "",
        " ",
        "Hello world",
        "a  b\n\n\n c",
        "   x",
        "trailing spaces   ",
        "\t\n",
        " \t x \n\t\ny  \n",
        "line one\r\nline two\r\n\r\n",
        "'s 're 've I'M don't",
        "He's, they're, we've, I'm, you'll, he'd; THEY'RE ''s 'S o'clock rock'n'roll",
        "12345 3.14159 1,000 -42 1e10 0x1F ½ ² Ⅻ ١٢٣ 一二三",
        "😀 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷🇯🇵 🦀🦀 ❤️",
        "中文的标点符号，还有“引号”和《书名号》。",
        "日本語のテキスト、カタカナとひらがな。漢字も",
        "e\u{301} n\u{303}o\u{308} ñ cafe\u{301} café",
        "مرحبا بالعالم، ٣ كتب",
        "Ελληνικά, русский, עברית, हिन्दी, ไทย, 한국어, ქართული",
        // Marks inside words: Arabic harakat, Hebrew points, Thai and Devanagari vowel signs.
        "مَرْحَبًا بِكُمْ، كَيْفَ حَالُكَ؟",
        "שָׁלוֹם עֲלֵיכֶם",
        "ภาษาไทยเป็นภาษาที่สวยงาม",
        "नमस्ते दुनिया, यह हिन्दी में लिखा गया है।",
        "mixed中文and English123数字abc！？",
        "\u{0}\u{1}\u{7}\u{1b}[31mred\u{1b}[0m\u{7f}\u{85}\u{a0}\u{2028}\u{2029}\u{3000}\u{feff}\u{200b}x",
        "<|endoftext|> is text here, not id 50256",
        "fn main() {\n    println!(\"{}\", 1 + 2);\n}\n",
        "https://example.com/a?b=c&d=e#f — “quotes” ‘single’ … ©®™ ∑∫√ ←→",
        "Ⓐⓑ ⅰⅱ ﬁ ſt ǅ ᾈ",
    ];
    let mut texts: Vec<String> = short.iter().map(|s| s.to_string()).collect();
    texts.extend([
        "a".repeat(10_000),
        " ".repeat(1_000) + "x",
        "pneumonoultramicroscopicsilicovolcanoconiosis".repeat(100),
        "1234567890".repeat(500),
        "!@#$%^&*()".repeat(300),
        "🦀".repeat(1_000),
        "中文".repeat(2_000),
        "ab".repeat(3_000) + "\n" + &"\n ".repeat(500),
    ]);
    texts
}

#[test]
fn the_recovered_files_are_gpt2s() {
    let g = gpt2();
    let bpe = &g.bpes[0];
    assert_eq!(bpe.len(), 50257);
    let mut lines = g.files.merges_txt.lines();
    assert_eq!(lines.next(), Some("#version: 0.2"));
    assert_eq!(lines.next(), Some("Ġ t"));
    assert_eq!(lines.count(), 49_999);
    // Entries of GPT-2's vocab.json that everyone has seen.
    let vocab: HashMap<String, u32> = serde_json::from_str(&g.files.vocab_json).unwrap();
    for (token, id) in [
        ("!", 0),
        ("Ċ", 198),
        ("Ġ", 220),
        ("Ġthe", 262),
        ("<|endoftext|>", 50256),
    ] {
        assert_eq!(vocab[token], id, "{token}");
    }
    assert_eq!(bpe.encode("Hello world"), [15496, 995]);
}

#[test]
fn encode_matches_tiktoken_on_hard_text() {
    for text in hard_texts() {
        let what: String = text.chars().take(40).collect();
        assert_like_tiktoken(&text, &format!("{what:?}"));
        let ours: Vec<&str> = pre_split(&text).collect();
        assert_eq!(ours, regex_split(&text), "{what:?}");
    }
}

#[test]
fn special_tokens_are_text_as_in_encode_ordinary() {
    let bpe = &gpt2().bpes[1];
    let ids = bpe.encode("<|endoftext|>");
    assert_eq!(ids, r50k().encode_ordinary("<|endoftext|>"));
    assert!(!ids.contains(&50256));
    assert_eq!(bpe.decode(&[50256]), "<|endoftext|>");
    assert_eq!(bpe.piece(50256), "<|endoftext|>");
    assert_eq!(bpe.piece(50257), "\u{FFFD}");
    assert_eq!(bpe.decode(&[50257]), "\u{FFFD}");
}

/// 🦀 has no token of its own: its four bytes come out in byte tokens, which `piece`
/// shows as escapes and `decode` joins back into the crab.
#[test]
fn an_emoji_split_into_bytes_shows_its_bytes() {
    let bpe = &gpt2().bpes[0];
    let ids = bpe.encode("🦀");
    assert_eq!(ids, r50k().encode_ordinary("🦀"));
    assert!(ids.len() > 1, "{ids:?}");
    let pieces: Vec<String> = ids.iter().map(|&id| bpe.piece(id)).collect();
    assert_eq!(pieces.concat(), "<0xF0><0x9F><0xA6><0x80>");
    for &id in &ids {
        assert_eq!(bpe.token_bytes(id), r50k().decode_bytes(&[id]).unwrap());
    }
    assert_eq!(bpe.decode(&ids), "🦀");
    // A token that holds a whole character and a lone byte shows both.
    let id = bpe.encode(" 🦀")[0];
    assert_eq!(bpe.token_bytes(id)[0], b' ');
    assert!(bpe.piece(id).starts_with(" <0x"), "{:?}", bpe.piece(id));
}

/// Every Unicode character c, twice, between a letter and a digit: the pieces of
/// "a" c c "0" say whether GPT-2's pattern takes c as \p{L} ("acc", "0"), \p{N} ("a", "cc0"),
/// \s ("a", "c", "c", "0") or none ("a", "cc", "0"), and must agree with fancy-regex's
/// Unicode tables for all 1,112,064 of them.
#[test]
fn every_character_is_classed_as_the_regex_classes_it() {
    let chars = (0..=0x10FFFF).filter_map(char::from_u32);
    let text: String = chars.map(|c| format!("a{c}{c}0")).collect();
    let ours: Vec<&str> = pre_split(&text).collect();
    let theirs = regex_split(&text);
    if ours != theirs {
        let at = ours.iter().zip(&theirs).position(|(a, b)| a != b).unwrap();
        let (ours, theirs) = (&ours[at..at + 4], &theirs[at..at + 4]);
        panic!("piece {at}: ours {ours:?}, regex {theirs:?}");
    }
}

/// Shakespeare (www/data/corpus.txt, which ./build.sh assembles): its first 200 KB and all
/// of it.
#[test]
fn encode_matches_tiktoken_on_the_corpus() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/data/corpus.txt");
    let Ok(corpus) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} is not there (./build.sh assembles it)");
        return;
    };
    let mut end = 200_000.min(corpus.len());
    while !corpus.is_char_boundary(end) {
        end -= 1;
    }
    assert_like_tiktoken(&corpus[..end], "corpus, first 200 KB");
    assert_like_tiktoken(&corpus, "corpus");
}

/// A char that is likely to break a tokenizer more often than a uniform draw would.
fn tricky_char() -> impl Strategy<Value = char> {
    let tricky = " \n\t\r'srtvelmdSTM1.,!é中😀\u{301}\u{200d}\u{a0}\u{3000}\u{85}٣ि";
    let tricky: Vec<char> = tricky.chars().collect();
    prop_oneof![3 => prop::sample::select(tricky), 1 => any::<char>()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random text: the same pieces as GPT-2's pattern, the same ids as tiktoken.
    #[test]
    fn random_text_matches_the_references(chars in prop::collection::vec(tricky_char(), 0..60)) {
        let text: String = chars.into_iter().collect();
        let ours: Vec<&str> = pre_split(&text).collect();
        prop_assert_eq!(ours, regex_split(&text));
        let bpe = &gpt2().bpes[0];
        let ids = bpe.encode(&text);
        prop_assert_eq!(&ids, &r50k().encode_ordinary(&text));
        prop_assert_eq!(bpe.decode(&ids), text);
    }
}

/// Writes GPT-2's vocab.json, merges.txt and tokenizer.json to the folder named by
/// GPT2_TOKENIZER_OUT, for tests that need GPT-2's real tokenizer files offline.
#[test]
#[ignore = "writes files: GPT2_TOKENIZER_OUT=dir cargo test --test bpe -- --ignored"]
fn write_gpt2_tokenizer_files() {
    let dir = std::env::var("GPT2_TOKENIZER_OUT").expect("set GPT2_TOKENIZER_OUT to a folder");
    let dir = std::path::Path::new(&dir);
    std::fs::create_dir_all(dir).unwrap();
    let files = &gpt2().files;
    for (name, text) in [
        ("vocab.json", &files.vocab_json),
        ("merges.txt", &files.merges_txt),
        ("tokenizer.json", &files.tokenizer_json),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
    }
}
