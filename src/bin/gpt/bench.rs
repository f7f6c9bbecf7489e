//! `gpt bench` (median step time, as the reference prints it) and `gpt profile` (each op
//! of one training step timed alone, at the preset's shapes).
//!
//! B = batch, T = time, C = channels, NH = heads, V = vocab, L = layers, BT = B·T.

use crate::args::{hyperparams, trainer, Args};
use crate::EVAL_ITERS;
use attention_playground::gpt::kernels;
use attention_playground::gpt::ops::{self, *};
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

/// Fastest of `reps` calls of `f`, in ms: the least disturbed by other processes.
fn time_ms(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[0]
}

/// The preset's shapes and buffers big enough for every op of a step (filled with 0.01:
/// the values do not change the time).
struct Bench {
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    v: usize,
    l: usize,
    reps: usize,
    out: Vec<f32>,
    inp: Vec<f32>,
    w: Vec<f32>,
    wt: Vec<f32>,
    bias: Vec<f32>,
    dinp: Vec<f32>,
    dw: Vec<f32>,
    db: Vec<f32>,
    /// (what, ms per step) for each op, in step order.
    rows: Vec<(String, f64)>,
}

fn z(n: usize) -> Vec<f32> {
    vec![0.01f32; n]
}

impl Bench {
    fn new(hp: &Hyperparams, reps: usize) -> Bench {
        let (b, t, c, v) = (hp.batch_size, hp.block_size, hp.n_embd, 65);
        let (acts, weights, biases) = (b * t * 4 * c.max(v), 4 * c * c.max(v), 4 * c.max(v));
        Bench {
            b,
            t,
            c,
            nh: hp.n_head,
            v,
            l: hp.n_layer,
            reps,
            out: z(acts),
            inp: z(acts),
            w: z(weights),
            wt: z(weights),
            bias: z(biases),
            dinp: z(acts),
            dw: z(weights),
            db: z(biases),
            rows: Vec::new(),
        }
    }

    fn matmuls(&mut self) {
        let (bt, c, v, l, reps) = (self.b * self.t, self.c, self.v, self.l, self.reps);
        for (name, ic, oc, n) in [
            ("c_attn", c, 3 * c, l),
            ("attn.c_proj", c, c, l),
            ("mlp.c_fc", c, 4 * c, l),
            ("mlp.c_proj", 4 * c, c, l),
            ("lm_head", c, v, 1),
        ] {
            let s = LinearShape { bt, ic, oc };
            let w = Weights {
                weight: &self.w,
                bias: &self.bias[..oc],
            };
            let f = time_ms(reps, || {
                ops::matmul_forward(&mut self.out, &self.inp, w, &mut self.wt, s)
            });
            let g = time_ms(reps, || {
                let dw = WeightGrads {
                    dweight: &mut self.dw,
                    dbias: &mut self.db[..oc],
                };
                ops::matmul_backward(&mut self.dinp, dw, &self.out, &self.inp, &self.w, s)
            });
            let gflops = 2.0 * (bt * ic * oc) as f64 / 1e6;
            let n = n as f64;
            let fwd = format!("matmul {name} fwd ({:.1} GFLOP/s)", gflops / f);
            self.rows.push((fwd, f * n));
            let bwd = format!("matmul {name} bwd ({:.1} GFLOP/s)", 2.0 * gflops / g);
            self.rows.push((bwd, g * n));
        }
    }

    fn attention(&mut self) {
        let (b, t, c, nh, reps) = (self.b, self.t, self.c, self.nh, self.reps);
        let s = AttnShape {
            b,
            t,
            c,
            nh,
            causal: true,
        };
        let (mut att, mut pre, qkv) = (z(b * nh * t * t), z(b * nh * t * t), z(b * t * 3 * c));
        let (mut dqkv, mut scratch) = (z(b * t * 3 * c), z(attention_scratch_len(t, s.hs())));
        let f = time_ms(reps, || {
            ops::attention_forward(&mut self.out, &mut pre, &mut att, &qkv, &mut scratch, s)
        });
        let g = time_ms(reps, || {
            ops::attention_backward(&mut dqkv, &self.inp, &qkv, &att, &mut scratch, s)
        });
        self.rows.push(("attention fwd".into(), f * self.l as f64));
        self.rows.push(("attention bwd".into(), g * self.l as f64));
    }

