//! resume_fixture DIR: what tests/tools/test_export_nanogpt.py hands to PyTorch. For two
//! models (with and without biases) it trains 10 AdamW steps and writes, per model NAME:
//!   NAME.state      the training state after step 5 (what `gpt train --state` writes)
//!   NAME.grads      the gradients of steps 6..10 (safetensors, "<tensor>@<step>")
//!   NAME.after      the weights after step 10 (a checkpoint)
//! The test exports NAME.state to nanoGPT's ckpt.pt, lets torch's AdamW take steps 6..10
//! with NAME.grads from the loaded optimizer state, and compares with NAME.after.
//!
//!   cargo run --example resume_fixture -- target/resume_fixture

use attention_playground::gpt::{state, Hyperparams, Trainer};
use std::path::Path;

/// The state is saved after this many steps, and the run goes on to twice as many.
const SAVED_AT: usize = 5;

fn text() -> String {
    "First Citizen: Before we proceed any further, hear me speak. Speak, speak! ".repeat(40)
}

/// A safetensors file of f32 tensors (name, shape, values), in the order given.
fn safetensors(tensors: &[(String, Vec<usize>, Vec<f32>)]) -> Vec<u8> {
    let mut header = serde_json::Map::new();
    let mut offset = 0;
    for (name, shape, values) in tensors {
        let end = offset + 4 * values.len();
        header.insert(
            name.clone(),
            serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [offset, end]}),
        );
        offset = end;
    }
    let mut head = serde_json::to_vec(&header).expect("json serialises");
    head.resize(head.len().next_multiple_of(8), b' ');
    let mut out = (head.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&head);
    for (_, _, values) in tensors {
        out.extend(values.iter().flat_map(|x| x.to_le_bytes()));
    }
    out
}

fn main() -> Result<(), String> {
    let dir = std::env::args().nth(1).ok_or("usage: resume_fixture DIR")?;
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, bias) in [("bias", true), ("nobias", false)] {
        let hp = Hyperparams {
            batch_size: 4,
            bias,
            lr: 3e-3,
            weight_decay: 0.1,
            ..Hyperparams::preset("tiny").map_err(|e| e.to_string())?
        };
        let mut tr = Trainer::new(&text(), hp, 7).map_err(|e| e.to_string())?;
        let mut grads = Vec::new();
        for step in 1..=2 * SAVED_AT {
            tr.step();
            if step == SAVED_AT {
                let path = dir.join(format!("{name}.state"));
                std::fs::write(&path, state::to_bytes(&tr)).map_err(|e| e.to_string())?;
            }
            if step > SAVED_AT {
                for spec in &tr.model.index.specs {
                    let g = tr.model.grads[spec.range.clone()].to_vec();
                    grads.push((format!("{}@{step}", spec.name), spec.shape.clone(), g));
                }
            }
        }
        let write = |ext: &str, bytes: Vec<u8>| {
            std::fs::write(dir.join(format!("{name}.{ext}")), bytes).map_err(|e| e.to_string())
        };
        write("grads", safetensors(&grads))?;
        write("after", tr.to_bytes())?;
    }
    println!("wrote {}", dir.display());
    Ok(())
}
