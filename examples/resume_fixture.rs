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
use safetensors::{tensor::TensorView, Dtype};
use std::path::Path;

/// The state is saved after this many steps, and the run goes on to twice as many.
const SAVED_AT: usize = 5;

fn text() -> String {
    "First Citizen: Before we proceed any further, hear me speak. Speak, speak! ".repeat(40)
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
        // (name, shape, f32 little-endian bytes) of every tensor of steps SAVED_AT+1..
        let mut grads: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
        for step in 1..=2 * SAVED_AT {
            tr.step();
            if step == SAVED_AT {
                let path = dir.join(format!("{name}.state"));
                std::fs::write(&path, state::to_bytes(&tr)).map_err(|e| e.to_string())?;
            }
            if step > SAVED_AT {
                for spec in &tr.model.index.specs {
                    let g = &tr.model.grads[spec.range.clone()];
                    let bytes = g.iter().flat_map(|x| x.to_le_bytes()).collect();
                    grads.push((format!("{}@{step}", spec.name), spec.shape.clone(), bytes));
                }
            }
        }
        let views = grads.iter().map(|(n, shape, bytes)| {
            let view = TensorView::new(Dtype::F32, shape.clone(), bytes).expect("sizes match");
            (n.as_str(), view)
        });
        let grads = safetensors::serialize(views, None).map_err(|e| e.to_string())?;
        let write = |ext: &str, bytes: Vec<u8>| {
            std::fs::write(dir.join(format!("{name}.{ext}")), bytes).map_err(|e| e.to_string())
        };
        write("grads", grads)?;
        write("after", tr.to_bytes())?;
    }
    println!("wrote {}", dir.display());
    Ok(())
}