    fn layernorm_gelu(&mut self) {
        let (bt, c, l, reps) = (self.b * self.t, self.c, self.l, self.reps);
        let (mut mean, mut rstd) = (z(bt), z(bt));
        let (out, inp) = (&mut self.out[..bt * c], &self.inp[..bt * c]);
        let w = Weights {
            weight: &self.w[..c],
            bias: &self.bias[..c],
        };
        let f = time_ms(reps, || {
            ops::layernorm_forward(out, &mut mean, &mut rstd, inp, w, c)
        });
        let g = time_ms(reps, || {
            let dw = WeightGrads {
                dweight: &mut self.dw[..c],
                dbias: &mut self.db[..c],
            };
            let saved = LayerNormSaved {
                inp,
                mean: &mean,
                rstd: &rstd,
            };
            ops::layernorm_backward(&mut self.dinp[..bt * c], dw, out, saved, &self.w[..c], c)
        });
        self.rows
            .push(("layernorm fwd".into(), f * (2 * l + 1) as f64));
        self.rows
            .push(("layernorm bwd".into(), g * (2 * l + 1) as f64));
        let (out, inp) = (&mut self.out[..bt * 4 * c], &self.inp[..bt * 4 * c]);
        let f = time_ms(reps, || ops::gelu_forward(out, inp));
        let dinp = &mut self.dinp[..bt * 4 * c];
        let g = time_ms(reps, || ops::gelu_backward(dinp, inp, out));
        self.rows.push(("gelu fwd".into(), f * l as f64));
        self.rows.push(("gelu bwd".into(), g * l as f64));
    }

    fn crossentropy(&mut self) {
        let (bt, v, reps) = (self.b * self.t, self.v, self.reps);
        let (mut losses, targets) = (z(bt), vec![1u32; bt]);
        let (out, inp) = (&mut self.out[..bt * v], &self.inp[..bt * v]);
        let f = time_ms(reps, || {
            ops::crossentropy_forward(&mut losses, out, inp, Some(&targets), v);
        });
        let dinp = &mut self.dinp[..bt * v];
        let g = time_ms(reps, || {
            ops::crossentropy_backward(dinp, out, &targets, 0.1, v)
        });
        self.rows.push(("crossentropy fwd".into(), f));
        self.rows.push(("crossentropy bwd".into(), g));
    }
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
    let f = time_ms(reps, || {
        tr.model.forward(&mut tr.acts, xi, Some(yi), b, t);
    });
    let g = time_ms(reps, || tr.model.backward(&tr.acts, &mut tr.dacts, xi, yi));
    let o = time_ms(reps, || tr.opt.step(&mut tr.model.params, &tr.model.grads));
    println!("whole passes: forward {f:.4} ms, backward (incl. zeroing) {g:.4} ms, AdamW {o:.4} ms, sum {:.4} ms", f + g + o);
    Ok(())
}

/// Per-op time of one training step at the preset's shapes (each op timed alone).
pub fn cmd_profile(a: &Args) -> Result<(), String> {
    let (preset, hp) = hyperparams(a)?;
    if a.has("portable") {
        kernels::force_portable(true);
    }
    let mut bench = Bench::new(&hp, a.or("iters", 200usize)?);
    bench.matmuls();
    bench.attention();
    bench.layernorm_gelu();
    bench.crossentropy();
    let total: f64 = bench.rows.iter().map(|r| r.1).sum();
    if let Ok(path) = a.required("data") {
        whole_passes(&path, &hp, bench.reps)?;
    }
    let Bench { b, t, c, l, .. } = bench;
    println!(
        "{preset} (B={b}, T={t}, C={c}, L={l}), simd {}: per step, each op timed alone",
        kernels::simd_level()
    );
    for (name, ms) in &bench.rows {
        println!("  {ms:8.4} ms  {:5.1} %  {name}", 100.0 * ms / total);
    }
    println!("  {total:8.4} ms  total of the ops above (AdamW, encoder, residuals and zeroing not included)");
    Ok(())
}
