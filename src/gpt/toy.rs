//! The induction task: a text whose every line is a random string written twice
//! ("qzkfm" → "qzkfmqzkfm\n"). The first copy cannot be predicted; the second can, by a
//! model that finds the earlier occurrence of the current character and copies the one
//! after it: an induction head (`heads`). The string's length varies from line to line,
//! so that the earlier copy is not at a fixed distance a one-layer head could learn by
//! position alone.

use super::seeded_draws::Rng;
use super::{bail, GptError};

/// The characters a line is drawn from, in order: `alphabet` = the first n of them.
pub const SYMBOLS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// The generated text's shape; `Default` is the page's preset (it shows the induction
/// head forming within a couple of minutes of training in a 2-core laptop's browser).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepeatTask {
    /// How many distinct characters a line is drawn from (2..=62, `SYMBOLS`).
    pub alphabet: usize,
    /// Each line's string has min_len..=max_len characters, uniformly.
    pub min_len: usize,
    pub max_len: usize,
    /// Characters in the whole text (the last line may be cut).
    pub chars: usize,
}

impl Default for RepeatTask {
    fn default() -> RepeatTask {
        RepeatTask {
            alphabet: 52,
            min_len: 4,
            max_len: 16,
            chars: 400_000,
        }
    }
}

impl RepeatTask {
    /// Err naming the field out of range (also too few characters for one line).
    pub fn validate(&self) -> Result<(), GptError> {
        let max_alphabet = SYMBOLS.len();
        if !(2..=max_alphabet).contains(&self.alphabet) {
            bail!(
                "gpt.toy.alphabet",
                value = self.alphabet,
                max = max_alphabet
            );
        }
        if self.min_len == 0 || self.min_len > self.max_len || self.max_len > 1000 {
            bail!("gpt.toy.lengths", min = self.min_len, max = self.max_len);
        }
        let limit = super::data::MAX_TEXT_CHARS;
        if self.chars < 2 * self.max_len + 1 || self.chars > limit {
            bail!(
                "gpt.toy.chars",
                value = self.chars,
                need = 2 * self.max_len + 1,
                limit
            );
        }
        Ok(())
    }

    /// The text, the same for the same task and seed: lines of s + s + "\n", s a string
    /// of min_len..=max_len characters drawn uniformly from the first `alphabet` SYMBOLS.
    pub fn text(&self, seed: u64) -> Result<String, GptError> {
        self.validate()?;
        let symbols: Vec<char> = SYMBOLS.chars().take(self.alphabet).collect();
        let mut rng = Rng::new(seed);
        let mut out = String::with_capacity(self.chars);
        let mut s = String::with_capacity(self.max_len);
        let mut n = 0;
        while n < self.chars {
            let len = self.min_len + rng.below(self.max_len - self.min_len + 1);
            s.clear();
            s.extend((0..len).map(|_| symbols[rng.below(symbols.len())]));
            for ch in s.chars().chain(s.chars()).chain(std::iter::once('\n')) {
                if n == self.chars {
                    break;
                }
                out.push(ch);
                n += 1;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_a_string_written_twice() {
        let task = RepeatTask {
            alphabet: 5,
            min_len: 2,
            max_len: 6,
            chars: 5000,
        };
        let text = task.text(7).unwrap();
        assert_eq!(text.chars().count(), 5000);
        assert_eq!(text, task.text(7).unwrap());
        assert_ne!(text, task.text(8).unwrap());
        let lines: Vec<&str> = text.split('\n').collect();
        let mut lens = std::collections::BTreeSet::new();
        for line in &lines[..lines.len() - 1] {
            let (a, b) = line.split_at(line.len() / 2);
            assert_eq!(a, b, "{line:?}");
            assert!(a.chars().all(|c| "abcde".contains(c)), "{line:?}");
            lens.insert(a.len());
        }
        assert_eq!(lens, (2..=6).collect(), "every length occurs");
    }

    #[test]
    fn bad_shapes_are_refused() {
        let ok = RepeatTask::default();
        ok.validate().unwrap();
        let code = |t: RepeatTask| t.validate().unwrap_err().code();
        assert_eq!(code(RepeatTask { alphabet: 1, ..ok }), "gpt.toy.alphabet");
        assert_eq!(code(RepeatTask { alphabet: 63, ..ok }), "gpt.toy.alphabet");
        assert_eq!(code(RepeatTask { min_len: 0, ..ok }), "gpt.toy.lengths");
        assert_eq!(code(RepeatTask { min_len: 17, ..ok }), "gpt.toy.lengths");
        assert_eq!(code(RepeatTask { chars: 20, ..ok }), "gpt.toy.chars");
    }
}
