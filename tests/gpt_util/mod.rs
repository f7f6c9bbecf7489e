//! Helpers shared by the tests/gpt_*.rs files: fixture loading and closeness checks that
//! print the first differing values; `reference`, the replay of a PyTorch fixture.
#![allow(dead_code)]

pub mod reference;

use attention_playground::gpt::checkpoint::{from_bytes, read_f32_tensors};
use attention_playground::gpt::{Gpt, Vocab};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

pub fn fixture_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[cfg(not(target_arch = "wasm32"))]
pub fn read(dir: &str, file: &str) -> Vec<u8> {
    let p = fixture_dir(dir).join(file);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The browser has no file system: the tiny fixture's files are compiled in.
#[cfg(target_arch = "wasm32")]
pub fn read(dir: &str, file: &str) -> Vec<u8> {
    macro_rules! tiny {
        ($($f:literal),+) => {
            match (dir, file) {
                $(("gpt_tiny", $f) => include_bytes!(concat!("../fixtures/gpt_tiny/", $f)).to_vec(),)+
                _ => panic!("{dir}/{file}: not compiled into the wasm tests"),
            }
        };
    }
    tiny!(
        "init.safetensors",
        "grads.safetensors",
        "after.safetensors",
        "batches.json",
        "expected.json"
    )
}

pub fn json(dir: &str, file: &str) -> Value {
    serde_json::from_slice(&read(dir, file)).expect("fixture JSON parses")
}

pub fn load_model(dir: &str, file: &str) -> (Gpt, Vocab) {
    from_bytes(&read(dir, file)).unwrap_or_else(|e| panic!("{dir}/{file}: {e}"))
}

pub fn tensors(dir: &str, file: &str) -> HashMap<String, (Vec<usize>, Vec<f32>)> {
    read_f32_tensors(&read(dir, file)).expect("fixture safetensors")
}

pub fn f32s(v: &Value) -> Vec<f32> {
    fn walk(v: &Value, out: &mut Vec<f32>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            x => out.push(x.as_f64().expect("number") as f32),
        }
    }
    let mut out = Vec::new();
    walk(v, &mut out);
    out
}

pub fn u32s(v: &Value) -> Vec<u32> {
    f32s(v).into_iter().map(|x| x as u32).collect()
}

/// max |got − want| / scale; on failure prints the first few differing values.
/// scale = max(|want|) (so the tolerance is relative to the tensor's largest value).
pub fn assert_close(what: &str, got: &[f32], want: &[f32], rel_tol: f32) -> f32 {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let scale = want.iter().fold(0.0f32, |m, &x| m.max(x.abs())).max(1e-30);
    let mut worst = 0.0f32;
    let mut bad = Vec::new();
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let d = (g - w).abs() / scale;
        worst = worst.max(if d.is_nan() { f32::INFINITY } else { d });
        if (d > rel_tol || d.is_nan()) && bad.len() < 5 {
            bad.push(format!(
                "[{i}] got {g:e} want {w:e} (|diff|/max|want| {d:e})"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{what}: max |diff|/max|want| = {worst:e} > {rel_tol:e}; first differing:\n  {}",
        bad.join("\n  ")
    );
    worst
}

/// A checkpoint whose header JSON is rewritten by `edit` (the data is kept).
pub fn with_header(bytes: &[u8], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    edit(&mut header);
    let mut h = serde_json::to_vec(&header).unwrap();
    h.resize(h.len().next_multiple_of(8), b' ');
    let mut out = (h.len() as u64).to_le_bytes().to_vec();
    out.extend(h);
    out.extend(&bytes[8 + n..]);
    out
}
