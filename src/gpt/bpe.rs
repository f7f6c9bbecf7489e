//! GPT-2's byte-level BPE tokenizer: text → pieces → bytes → tokens, as GPT-2's
//! `encoder.py` does it and tiktoken's `r50k_base` (the same encoding) does it.
//!
//! P = bytes in one piece, V = vocab size (50,257 for GPT-2).
//!
//! 1. Pre-split (`pre_split`): GPT-2's pattern
//!    `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
//!    cuts the text into words with their leading space, numbers, runs of other symbols,
//!    and whitespace; no token crosses a cut. It is written as a scanner whose cases are
//!    the pattern's alternatives in order (the `regex` crate has no look-ahead `(?!\S)`).
//! 2. Bytes: each piece's UTF-8 bytes start as one token each. Every byte value has a
//!    token, so no text is unknown.
//! 3. Merges: join the adjacent pair with the lowest merge rank (its line in merges.txt),
//!    the leftmost one on ties, until no adjacent pair has a merge.
//!
//! vocab.json and merges.txt spell bytes through GPT-2's `bytes_to_unicode` (`BYTE_CHARS`):
//! printable bytes stand for themselves, the other 68 for U+0100..=U+0143, so that every
//! token is a printable string without spaces (the space, byte 32, is `Ġ`).
//!
//! Special tokens are not looked for in the text, as tiktoken's `encode_ordinary` does
//! not: `<|endoftext|>` typed in a prompt encodes as the tokens of its seven characters
//! (Hugging Face's tokenizer would give id 50256); id 50256 still decodes to its text.

use super::{bail, gpt_error, GptError};
use serde::Deserialize;
use serde_json::Value;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use unicode_general_category::{get_general_category, GeneralCategory};

/// GPT-2's `bytes_to_unicode`: the character that stands for byte b in vocab.json and
/// merges.txt. Bytes `!`..=`~`, `¡`..=`¬` and `®`..=`ÿ` stand for themselves; the other 68,
/// in increasing order, for U+0100, U+0101, ….
pub const BYTE_CHARS: [char; 256] = byte_chars();

const fn byte_chars() -> [char; 256] {
    let mut chars = ['\0'; 256];
    let mut n = 0;
    let mut b = 0;
    while b < 256 {
        let printable = matches!(b, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF);
        let c = if printable {
            b
        } else {
            n += 1;
            255 + n
        };
        chars[b as usize] = char::from_u32(c).unwrap();
        b += 1;
    }
    chars
}

/// The inverse of `BYTE_CHARS`, indexed by char (all of them are below U+0144); -1 where
/// a char stands for no byte.
const CHAR_BYTES: [i16; 0x144] = char_bytes();

const fn char_bytes() -> [i16; 0x144] {
    let mut bytes = [-1; 0x144];
    let mut b = 0;
    while b < 256 {
        bytes[BYTE_CHARS[b] as usize] = b as i16;
        b += 1;
    }
    bytes
}

/// The bytes a vocab.json token spells, or None if a char of it stands for no byte.
fn token_to_bytes(token: &str) -> Option<Vec<u8>> {
    let byte = |c: char| {
        CHAR_BYTES
            .get(c as usize)
            .and_then(|&b| u8::try_from(b).ok())
    };
    token.chars().map(byte).collect()
}

/// The classes GPT-2's pattern tells apart: `\s`, `\p{L}`, `\p{N}`, and everything else.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Space,
    Letter,
    Number,
    Other,
}

