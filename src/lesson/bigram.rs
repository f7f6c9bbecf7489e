//! §1 Why attention: a bigram's last-position logits depend on the last
//! character only, so `hou`, `you` and `thou` get bit-identical predictions.
//!
//! V = vocabulary size (the corpus's distinct characters, sorted, as
//! `sorted(set(text))`), T = word length, n_embd = embedding size.
//! The model is the count table N (V, V), N[a][b] = how often b follows a in
//! the corpus, read as log-probabilities with add-one smoothing:
//! logits[a][b] = ln((N[a][b] + 1) / (Σ_b' N[a][b'] + V)). Smoothing keeps
//! every logit finite; the trained `Embedding(V, V)` bigram is the same table.

use serde::Serialize;

use super::error::lesson_error;
use super::{fail, LessonError};
use crate::largest_first::largest_first;
use crate::tensor::Matrix;

/// Most words compared at once, and longest word.
pub const MAX_WORDS: usize = 16;
pub const MAX_WORD_LEN: usize = 64;
/// Largest corpus (characters) and vocabulary (the table is V × V counts).
pub const MAX_CORPUS: usize = 10_000_000;
pub const MAX_VOCAB: usize = 1024;

/// The first bytes of a table file (`Bigram::to_table`), and its format.
const TABLE_MAGIC: &[u8; 4] = b"APBG";
const TABLE_FORMAT: u32 = 1;

/// A count-based character bigram: vocab (V) and counts N (V, V) row-major.
#[derive(Clone, Debug)]
pub struct Bigram {
    vocab: Vec<char>,
    counts: Vec<u64>,
}

/// One candidate next character: p = e^logit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextChar {
    pub char: String,
    pub index: usize,
    pub count: u64,
    pub prob: f64,
    pub logit: f64,
}

/// What the bigram says after one word.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WordReport {
    pub word: String,
    /// (T,) the word encoded: idx[t] = stoi[word[t]].
    pub indices: Vec<usize>,
    pub last_char: String,
    pub last_index: usize,
    /// (V,) logits at the last position: row `last_index` of the table.
    pub logits: Vec<f64>,
    /// The k most likely next characters, most likely first.
    pub top: Vec<NextChar>,
    /// Are these logits bit for bit those of the first word?
    pub identical_to_first: bool,
}

/// Several words side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WordsComparison {
    pub vocab_size: usize,
    pub words: Vec<WordReport>,
    /// True when every word's last-position logits are bit-identical.
    pub all_identical: bool,
}

impl Bigram {
    /// Counts N[a][b] over each consecutive pair (a, b) of `corpus`.
    pub fn from_corpus(corpus: &str) -> Result<Bigram, LessonError> {
        let n = corpus.chars().count();
        if !(2..=MAX_CORPUS).contains(&n) {
            return fail!("lesson.bigram.corpus_len", max = MAX_CORPUS, n);
        }
        // The sorted set of characters in one pass: ASCII through a table, the rest (few)
        // kept sorted as they come. Sorting the whole corpus instead took ~100 ms in the page
        // for the default corpus (1 M characters): a long task on every load.
        let mut ascii = [false; 128];
        let mut other: Vec<char> = Vec::new();
        for c in corpus.chars() {
            if c.is_ascii() {
                ascii[c as usize] = true;
            } else if let Err(at) = other.binary_search(&c) {
                other.insert(at, c);
            }
        }
        let vocab: Vec<char> = (0..128u8)
            .filter(|&b| ascii[b as usize])
            .map(char::from)
            .chain(other)
            .collect();
        let v = vocab.len();
        if v > MAX_VOCAB {
            return fail!("lesson.bigram.vocab", v, max = MAX_VOCAB);
        }
        // ASCII index by table, the rest by binary search (vocab stays sorted: ASCII first).
        let mut ascii_index = [usize::MAX; 128];
        for (i, &c) in vocab.iter().enumerate().filter(|(_, c)| c.is_ascii()) {
            ascii_index[c as usize] = i;
        }
        let mut counts = vec![0u64; v * v];
        let mut prev: Option<usize> = None;
        for c in corpus.chars() {
            let i = if c.is_ascii() {
                ascii_index[c as usize]
            } else {
                vocab.binary_search(&c).expect("every char is in vocab")
            };
            if let Some(p) = prev {
                counts[p * v + i] += 1;
            }
            prev = Some(i);
        }
        Ok(Bigram { vocab, counts })
    }

