//! `gpt bench` (median step time, as the reference prints it) and `gpt profile` (each op
//! of one training step timed alone, at the preset's shapes: `gpt::profile` on `Instant`).

use crate::args::{hyperparams, trainer, Args};
use crate::EVAL_ITERS;
use attention_playground::gpt::kernels;
use attention_playground::gpt::profile::{self, time_ms};
use attention_playground::gpt::{Hyperparams, Trainer};
use serde_json::json;
use std::time::Instant;

const WARMUP_STEPS: usize = 20;

pub fn cmd_bench(a: &Args) -> Result<(), String> {
    let (preset, mut tr) = trainer(a)?;
    // --threads N: the batch's rows on N threads (gpt::parallel); 1 is Trainer::step_batch
    let mut par = attention_playground::gpt::Parallel::new(&tr, crate::threads(a)?);
    let iters: usize = a.or("iters", 200)?;
    let mut times = Vec::with_capacity(iters);
    for i in 0..WARMUP_STEPS + iters {
        tr.next_batch(); // batch sampling is not timed, as in the reference
        let t0 = Instant::now();
        par.step_batch(&mut tr);
        if i >= WARMUP_STEPS {
            times.push(t0.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    };
    let (train, val) = tr.estimate_loss(EVAL_ITERS);
    let c = &tr.model.config;
    let r = |x: f64, d: i32| (x * 10f64.powi(d)).round() / 10f64.powi(d);
    let tokens = (tr.hp.batch_size * c.block_size) as f64;
    println!(
        "{}",
        json!({
            "preset": preset,
            "config": {"block_size": c.block_size, "vocab_size": c.vocab_size, "n_layer": c.n_layer,
                       "n_head": c.n_head, "n_embd": c.n_embd, "dropout": 0.0, "bias": c.bias},
            "batch_size": tr.hp.batch_size, "lr": tr.hp.lr, "params": c.num_params(), "iters": iters,
            "warmup": WARMUP_STEPS, "step_ms_median": r(median, 4),
            "step_ms_min": r(times.first().copied().unwrap_or(f64::NAN), 4),
            "tokens_per_s": r(tokens / median * 1e3, 1),
            "train_loss": r(train as f64, 4), "val_loss": r(val as f64, 4),
            "torch": null, "engine": "rust", "simd": kernels::simd_level(), "threads": par.threads(),
        })
    );
    Ok(())
}

/// The whole forward, backward and AdamW step on a real batch of `path`'s text.
fn whole_passes(path: &str, hp: &Hyperparams, reps: usize) -> Result<(), String> {
    let (b, t) = (hp.batch_size, hp.block_size);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut tr = Trainer::new(&text, hp.clone(), 1337).map_err(|e| e.to_string())?;
    tr.next_batch();
    tr.step_batch();
    let ids: Vec<u32> = tr.data.train[..b * t + 1].to_vec();
    let (xi, yi) = (&ids[..b * t], &ids[1..]);
    let t0 = Instant::now();
    let clock = &mut || t0.elapsed().as_secs_f64() * 1e3;
    let f = time_ms(clock, reps, || {
        tr.model.forward(&mut tr.acts, xi, Some(yi), b, t);
    });
    let g = time_ms(clock, reps, || {
        tr.model.backward(&tr.acts, &mut tr.dacts, xi, yi)
    });
    let o = time_ms(clock, reps, || {
        tr.opt.step(&mut tr.model.params, &tr.model.grads)
    });
    println!("whole passes: forward {f:.4} ms, backward (incl. zeroing) {g:.4} ms, AdamW {o:.4} ms, sum {:.4} ms", f + g + o);
    Ok(())
}

/// Per-op time of one training step at the preset's shapes (each op timed alone).
pub fn cmd_profile(a: &Args) -> Result<(), String> {
    let (preset, hp) = hyperparams(a)?;
    if a.has("portable") {
        kernels::force_portable(true);
    }
    let reps = a.or("iters", 200usize)?;
    let t0 = Instant::now();
    let mut clock = || t0.elapsed().as_secs_f64() * 1e3;
    let p = profile::profile(&hp, reps, &mut clock).map_err(|e| e.to_string())?;
    if let Ok(path) = a.required("data") {
        whole_passes(&path, &hp, reps)?;
    }
    println!("{}", p.table(&preset));
    Ok(())
}