/// `\s` is Unicode's White_Space property, which `char::is_whitespace` tests; `\p{L}` and
/// `\p{N}` are General_Category groups (Unicode 16, as in the regex crates).
/// `char::is_alphabetic` would be wrong: it counts vowel signs such as the `ि` of `हि`
/// (Mc) and circled letters such as Ⓐ (So) as letters.
fn class(c: char) -> Class {
    use GeneralCategory::*;
    // ASCII, most of any text, without the table (tests/bpe.rs checks every char against
    // the regex crates' classes).
    if c.is_ascii() {
        return match c as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Number,
            b'\t'..=b'\r' | b' ' => Class::Space,
            _ => Class::Other,
        };
    }
    if c.is_whitespace() {
        return Class::Space;
    }
    match get_general_category(c) {
        UppercaseLetter | LowercaseLetter | TitlecaseLetter | ModifierLetter | OtherLetter => {
            Class::Letter
        }
        DecimalNumber | LetterNumber | OtherNumber => Class::Number,
        _ => Class::Other,
    }
}

/// The length in bytes of the run of `k` chars that starts `s`.
fn run_len(s: &str, k: Class) -> usize {
    s.char_indices()
        .find(|&(_, c)| class(c) != k)
        .map_or(s.len(), |(i, _)| i)
}

/// The length in bytes of the piece GPT-2's pattern matches at the start of `s` (not empty).
fn piece_len(s: &str) -> usize {
    // 's|'t|'re|'ve|'m|'ll|'d: lower case only, so "I'M" splits as "I", "'", "M".
    if let Some(rest) = s.strip_prefix('\'') {
        for ending in ["s", "t", "re", "ve", "m", "ll", "d"] {
            if rest.starts_with(ending) {
                return 1 + ending.len();
            }
        }
    }
    // ` ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+`: one optional space, then a run of one class.
    let space = usize::from(s.starts_with(' '));
    if let Some(c) = s[space..].chars().next() {
        let k = class(c);
        if k != Class::Space {
            let first = space + c.len_utf8();
            return first + run_len(&s[first..], k);
        }
    }
    // `\s+(?!\S)|\s+`: whitespace up to the end, or, when a non-space follows, all but its
    // last char, which leads the next piece (" b" in "a  b"); a single one stays whole.
    let run = run_len(s, Class::Space);
    if run == s.len() {
        return run;
    }
    let last = s[..run].chars().next_back().map_or(0, char::len_utf8);
    if run > last {
        run - last
    } else {
        run
    }
}

/// GPT-2's pre-split of `text`: the pieces its pattern matches, in order. They join back
/// to `text`, and no token crosses from one piece to the next.
pub fn pre_split(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (piece, tail) = rest.split_at(piece_len(rest));
        rest = tail;
        Some(piece)
    })
}

/// A token not in the vocab, as `piece` and `decode` show it: U+FFFD, the replacement
/// character a lossy decode shows for bytes it cannot read.
const UNKNOWN: &str = "\u{FFFD}";

/// A slot of `Merging` that has been merged into the token to its left.
const MERGED: u32 = u32::MAX;

/// GPT-2's tokenizer: pre-split pattern, byte-to-unicode map, merges by rank.
#[derive(Clone, Debug)]
pub struct Bpe {
    /// id → the token's bytes.
    tokens: Vec<Vec<u8>>,
    /// byte → the id of its one-byte token.
    byte_ids: [u32; 256],
    /// (left id, right id) → (rank, id of the joined token); rank = order in merges.txt.
    merges: HashMap<(u32, u32), (u32, u32)>,
}

/// Scratch space of `Bpe::merge`, one slot per byte of the piece: slot i holds the id of
/// the token that starts at byte i, or `MERGED`. Kept across pieces so that encoding a
/// text allocates once.
#[derive(Default)]
struct Merging {
    ids: Vec<u32>,
    /// The slot of the next / previous live token (P / `usize::MAX`: none).
    next: Vec<usize>,
    prev: Vec<usize>,
    /// Candidate merges (rank, left slot), lowest rank first, then leftmost. An entry goes
    /// stale when either token changes; it is checked when popped, not removed.
    heap: BinaryHeap<Reverse<(u32, usize)>>,
}

/// An entry of tokenizer.json's `added_tokens`.
#[derive(Deserialize)]
struct AddedToken {
    id: u32,
    content: String,
}