    /// The model as bytes, for a page that should not fetch the corpus to count it
    /// (www/data/bigram.bin, written when the site is built by tools/bigram-table.mjs):
    /// `APBG`, then as u32 little-endian the format (1), V and the vocabulary's UTF-8
    /// length, the vocabulary (UTF-8, in index order), then the V × V counts (u32 LE,
    /// row-major). `from_table` reads it back to the same model, bit for bit.
    pub fn to_table(&self) -> Vec<u8> {
        let vocab: String = self.vocab.iter().collect();
        let mut out = Vec::with_capacity(16 + vocab.len() + 4 * self.counts.len());
        out.extend_from_slice(TABLE_MAGIC);
        for n in [TABLE_FORMAT, self.vocab.len() as u32, vocab.len() as u32] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(vocab.as_bytes());
        for &c in &self.counts {
            // At most MAX_CORPUS − 1 pairs: every count fits in a u32.
            out.extend_from_slice(&(c as u32).to_le_bytes());
        }
        out
    }

    /// The model `to_table` wrote; any other bytes (cut short, another format, a
    /// vocabulary not sorted and distinct, more pairs than a corpus can hold) are
    /// `lesson.bigram.table`.
    pub fn from_table(bytes: &[u8]) -> Result<Bigram, LessonError> {
        let bad = || fail!("lesson.bigram.table");
        let word = |i: usize| -> Option<usize> {
            let b = bytes.get(4 + 4 * i..8 + 4 * i)?;
            Some(u32::from_le_bytes(b.try_into().ok()?) as usize)
        };
        if bytes.get(..4) != Some(TABLE_MAGIC.as_slice()) || word(0) != Some(TABLE_FORMAT as usize)
        {
            return bad();
        }
        let (Some(v), Some(len)) = (word(1), word(2)) else {
            return bad();
        };
        if !(1..=MAX_VOCAB).contains(&v) || len > 4 * v {
            return bad();
        }
        let Some(text) = bytes
            .get(16..16 + len)
            .and_then(|b| std::str::from_utf8(b).ok())
        else {
            return bad();
        };
        let vocab: Vec<char> = text.chars().collect();
        let body = &bytes[16 + len..];
        if vocab.len() != v || vocab.windows(2).any(|w| w[0] >= w[1]) || body.len() != 4 * v * v {
            return bad();
        }
        let counts: Vec<u64> = body
            .chunks_exact(4)
            .map(|b| u64::from(u32::from_le_bytes(b.try_into().expect("4 bytes"))))
            .collect();
        if counts.iter().sum::<u64>() >= MAX_CORPUS as u64 {
            return bad();
        }
        Ok(Bigram { vocab, counts })
    }

    /// The vocabulary in index order (itos).
    pub fn vocab(&self) -> &[char] {
        &self.vocab
    }

    /// V, the number of distinct characters.
    pub fn vocab_size(&self) -> usize {
        self.vocab.len()
    }

    /// N[a][b]: how often character b follows character a in the corpus.
    pub fn count(&self, a: usize, b: usize) -> u64 {
        self.counts[a * self.vocab.len() + b]
    }

    /// idx[t] = stoi[word[t]]; errors name the first character not in the vocabulary.
    pub fn encode(&self, word: &str) -> Result<Vec<usize>, LessonError> {
        word.chars()
            .map(|c| {
                self.vocab.binary_search(&c).map_err(|_| {
                    lesson_error!(
                        "lesson.bigram.not_in_vocab",
                        char = crate::error::quoted(c),
                        hex = format!("{:04X}", c as u32),
                        n = self.vocab.len()
                    )
                })
            })
            .collect()
    }

    /// (V,) logits[a][b] = ln((N[a][b] + 1) / (Σ_b' N[a][b'] + V)).
    pub fn logits_row(&self, a: usize) -> Vec<f64> {
        let v = self.vocab.len();
        let row = &self.counts[a * v..(a + 1) * v];
        let total = row.iter().sum::<u64>() as f64 + v as f64;
        row.iter()
            .map(|&n| ((n as f64 + 1.0) / total).ln())
            .collect()
    }

    /// (T,) idx -> (T, V): logits[t] = table[idx[t]]; position t reads its own character only.
    pub fn forward(&self, idx: &[usize]) -> Matrix {
        let v = self.vocab.len();
        let mut out = Matrix::zeros(idx.len(), v);
        for (t, &i) in idx.iter().enumerate() {
            out.row_mut(t).copy_from_slice(&self.logits_row(i));
        }
        out
    }

