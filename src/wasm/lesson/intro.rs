//! §1 bindings: the count bigram on the page's corpus, parameter counts,
//! the examples inside one chunk.

use wasm_bindgen::prelude::*;

use super::reply;
use crate::lesson::bigram::{param_counts, training_examples, Bigram};
use crate::lesson::init_loss::initial_losses;
use crate::wasm::{thrown, to_js};

/// A count bigram built once from the corpus text the page fetched.
#[wasm_bindgen]
pub struct BigramLab {
    model: Bigram,
}

#[wasm_bindgen]
impl BigramLab {
    /// `new BigramLab(corpusText)`: counts every consecutive character pair;
    /// throws when the text has fewer than 2 characters or too many symbols.
    #[wasm_bindgen(constructor)]
    pub fn new(corpus: &str) -> Result<BigramLab, JsValue> {
        let model = Bigram::from_corpus(corpus).map_err(|e| thrown(&e))?;
        Ok(BigramLab { model })
    }

    /// `BigramLab.fromTable(bytes)`: the model `table()` wrote (www/data/bigram.bin, built
    /// with the site), without fetching and counting the corpus; throws
    /// `lesson.bigram.table` for any other bytes.
    #[wasm_bindgen(js_name = fromTable)]
    pub fn from_table(bytes: &[u8]) -> Result<BigramLab, JsValue> {
        let model = Bigram::from_table(bytes).map_err(|e| thrown(&e))?;
        Ok(BigramLab { model })
    }

    /// The model as bytes (`Bigram::to_table`), for `fromTable`.
    pub fn table(&self) -> Vec<u8> {
        self.model.to_table()
    }

    /// `{ vocab_size, vocab: string[] }` in index order (itos).
    pub fn vocab(&self) -> Result<JsValue, JsValue> {
        #[derive(serde::Serialize)]
        struct Vocab {
            vocab_size: usize,
            vocab: Vec<String>,
        }
        Ok(to_js(&Vocab {
            vocab_size: self.model.vocab_size(),
            vocab: self.model.vocab().iter().map(|c| c.to_string()).collect(),
        })?)
    }

    /// `compare(["hou", "you", "thou"], 3)` -> `{ vocab_size, all_identical, words: [{ word,
    /// indices, last_char, last_index, logits, top: [{ char, index, count, prob, logit }],
    /// identical_to_first }] }`; throws naming a character outside the vocabulary.
    pub fn compare(&self, words: Vec<String>, k: usize) -> Result<JsValue, JsValue> {
        reply(self.model.compare(&words, k))
    }

    /// `initialLosses(32, seed)` -> `{ vocab_size, n_embd, uniform (ln V), bigram_init,
    /// split_init, count_model }`: mean cross-entropy over the corpus at PyTorch's init.
    #[wasm_bindgen(js_name = initialLosses)]
    pub fn initial_losses(&self, n_embd: usize, seed: u32) -> Result<JsValue, JsValue> {
        reply(initial_losses(&self.model, n_embd, seed.into()))
    }
}

exports! {
    #[doc = " `bigramParams(65, 32)` -> `{ vocab_size, n_embd, bigram, wte, lm_head_weight,"]
    #[doc = " lm_head_bias, split, initial_loss, init_bound }` (4225, 4225, ln 65, 1/√32)."]
    bigramParams = fn bigram_params(vocab_size: u32, n_embd: u32)
        => param_counts(vocab_size.into(), n_embd.into());

    #[doc = " `trainingExamples(\"Let's hea\")` -> `[{ context, target }]`, one per position."]
    trainingExamples = fn training_examples_js(chunk: &str) => training_examples(chunk);
}
