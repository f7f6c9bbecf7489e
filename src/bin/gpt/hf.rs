//! `--ckpt DIR`: a Hugging Face GPT-2 folder (config.json, model.safetensors, and
//! tokenizer.json or vocab.json + merges.txt), next to our own checkpoint files; and
//! `gpt tokenize`.

use super::args::Args;
use attention_playground::gpt::bpe::Bpe;
use attention_playground::gpt::{checkpoint, hf, Gpt, GptError, Vocab};
use serde_json::json;
use std::path::Path;

/// A model and the tokenizer its text goes through.
#[allow(clippy::large_enum_variant)] // one value per run
pub(crate) enum Loaded {
    /// Our checkpoint: one token per character.
    Ours(Gpt, Vocab),
    /// A Hugging Face GPT-2 folder: byte-level BPE.
    Hf(Gpt, Bpe),
}

impl Loaded {
    pub(crate) fn model(&self) -> &Gpt {
        match self {
            Loaded::Ours(m, _) | Loaded::Hf(m, _) => m,
        }
    }

    pub(crate) fn model_mut(&mut self) -> &mut Gpt {
        match self {
            Loaded::Ours(m, _) | Loaded::Hf(m, _) => m,
        }
    }

    pub(crate) fn encode(&self, text: &str) -> Result<Vec<u32>, String> {
        match self {
            Loaded::Ours(_, vocab) => vocab.encode(text).map_err(|e| e.to_string()),
            Loaded::Hf(_, bpe) => Ok(bpe.encode(text)),
        }
    }

    /// The text of ids (a BPE token may hold part of a character: decoded together).
    pub(crate) fn decode(&self, ids: &[u32]) -> String {
        match self {
            Loaded::Ours(_, vocab) => vocab.decode(ids),
            Loaded::Hf(_, bpe) => bpe.decode(ids),
        }
    }

    /// Each id's text: a character, or a BPE token's bytes as text.
    pub(crate) fn pieces(&self, ids: &[u32]) -> Vec<String> {
        match self {
            Loaded::Ours(_, vocab) => ids
                .iter()
                .map(|&i| vocab.chars[i as usize].to_string())
                .collect(),
            Loaded::Hf(_, bpe) => ids.iter().map(|&i| bpe.piece(i)).collect(),
        }
    }
}

/// `--ckpt`: a folder is a Hugging Face GPT-2, a file our checkpoint.
pub(crate) fn load_any(a: &Args) -> Result<Loaded, String> {
    let path = a.required("ckpt")?;
    let at = |e: &dyn std::fmt::Display| format!("{path}: {e}");
    if !Path::new(&path).is_dir() {
        let bytes = std::fs::read(&path).map_err(|e| at(&e))?;
        let (model, vocab) = checkpoint::from_bytes(&bytes).map_err(|e| at(&e))?;
        return Ok(Loaded::Ours(model, vocab));
    }
    let (cfg, bpe) = folder_tokenizer(&path)?;
    let at = |e: &dyn std::fmt::Display| format!("{path}: {e}");
    let weights = Path::new(&path).join("model.safetensors");
    let file = std::fs::File::open(&weights).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => at(&missing("model.safetensors")),
        _ => at(&e),
    })?;
    let mut loader = hf::HfLoader::new(&cfg).map_err(|e| at(&e))?;
    // streamed, as the page does: 1 MB at a time, never a second copy of the weights
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    loop {
        let chunk = std::io::BufRead::fill_buf(&mut reader).map_err(|e| at(&e))?;
        if chunk.is_empty() {
            break;
        }
        let n = chunk.len();
        loader.push(chunk).map_err(|e| at(&e))?;
        std::io::BufRead::consume(&mut reader, n);
    }
    let model = loader.finish().map_err(|e| at(&e))?;
    Ok(Loaded::Hf(model, bpe))
}

fn missing(file: &str) -> GptError {
    GptError::new("gpt.hf.missing_file", vec![("file", file.into())])
}

/// A GPT-2 folder's config and tokenizer (not its weights).
fn folder_tokenizer(path: &str) -> Result<(hf::HfConfig, Bpe), String> {
    let at = |e: &dyn std::fmt::Display| format!("{path}: {e}");
    let dir = Path::new(path);
    let text = |name: &str| -> Result<Option<String>, String> {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(s) => Ok(Some(s)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(at(&format!("{name}: {e}"))),
        }
    };
    let config = text("config.json")?.ok_or_else(|| at(&missing("config.json")))?;
    let cfg = hf::HfConfig::parse(&config).map_err(|e| at(&e))?;
    let bpe = hf::tokenizer(
        text("tokenizer.json")?.as_deref(),
        text("vocab.json")?.as_deref(),
        text("merges.txt")?.as_deref(),
        cfg.config.vocab_size,
    )
    .map_err(|e| at(&e))?;
    Ok((cfg, bpe))
}

/// `gpt tokenize --ckpt DIR|FILE --text TEXT`: `{"ids", "pieces"}`.
pub(crate) fn cmd_tokenize(a: &Args) -> Result<(), String> {
    let path = a.required("ckpt")?;
    let text = a.required("text")?;
    let (ids, pieces) = if Path::new(&path).is_dir() {
        let (_, bpe) = folder_tokenizer(&path)?;
        let ids = bpe.encode(&text);
        let pieces: Vec<String> = ids.iter().map(|&i| bpe.piece(i)).collect();
        (ids, pieces)
    } else {
        let loaded = load_any(a)?;
        let ids = loaded.encode(&text)?;
        let pieces = loaded.pieces(&ids);
        (ids, pieces)
    };
    println!("{}", json!({"ids": ids, "pieces": pieces}));
    Ok(())
}