    /// The k largest logits of row a (ties: lower index first), with p = e^logit.
    pub fn top_next(&self, a: usize, k: usize) -> Vec<NextChar> {
        let v = self.vocab.len();
        let logits = self.logits_row(a);
        largest_first(v, k, |x, y| logits[x].total_cmp(&logits[y]))
            .into_iter()
            .map(|b| NextChar {
                char: self.vocab[b].to_string(),
                index: b,
                count: self.counts[a * v + b],
                prob: logits[b].exp(),
                logit: logits[b],
            })
            .collect()
    }

    /// For each word, logits[T−1] and the top-k next characters; bit-compares them.
    pub fn compare(&self, words: &[String], k: usize) -> Result<WordsComparison, LessonError> {
        if words.is_empty() || words.len() > MAX_WORDS {
            return fail!("lesson.bigram.words", max = MAX_WORDS);
        }
        let k = k.clamp(1, self.vocab.len());
        let mut reports: Vec<WordReport> = Vec::with_capacity(words.len());
        for word in words {
            let n = word.chars().count();
            if n == 0 || n > MAX_WORD_LEN {
                return fail!("lesson.bigram.word_len", max = MAX_WORD_LEN, word, n);
            }
            let indices = self.encode(word)?;
            let logits_all = self.forward(&indices); // (T, V)
            let last = indices.len() - 1;
            let logits = logits_all.row(last).to_vec();
            let last_index = indices[last];
            let identical_to_first = match reports.first() {
                None => true,
                Some(first) => bits(&first.logits) == bits(&logits),
            };
            reports.push(WordReport {
                word: word.clone(),
                last_char: self.vocab[last_index].to_string(),
                last_index,
                top: self.top_next(last_index, k),
                logits,
                indices,
                identical_to_first,
            });
        }
        let all_identical = reports.iter().all(|r| r.identical_to_first);
        Ok(WordsComparison {
            vocab_size: self.vocab.len(),
            words: reports,
            all_identical,
        })
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Parameter counts of the bigram (V·V) and the split model (V·n_embd + n_embd·V + V).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamCounts {
    pub vocab_size: u64,
    pub n_embd: u64,
    /// `Embedding(V, V)`: V·V.
    pub bigram: u64,
    /// `Embedding(V, n_embd)` (wte): V·n_embd.
    pub wte: u64,
    /// `Linear(n_embd, V)` weight (lm_head): n_embd·V.
    pub lm_head_weight: u64,
    /// `Linear(n_embd, V)` bias: V.
    pub lm_head_bias: u64,
    /// wte + lm_head weight + bias.
    pub split: u64,
    /// ln V: the loss of a uniform guess, where small initial logits start.
    pub initial_loss: f64,
    /// 1/√n_embd: `nn.Linear` draws its weights from U(−bound, bound).
    pub init_bound: f64,
}

/// Counts parameters for vocabulary V and embedding n_embd (each 1..=100 000).
pub fn param_counts(vocab_size: u64, n_embd: u64) -> Result<ParamCounts, LessonError> {
    // u64, not usize: on wasm32 a usize would cut the number the learner typed.
    let max = 100_000u64;
    if vocab_size == 0 || vocab_size > max {
        return fail!("lesson.size.vocab_size", max, n = vocab_size);
    }
    if n_embd == 0 || n_embd > max {
        return fail!("lesson.size", name = "n_embd", max, n = n_embd);
    }
    let (v, c) = (vocab_size, n_embd);
    Ok(ParamCounts {
        vocab_size: v,
        n_embd: c,
        bigram: v * v,
        wte: v * c,
        lm_head_weight: c * v,
        lm_head_bias: v,
        split: v * c + c * v + v,
        initial_loss: (v as f64).ln(),
        init_bound: 1.0 / (c as f64).sqrt(),
    })
}

/// One training example inside a chunk: after `context` the answer is `target`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Example {
    pub context: String,
    pub target: String,
}

/// A chunk of T + 1 characters holds T examples: x = chunk[..T], y = chunk[1..];
/// example t reads x[0..=t] and must answer y[t] = chunk[t + 1].
pub fn training_examples(chunk: &str) -> Result<Vec<Example>, LessonError> {
    let chars: Vec<char> = chunk.chars().collect();
    if chars.len() < 2 || chars.len() > MAX_WORD_LEN + 1 {
        return fail!(
            "lesson.bigram.chunk",
            max = MAX_WORD_LEN + 1,
            n = chars.len()
        );
    }
    Ok((0..chars.len() - 1)
        .map(|t| Example {
            context: chars[..=t].iter().collect(),
            target: chars[t + 1].to_string(),
        })
        .collect())
}