impl Bpe {
    /// From Hugging Face's tokenizer.json: `model` of type "BPE" (or of no type, as older
    /// files have it), its `vocab` and `merges` (each "a b" or, in newer files, ["a", "b"]),
    /// and `added_tokens`. The pre-split is always GPT-2's: a `pre_tokenizer` other than
    /// ByteLevel is refused.
    pub fn from_tokenizer_json(json: &str) -> Result<Bpe, GptError> {
        let file: Value = serde_json::from_str(json).map_err(|e| {
            gpt_error!(
                "gpt.tokenizer.not_json",
                file = "tokenizer.json",
                detail = e.to_string()
            )
        })?;
        let model = &file["model"];
        let kind = match model["type"].as_str() {
            Some(kind) => kind,
            // Files of tokenizers before 0.9 name no type; Hugging Face then tries BPE first,
            // which has vocab and merges.
            None if model["vocab"].is_object() && model["merges"].is_array() => "BPE",
            None if model.is_null() => "missing",
            None => "untyped",
        };
        if kind != "BPE" {
            bail!("gpt.tokenizer.not_bpe", kind = kind)
        }
        if let Some(kind) = file["pre_tokenizer"]["type"].as_str() {
            if kind != "ByteLevel" {
                let kind = format!("BPE with a {kind} pre-tokenizer");
                bail!("gpt.tokenizer.not_bpe", kind = kind)
            }
        }
        let vocab = HashMap::<String, u32>::deserialize(&model["vocab"])
            .map_err(|e| gpt_error!("gpt.tokenizer.bad_vocab", detail = e.to_string()))?;
        let added = match &file["added_tokens"] {
            Value::Null => Vec::new(),
            list => Vec::<AddedToken>::deserialize(list).map_err(|e| {
                gpt_error!(
                    "gpt.tokenizer.bad_vocab",
                    detail = format!("added_tokens: {e}")
                )
            })?,
        };
        let entries = match &model["merges"] {
            Value::Null => &[][..],
            Value::Array(list) => &list[..],
            _ => bail!(
                "gpt.tokenizer.not_json",
                file = "tokenizer.json",
                detail = "model.merges is not a list"
            ),
        };
        let mut merges = Vec::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            let pair = match entry {
                Value::String(s) => split_merge(s),
                Value::Array(pair) => match &pair[..] {
                    [Value::String(a), Value::String(b)] => Some((&a[..], &b[..])),
                    _ => None,
                },
                _ => None,
            };
            let Some(pair) = pair else {
                bail!(
                    "gpt.tokenizer.bad_merge",
                    line = i + 1,
                    text = entry.to_string()
                )
            };
            merges.push((i + 1, pair));
        }
        Bpe::new(&vocab, added, &merges)
    }

    /// From vocab.json (token → id) and merges.txt ("a b" per line, in rank order; a first
    /// line `#version: …` and empty lines are skipped).
    pub fn from_vocab_merges(vocab_json: &str, merges_txt: &str) -> Result<Bpe, GptError> {
        let vocab: HashMap<String, u32> = serde_json::from_str(vocab_json).map_err(|e| {
            if e.is_data() {
                gpt_error!("gpt.tokenizer.bad_vocab", detail = e.to_string())
            } else {
                let detail = e.to_string();
                gpt_error!("gpt.tokenizer.not_json", file = "vocab.json", detail)
            }
        })?;
        let mut merges = Vec::new();
        for (i, line) in merges_txt.lines().enumerate() {
            if line.trim().is_empty() || (i == 0 && line.starts_with("#version")) {
                continue;
            }
            let Some(pair) = split_merge(line) else {
                bail!(
                    "gpt.tokenizer.bad_merge",
                    line = i + 1,
                    text = format!("{line:?}")
                )
            };
            merges.push((i + 1, pair));
        }
        Bpe::new(&vocab, Vec::new(), &merges)
    }

    /// The tokenizer of `vocab` (token in the byte alphabet → id), `added` tokens (their
    /// text as is) and `merges` ((line, (a, b)) in rank order), once all of it checks out.
    fn new(
        vocab: &HashMap<String, u32>,
        mut added: Vec<AddedToken>,
        merges: &[(usize, (&str, &str))],
    ) -> Result<Bpe, GptError> {
        // ids 0..V: sorted by id, entry i must have id i.
        let mut by_id: Vec<(u32, &str)> = vocab.iter().map(|(s, &id)| (id, &s[..])).collect();
        by_id.sort_unstable();
        let mut tokens = Vec::with_capacity(by_id.len() + added.len());
        for (i, &(id, s)) in by_id.iter().enumerate() {
            check_id(id, i, by_id.get(i.wrapping_sub(1)).map(|p| p.1), s)?;
            let Some(bytes) = token_to_bytes(s) else {
                let detail = format!("{s:?} is not spelled in GPT-2's byte alphabet");
                bail!("gpt.tokenizer.bad_vocab", detail = detail)
            };
            tokens.push(bytes);
        }
        added.sort_by_key(|t| t.id);
        for t in added {
            let bytes = t.content.into_bytes();
            match tokens.get(t.id as usize) {
                Some(have) if *have == bytes => {}
                Some(have) => {
                    let have = String::from_utf8_lossy(have);
                    let want = String::from_utf8_lossy(&bytes);
                    let detail = format!("added token {want:?} has id {}, which is {have:?}", t.id);
                    bail!("gpt.tokenizer.bad_vocab", detail = detail)
                }
                None => {
                    check_id(t.id, tokens.len(), None, "")?;
                    tokens.push(bytes);
                }
            }
        }
        let mut byte_ids = [0; 256];
        for (b, id) in byte_ids.iter_mut().enumerate() {
            let Some(&found) = vocab.get(&BYTE_CHARS[b].to_string()) else {
                let detail = format!("byte {b:#04x} ({:?}) has no token", BYTE_CHARS[b]);
                bail!("gpt.tokenizer.bad_vocab", detail = detail)
            };
            *id = found;
        }
        let mut merge_map = HashMap::with_capacity(merges.len());
        for (rank, &(line, (a, b))) in merges.iter().enumerate() {
            let id = |s: &str| match vocab.get(s) {
                Some(&id) => Ok(id),
                None => {
                    let token = format!("{s:?}");
                    Err(gpt_error!("gpt.tokenizer.unknown_token", line, token))
                }
            };
            let joined = id(&format!("{a}{b}"));
            merge_map.insert((id(a)?, id(b)?), (rank as u32, joined?));
        }
        Ok(Bpe {
            tokens,
            byte_ids,
            merges: merge_map,
        })
    }

    /// Number of token ids (V).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The token ids of `text`: GPT-2's pre-split, then the merges of each piece. The same
    /// ids as tiktoken's `r50k_base().encode_ordinary(text)` for GPT-2's files.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::with_capacity(text.len() / 3);
        let mut work = Merging::default();
        for piece in pre_split(text) {
            self.merge(piece.as_bytes(), &mut work, &mut ids);
        }
        ids
    }

    /// Appends the tokens of one piece to `out`: its bytes, then the merges by rank. A heap
    /// of candidate pairs makes it O(P log P), so one long word cannot stall the page.
    fn merge(&self, piece: &[u8], m: &mut Merging, out: &mut Vec<u32>) {
        let p = piece.len();
        let ids = &mut m.ids;
        ids.clear();
        ids.extend(piece.iter().map(|&b| self.byte_ids[b as usize]));
        m.next.clear();
        m.next.extend(1..=p);
        m.prev.clear();
        m.prev.extend((0..p).map(|i| i.wrapping_sub(1)));
        let heap = &mut m.heap;
        heap.clear();
        let rank = |a: u32, b: u32| self.merges.get(&(a, b)).map(|&(rank, _)| rank);
        for i in 1..p {
            if let Some(r) = rank(ids[i - 1], ids[i]) {
                heap.push(Reverse((r, i - 1)));
            }
        }
        while let Some(Reverse((r, left))) = heap.pop() {
            let right = m.next[left];
            if ids[left] == MERGED || right >= p {
                continue;
            }
            match self.merges.get(&(ids[left], ids[right])) {
                Some(&(now, joined)) if now == r => ids[left] = joined,
                _ => continue, // stale: a token of this pair changed since it was pushed
            }
            ids[right] = MERGED;
            let after = m.next[right];
            m.next[left] = after;
            if after < p {
                m.prev[after] = left;
                if let Some(r) = rank(ids[left], ids[after]) {
                    heap.push(Reverse((r, left)));
                }
            }
            let before = m.prev[left];
            if before < p {
                if let Some(r) = rank(ids[before], ids[left]) {
                    heap.push(Reverse((r, before)));
                }
            }
        }
        let mut i = 0;
        while i < p {
            out.push(ids[i]);
            i = m.next[i];
        }
    }

    /// The bytes of token `id`; empty for an id outside the vocab.
    pub fn token_bytes(&self, id: u32) -> &[u8] {
        self.tokens.get(id as usize).map_or(&[], Vec::as_slice)
    }

    /// Token `id` as text to draw: its bytes as UTF-8, each byte that is no character on
    /// its own (one byte of an emoji's four) as `<0xF0>`; U+FFFD for an id outside the vocab.
    pub fn piece(&self, id: u32) -> String {
        let Some(bytes) = self.tokens.get(id as usize) else {
            return UNKNOWN.to_string();
        };
        let mut s = String::new();
        for chunk in bytes.utf8_chunks() {
            s.push_str(chunk.valid());
            for b in chunk.invalid() {
                s.push_str(&format!("<0x{b:02X}>"));
            }
        }
        s
    }

    /// The text of `ids`: their bytes joined, then read as UTF-8 (bytes that make no
    /// character, as at a cut inside an emoji, become U+FFFD); U+FFFD for an id outside
    /// the vocab.
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        for &id in ids {
            match self.tokens.get(id as usize) {
                Some(token) => bytes.extend_from_slice(token),
                None => bytes.extend_from_slice(UNKNOWN.as_bytes()),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// A merges line "a b": two tokens and one space (the byte alphabet has no space).
fn split_merge(line: &str) -> Option<(&str, &str)> {
    let (a, b) = line.split_once(' ')?;
    (!a.is_empty() && !b.is_empty() && !b.contains(' ')).then_some((a, b))
}

/// Entry `i` of the ids in increasing order must be `i`: lower means the id is used twice
/// (by `prev` and `token`), higher means id `i` is missing.
fn check_id(id: u32, i: usize, prev: Option<&str>, token: &str) -> Result<(), GptError> {
    let detail = match (id as usize).cmp(&i) {
        std::cmp::Ordering::Equal => return Ok(()),
        std::cmp::Ordering::Less => {
            let prev = prev.unwrap_or("");
            format!("id {id} is given to both {prev:?} and {token:?}")
        }
        std::cmp::Ordering::Greater => {
            format!("ids must run from 0 without gaps, and {i} is missing")
        }
    };
    bail!("gpt.tokenizer.bad_vocab", detail = detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GPT-2's `bytes_to_unicode` from encoder.py, line by line.
    fn bytes_to_unicode() -> Vec<(u8, char)> {
        let mut bs: Vec<u32> = (0x21..=0x7E)
            .chain(0xA1..=0xAC)
            .chain(0xAE..=0xFF)
            .collect();
        let mut cs = bs.clone();
        let mut n = 0;
        for b in 0..256 {
            if !bs.contains(&b) {
                bs.push(b);
                cs.push(256 + n);
                n += 1;
            }
        }
        let pairs = bs.iter().zip(&cs);
        pairs
            .map(|(&b, &c)| (b as u8, char::from_u32(c).unwrap()))
            .collect()
    }

    #[test]
    fn the_byte_map_is_gpt2s_bytes_to_unicode() {
        let gpt2 = bytes_to_unicode();
        assert_eq!(gpt2.len(), 256);
        for (b, c) in gpt2 {
            assert_eq!(BYTE_CHARS[b as usize], c, "byte {b}");
            assert_eq!(token_to_bytes(&c.to_string()), Some(vec![b]));
        }
        let mut distinct = BYTE_CHARS.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 256);
        // The characters GPT-2's vocab.json is known for.
        assert_eq!(BYTE_CHARS[b' ' as usize], 'Ġ');
        assert_eq!(BYTE_CHARS[b'\n' as usize], 'Ċ');
        assert_eq!(BYTE_CHARS[0xAD], 'Ń');
        assert_eq!(token_to_bytes("Ġthe"), Some(b" the".to_vec()));
        assert_eq!(token_to_bytes("a b"), None);
        assert_eq!(token_to_bytes("ń"), None);
    }

    fn split(text: &str) -> Vec<&str> {
        pre_split(text).collect()
    }

    /// Each expected split follows the pattern's alternatives by hand: the first that
    /// matches at a position wins, `+` is greedy, and `\s+(?!\S)` gives back the last
    /// whitespace char when a non-space follows.
    #[test]
    fn pre_split_follows_gpt2s_pattern() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            (" ", &[" "]),
            ("Hello world", &["Hello", " world"]),
            ("a  b\n\n\n c", &["a", " ", " b", "\n\n\n", " c"]),
            ("   x", &["  ", " x"]),
            ("x   ", &["x", "   "]),
            ("\t\n", &["\t\n"]),
            (" \tx", &[" ", "\t", "x"]),
            ("x\r\ny", &["x", "\r", "\n", "y"]),
            // Contractions: lower case only; " '" is a symbol run with its space.
            (
                "'s 're 've I'M don't",
                &["'s", " '", "re", " '", "ve", " I", "'", "M", " don", "'t"],
            ),
            ("''s 'll'd", &["''", "s", " '", "ll", "'d"]),
            (
                "12345 3.14159 1,000",
                &["12345", " 3", ".", "14159", " 1", ",", "000"],
            ),
            ("Hi!!! ...ok", &["Hi", "!!!", " ...", "ok"]),
            ("foo_bar", &["foo", "_", "bar"]),
            // U+0301 is a combining mark (Mn): not \p{L}, so it leaves the word.
            ("e\u{301}t\u{e9}", &["e", "\u{301}", "t\u{e9}"]),
            // Ⅻ is a letter number (Nl), ² another number (No): \p{N}, not \p{L}.
            ("x \u{216B}\u{b2}", &["x", " \u{216B}\u{b2}"]),
            // White_Space beyond ASCII: U+3000, U+00A0 and U+0085 are \s; U+200B is not.
            (
                "a\u{3000}b\u{a0} c\u{85}",
                &["a", "\u{3000}", "b", "\u{a0}", " c", "\u{85}"],
            ),
            ("a\u{200b}b", &["a", "\u{200b}", "b"]),
            ("中文，日本語", &["中文", "，", "日本語"]),
        ];
        for (text, want) in cases {
            assert_eq!(split(text), *want, "{text:?}");
        }
    }

    /// `char::is_alphabetic` is not \p{L}: it takes vowel signs (Mc, Mn) and Ⓐ (So).
    #[test]
    fn letters_are_the_general_category_not_alphabetic() {
        for c in ['\u{93f}', '\u{941}', '\u{24b6}'] {
            assert!(c.is_alphabetic(), "{c:?}");
            assert_eq!(class(c), Class::Other, "{c:?}");
        }
        assert_eq!(split("हिन्दी"), ["ह", "ि", "न", "्", "द", "ी"]);
    }

    /// A vocab of the 256 bytes (id = byte) and one token per merge (ids 256, 257, …).
    fn tiny(merges: &[&str]) -> Bpe {
        let bytes = BYTE_CHARS.iter().map(|c| c.to_string());
        let joined = merges.iter().map(|m| m.replace(' ', ""));
        let tokens: Vec<String> = bytes.chain(joined).collect();
        let ids = tokens.iter().enumerate().map(|(i, s)| (&s[..], i));
        let vocab = serde_json::to_string(&ids.collect::<HashMap<_, _>>()).unwrap();
        let merges = format!("#version: 0.2\n{}\n\n", merges.join("\n"));
        Bpe::from_vocab_merges(&vocab, &merges).unwrap()
    }

    #[test]
    fn merges_go_by_rank_then_leftmost() {
        let bpe = tiny(&["a a"]);
        assert_eq!(bpe.len(), 257);
        assert_eq!(bpe.encode("aaaa"), [256, 256]);
        assert_eq!(bpe.encode("aaa"), [256, 97]);
        assert_eq!(tiny(&["a a", "aa a"]).encode("aaa"), [257]);
        assert_eq!(tiny(&["b c", "a b"]).encode("abc"), [97, 256]);
        assert_eq!(tiny(&["a b", "b c"]).encode("abc"), [256, 99]);
        // A merge never crosses a piece: "a" and " a" are two pieces.
        assert_eq!(tiny(&["a Ġ"]).encode("a a"), [97, 32, 97]);
        assert_eq!(tiny(&["Ġ a"]).encode("a a"), [97, 256]);
        let long = "a".repeat(100_001);
        let ids = tiny(&["a a", "aa aa"]).encode(&long);
        assert_eq!(ids.len(), 25_001);
        assert_eq!(ids[24_999..], [257, 97]);
    }

    #[test]
    fn pieces_show_lone_bytes_and_unknown_ids() {
        let bpe = tiny(&["Ġ ð", "Ã ©"]);
        assert_eq!(bpe.piece(b'a' as u32), "a");
        assert_eq!(bpe.piece(0xF0), "<0xF0>");
        assert_eq!(bpe.piece(256), " <0xF0>");
        assert_eq!(bpe.piece(257), "é");
        assert_eq!(bpe.encode("é"), [257]);
        assert_eq!(bpe.piece(258), "\u{FFFD}");
        assert_eq!(bpe.token_bytes(258), b"");
        let crab = bpe.encode(" 🦀");
        assert_eq!(crab, [256, 0x9F, 0xA6, 0x80]);
        assert_eq!(bpe.decode(&crab), " 🦀");
        assert_eq!(bpe.decode(&crab[1..]), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(bpe.decode(&[b'x' as u32, 999]), "x\u{FFFD}");
    }

    fn json_err(json: &str) -> String {
        Bpe::from_tokenizer_json(json).unwrap_err().to_string()
    }

    fn files_err(vocab: &str, merges: &str) -> (&'static str, String) {
        let e = Bpe::from_vocab_merges(vocab, merges).unwrap_err();
        (e.code(), e.to_string())
    }

    /// vocab.json of the 256 bytes (id = byte), with `extra` entries appended as is.
    fn bytes_vocab(extra: &str) -> String {
        let entries = BYTE_CHARS.iter().enumerate();
        let entries: Vec<String> = entries
            .map(|(i, c)| format!("{:?}: {i}", c.to_string()))
            .collect();
        format!("{{{}{extra}}}", entries.join(", "))
    }

    #[test]
    fn bad_tokenizer_json_says_what_is_wrong() {
        assert!(json_err("{").starts_with("tokenizer.json is not valid JSON: "));
        assert_eq!(
            json_err(r#"{"model": {"type": "WordPiece", "vocab": {}}}"#),
            "tokenizer.json's model is WordPiece, not byte-level BPE: only GPT-2's tokenizer is supported"
        );
        assert!(json_err(r#"{"model": {"vocab": {}}}"#).contains("model is untyped"));
        assert!(json_err(r#"{"vocab": {}}"#).contains("model is missing"));
        let split =
            r#"{"model": {"type": "BPE", "vocab": {}}, "pre_tokenizer": {"type": "Sequence"}}"#;
        assert!(json_err(split).contains("model is BPE with a Sequence pre-tokenizer"));
        let ok = bytes_vocab(r#", "ab": 256"#);
        let pairs = format!(
            r#"{{"model": {{"type": "BPE", "vocab": {ok}, "merges": [["a", "b"], ["a"]]}}}}"#
        );
        assert_eq!(
            json_err(&pairs),
            "merge 2 is not two tokens separated by a space: [\"a\"]"
        );
        let untyped = format!(r#"{{"model": {{"vocab": {ok}, "merges": ["a b"]}}}}"#);
        assert_eq!(
            Bpe::from_tokenizer_json(&untyped).unwrap().encode("ab"),
            [256]
        );
        let added = |id: u32, content: &str| {
            let model = format!(r#""model": {{"type": "BPE", "vocab": {ok}, "merges": ["a b"]}}"#);
            format!(
                r#"{{{model}, "added_tokens": [{{"id": {id}, "content": "{content}", "special": true}}]}}"#
            )
        };
        let bpe = Bpe::from_tokenizer_json(&added(257, "<|endoftext|>")).unwrap();
        assert_eq!(
            (bpe.len(), bpe.piece(257)),
            (258, "<|endoftext|>".to_string())
        );
        assert_eq!(bpe.encode("ab<|endoftext|>")[..2], [256, b'<' as u32]);
        assert!(Bpe::from_tokenizer_json(&added(256, "ab")).is_ok());
        assert!(json_err(&added(258, "x")).ends_with("and 257 is missing"));
        assert!(
            json_err(&added(256, "x")).ends_with("added token \"x\" has id 256, which is \"ab\"")
        );
    }

    #[test]
    fn bad_vocab_and_merges_say_what_is_wrong() {
        assert_eq!(files_err("{", "").0, "gpt.tokenizer.not_json");
        assert_eq!(files_err(r#"{"a": "x"}"#, "").0, "gpt.tokenizer.bad_vocab");
        assert_eq!(
            files_err(&bytes_vocab(r#", "ab": 257"#), "").1,
            "the tokenizer's vocab: ids must run from 0 without gaps, and 256 is missing"
        );
        assert_eq!(
            files_err(&bytes_vocab(r#", "ab": 255"#), "").1,
            "the tokenizer's vocab: id 255 is given to both \"ab\" and \"ÿ\""
        );
        assert_eq!(
            files_err(&bytes_vocab(r#", "a b": 256"#), "").1,
            "the tokenizer's vocab: \"a b\" is not spelled in GPT-2's byte alphabet"
        );
        assert_eq!(
            files_err(r#"{"a": 0}"#, "").1,
            "the tokenizer's vocab: byte 0x00 ('Ā') has no token"
        );
        let ok = bytes_vocab(r#", "ab": 256"#);
        assert_eq!(
            files_err(&ok, "#version: 0.2\na b\nab\n").1,
            "merge 3 is not two tokens separated by a space: \"ab\""
        );
        assert_eq!(files_err(&ok, "a b c").0, "gpt.tokenizer.bad_merge");
        assert_eq!(
            files_err(&ok, "#version: 0.2\na b\nb a\n").1,
            "merge 3 makes or uses a token not in the vocab: \"ba\""
        );
        assert_eq!(
            files_err(&ok, "a b\nb ŉ").1,
            "merge 2 makes or uses a token not in the vocab: \"ŉ\""
        );
    }
}
