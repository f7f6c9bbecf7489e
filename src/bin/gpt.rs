//! gpt: train, sample, eval and bench the small GPT natively, with the same subcommands,
//! flags and meanings as tools/gpt_torch.py (the same GPT in PyTorch).
//!
//!   gpt train  --preset tiny --data input.txt --iters 2000 --out tiny.safetensors
//!   gpt sample --ckpt tiny.safetensors --prompt "ROMEO:" -n 100 --greedy
//!   gpt eval   --ckpt tiny.safetensors --text "First Ci"
//!   gpt bench  --preset tiny --data input.txt --iters 200
//!
//! Single-threaded (`--threads` is accepted for compatibility and must be 1). Extra flag:
//! `--no-causal` trains without the causal mask (the lesson's counterexample).

use attention_playground::gpt::checkpoint;
use attention_playground::gpt::kernels;
use attention_playground::gpt::sample::{generate, SampleOptions};
use attention_playground::gpt::{Activations, Hyperparams, Trainer};
use serde_json::json;
use std::collections::HashMap;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const WARMUP_STEPS: usize = 20;
const EVAL_ITERS: usize = 50;
const MODEL_FLAGS: [&str; 11] = [
    "preset",
    "data",
    "seed",
    "n-layer",
    "n-head",
    "n-embd",
    "block-size",
    "batch-size",
    "lr",
    "weight-decay",
    "dropout",
];

const USAGE: &str = "usage: gpt <train|sample|eval|bench> [flags]
  model flags (train, bench): --preset tiny|small|cpu (tiny) --data FILE --seed N (1337)
    --n-layer --n-head --n-embd --block-size --batch-size --lr --weight-decay (override
    the preset) --dropout 0 --no-bias --no-causal
  train:  --iters N (2000) --eval-interval N (500) --out FILE.safetensors
  bench:  --iters N (200): 20 warm-up steps, then N timed steps; prints one JSON line
  eval:   --ckpt FILE --text TEXT (2..block_size+1 characters)
  sample: --ckpt FILE --prompt TEXT (\"\\n\") -n N (200) --greedy | --temperature T (1.0)
          --top-k K --seed N (1337)
  profile: --preset ... [--portable]: per-op milliseconds of one step (not in the reference)
  every subcommand: --threads 1 (this CLI is single-threaded)";

/// Parsed `--flag value` pairs and bare `--switch`es.
struct Args {
    values: HashMap<String, String>,
    switches: Vec<String>,
}

impl Args {
    fn parse(argv: &[String], value_flags: &[&str], switch_flags: &[&str]) -> Result<Args, String> {
        let (mut values, mut switches) = (HashMap::new(), Vec::new());
        let mut it = argv.iter();
        while let Some(a) = it.next() {
            let name = a
                .strip_prefix("--")
                .or_else(|| a.strip_prefix('-'))
                .ok_or(format!("unexpected argument {a:?}"))?;
            if switch_flags.contains(&name) {
                switches.push(name.to_string());
            } else if value_flags.contains(&name) {
                let v = it.next().ok_or(format!("{a} needs a value"))?;
                values.insert(name.to_string(), v.clone());
            } else {
                return Err(format!("unknown flag {a}"));
            }
        }
        Ok(Args { values, switches })
    }

    fn get<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.values.get(name) {
            None => Ok(None),
            Some(s) => s
                .parse()
                .map(Some)
                .map_err(|_| format!("--{name}: cannot parse {s:?}")),
        }
    }

    fn or<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        Ok(self.get(name)?.unwrap_or(default))
    }

    fn required(&self, name: &str) -> Result<String, String> {
        self.values
            .get(name)
            .cloned()
            .ok_or(format!("--{name} is required"))
    }

    fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

/// The preset, then every override flag (as tools/gpt_torch.py's `hyperparams`).
fn hyperparams(a: &Args) -> Result<(String, Hyperparams), String> {
    let preset: String = a.or("preset", "tiny".to_string())?;
    let mut hp = Hyperparams::preset(&preset).map_err(|e| e.to_string())?;
    for (flag, field) in [
        ("n-layer", &mut hp.n_layer),
        ("n-head", &mut hp.n_head),
        ("n-embd", &mut hp.n_embd),
        ("block-size", &mut hp.block_size),
        ("batch-size", &mut hp.batch_size),
    ] {
        if let Some(v) = a.get(flag)? {
            *field = v;
        }
    }
    hp.lr = a.or("lr", hp.lr)?;
    hp.weight_decay = a.or("weight-decay", hp.weight_decay)?;
    if a.or("dropout", 0.0f64)? != 0.0 {
        return Err(
            "--dropout: only 0 is supported (as in the reference's presets and fixtures)".into(),
        );
    }
    hp.bias = !a.has("no-bias");
    hp.causal = !a.has("no-causal");
    Ok((preset, hp))
}

fn trainer(a: &Args) -> Result<(String, Trainer), String> {
    let (preset, hp) = hyperparams(a)?;
    let path = a
        .required("data")
        .map_err(|_| "--data FILE is required (e.g. www/data/corpus.txt)".to_string())?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let seed = a.or("seed", 1337u64)?;
    let t = Trainer::new(&text, hp, seed).map_err(|e| e.to_string())?;
    Ok((preset, t))
}

fn load(
    a: &Args,
) -> Result<
    (
        attention_playground::gpt::Gpt,
        attention_playground::gpt::Vocab,
    ),
    String,
> {
    let path = a.required("ckpt")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    checkpoint::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
}

fn cmd_train(a: &Args) -> Result<(), String> {
    let (_, mut tr) = trainer(a)?;
    let (iters, every): (usize, usize) = (a.or("iters", 2000)?, a.or("eval-interval", 500)?);
    let out = a.required("out")?;
    let tokens = (tr.hp.batch_size * tr.hp.block_size) as f64;
    let (start, mut last_print) = (Instant::now(), Instant::now());
    for it in 0..=iters {
        if it == iters || (every > 0 && it % every == 0) {
            let (train, val) = tr.estimate_loss(EVAL_ITERS);
            eprint!("\r\x1b[K");
            println!("step {it}: train loss {train:.4}, val loss {val:.4}");
        }
        if it < iters {
            let loss = tr.step();
            if last_print.elapsed().as_millis() >= 200 || it + 1 == iters {
                let tps = (it + 1) as f64 * tokens / start.elapsed().as_secs_f64();
                eprint!(
                    "\rstep {}/{iters}  loss {loss:.4}  {tps:.0} tokens/s",
                    it + 1
                );
                std::io::stderr().flush().ok();
                last_print = Instant::now();
            }
        }
    }
    eprintln!();
    std::fs::write(&out, tr.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    println!("saved {out}");
    Ok(())
}

fn cmd_eval(a: &Args) -> Result<(), String> {
    let (model, vocab) = load(a)?;
    let ids = vocab
        .encode(&a.required("text")?)
        .map_err(|e| e.to_string())?;
    let bs = model.config.block_size;
    if !(2..=bs + 1).contains(&ids.len()) {
        return Err(format!(
            "text must have 2..{} characters (block_size + 1), has {}",
            bs + 1,
            ids.len()
        ));
    }
    let (x, y, t) = (&ids[..ids.len() - 1], &ids[1..], ids.len() - 1);
    let mut acts = Activations::new(&model.config, 1, t);
    let loss = model
        .forward(&mut acts, x, Some(y), 1, t)
        .unwrap_or(f32::NAN);
    let losses: Vec<f64> = acts.losses[..t].iter().map(|&l| l as f64).collect();
    println!("{}", json!({"loss": loss as f64, "losses": losses, "n": t}));
    Ok(())
}

fn cmd_sample(a: &Args) -> Result<(), String> {
    let (model, vocab) = load(a)?;
    let prompt: String = a.or("prompt", "\n".to_string())?;
    let opts = SampleOptions {
        greedy: a.has("greedy"),
        temperature: a.or("temperature", 1.0f32)?,
        top_k: a.get("top-k")?,
        seed: a.or("seed", 1337u64)?,
    };
    let mut ids = vocab.encode(&prompt).map_err(|e| e.to_string())?;
    let start = ids.len();
    let mut acts = Activations::new(&model.config, 1, model.config.block_size);
    generate(&model, &mut acts, &mut ids, a.or("n", 200usize)?, &opts)
        .map_err(|e| e.to_string())?;
    println!("{}", vocab.decode(&ids[start..]));
    Ok(())
}

fn cmd_bench(a: &Args) -> Result<(), String> {
    let (preset, mut tr) = trainer(a)?;
    let iters: usize = a.or("iters", 200)?;
    let mut times = Vec::with_capacity(iters);
    for i in 0..WARMUP_STEPS + iters {
        tr.next_batch(); // batch sampling is not timed, as in the reference
        let t0 = Instant::now();
        tr.step_batch();
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
            "torch": null, "engine": "rust", "simd": kernels::simd_level(), "threads": 1,
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

/// Per-op time of one training step at the preset's shapes (each op timed alone).
fn cmd_profile(a: &Args) -> Result<(), String> {
    use attention_playground::gpt::ops;
    let (preset, hp) = hyperparams(a)?;
    let (b, t, c, nh, v, l) = (
        hp.batch_size,
        hp.block_size,
        hp.n_embd,
        hp.n_head,
        65,
        hp.n_layer,
    );
    let bt = b * t;
    if a.has("portable") {
        kernels::force_portable(true);
    }
    let reps = a.or("iters", 200usize)?;
    let z = |n: usize| vec![0.01f32; n];
    let (mut out, inp, w, mut wt, bias) = (
        z(bt * 4 * c.max(v)),
        z(bt * 4 * c.max(v)),
        z(4 * c * c.max(v)),
        z(4 * c * c.max(v)),
        z(4 * c.max(v)),
    );
    let (mut dinp, mut dw, mut db) = (z(bt * 4 * c.max(v)), z(4 * c * c.max(v)), z(4 * c.max(v)));
    let mut rows: Vec<(String, f64)> = Vec::new();
    for (name, ic, oc, n) in [
        ("c_attn", c, 3 * c, l),
        ("attn.c_proj", c, c, l),
        ("mlp.c_fc", c, 4 * c, l),
        ("mlp.c_proj", 4 * c, c, l),
        ("lm_head", c, v, 1),
    ] {
        let f = time_ms(reps, || {
            ops::matmul_forward(&mut out, &inp, &w, &bias[..oc], &mut wt, bt, ic, oc)
        });
        let g = time_ms(reps, || {
            ops::matmul_backward(
                &mut dinp,
                &mut dw,
                &mut db[..oc],
                &out,
                &inp,
                &w,
                bt,
                ic,
                oc,
            )
        });
        let gflops = 2.0 * (bt * ic * oc) as f64 / 1e6;
        rows.push((
            format!("matmul {name} fwd ({:.1} GFLOP/s)", gflops / f),
            f * n as f64,
        ));
        rows.push((
            format!("matmul {name} bwd ({:.1} GFLOP/s)", 2.0 * gflops / g),
            g * n as f64,
        ));
    }
    let (mut att, mut pre, qkv) = (z(b * nh * t * t), z(b * nh * t * t), z(bt * 3 * c));
    let (mut dqkv, mut scratch) = (z(bt * 3 * c), z(ops::attention_scratch_len(t, c / nh)));
    let f = time_ms(reps, || {
        ops::attention_forward(
            &mut out,
            &mut pre,
            &mut att,
            &qkv,
            &mut scratch,
            b,
            t,
            c,
            nh,
            true,
        )
    });
    let g = time_ms(reps, || {
        ops::attention_backward(&mut dqkv, &inp, &qkv, &att, &mut scratch, b, t, c, nh, true)
    });
    rows.push(("attention fwd".into(), f * l as f64));
    rows.push(("attention bwd".into(), g * l as f64));
    let (mut mean, mut rstd) = (z(bt), z(bt));
    let f = time_ms(reps, || {
        ops::layernorm_forward(
            &mut out[..bt * c],
            &mut mean,
            &mut rstd,
            &inp[..bt * c],
            &w[..c],
            &bias[..c],
            c,
        )
    });
    let g = time_ms(reps, || {
        ops::layernorm_backward(
            &mut dinp[..bt * c],
            &mut dw[..c],
            &mut db[..c],
            &out[..bt * c],
            &inp[..bt * c],
            &w[..c],
            &mean,
            &rstd,
            c,
        )
    });
    rows.push(("layernorm fwd".into(), f * (2 * l + 1) as f64));
    rows.push(("layernorm bwd".into(), g * (2 * l + 1) as f64));
    let f = time_ms(reps, || {
        ops::gelu_forward(&mut out[..bt * 4 * c], &inp[..bt * 4 * c])
    });
    let g = time_ms(reps, || {
        ops::gelu_backward(
            &mut dinp[..bt * 4 * c],
            &inp[..bt * 4 * c],
            &out[..bt * 4 * c],
        )
    });
    rows.push(("gelu fwd".into(), f * l as f64));
    rows.push(("gelu bwd".into(), g * l as f64));
    let (mut losses, targets) = (z(bt), vec![1u32; bt]);
    let f = time_ms(reps, || {
        ops::crossentropy_forward(
            &mut losses,
            &mut out[..bt * v],
            &inp[..bt * v],
            Some(&targets),
            v,
        );
    });
    let g = time_ms(reps, || {
        ops::crossentropy_backward(&mut dinp[..bt * v], &out[..bt * v], &targets, 0.1, v)
    });
    rows.push(("crossentropy fwd".into(), f));
    rows.push(("crossentropy bwd".into(), g));
    let total: f64 = rows.iter().map(|r| r.1).sum();
    if let Ok(path) = a.required("data") {
        // the whole passes, on a real batch
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let mut tr = Trainer::new(&text, hp.clone(), 1337).map_err(|e| e.to_string())?;
        tr.next_batch();
        tr.step_batch();
        let ids: Vec<u32> = tr.data.train[..bt + 1].to_vec();
        let (xi, yi) = (&ids[..bt], &ids[1..]);
        let f = time_ms(reps, || {
            tr.model.forward(&mut tr.acts, xi, Some(yi), b, t);
        });
        let g = time_ms(reps, || tr.model.backward(&tr.acts, &mut tr.dacts, xi, yi));
        let o = time_ms(reps, || tr.opt.step(&mut tr.model.params, &tr.model.grads));
        println!("whole passes: forward {f:.4} ms, backward (incl. zeroing) {g:.4} ms, AdamW {o:.4} ms, sum {:.4} ms", f + g + o);
    }
    println!(
        "{preset} (B={b}, T={t}, C={c}, L={l}), simd {}: per step, each op timed alone",
        kernels::simd_level()
    );
    for (name, ms) in &rows {
        println!("  {ms:8.4} ms  {:5.1} %  {name}", 100.0 * ms / total);
    }
    println!("  {total:8.4} ms  total of the ops above (AdamW, encoder, residuals and zeroing not included)");
    Ok(())
}

fn run(argv: &[String]) -> Result<(), String> {
    let Some(cmd) = argv.first() else {
        return Err(USAGE.into());
    };
    let rest = &argv[1..];
    let with_model = |own: &[&'static str]| -> Vec<&'static str> {
        let mut v = MODEL_FLAGS.to_vec();
        v.extend_from_slice(own);
        v.push("threads");
        v
    };
    let (values, switches): (Vec<&str>, &[&str]) = match cmd.as_str() {
        "train" => (
            with_model(&["iters", "eval-interval", "out"]),
            &["no-bias", "no-causal"],
        ),
        "bench" => (with_model(&["iters"]), &["no-bias", "no-causal"]),
        "profile" => (
            with_model(&["iters"]),
            &["no-bias", "no-causal", "portable"],
        ),
        "eval" => (vec!["ckpt", "text", "threads"], &[]),
        "sample" => (
            vec![
                "ckpt",
                "prompt",
                "n",
                "temperature",
                "top-k",
                "seed",
                "threads",
            ],
            &["greedy"],
        ),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return Ok(());
        }
        _ => return Err(format!("unknown subcommand {cmd:?}\n{USAGE}")),
    };
    let a = Args::parse(rest, &values, switches)?;
    if a.or("threads", 1usize)? != 1 {
        return Err("--threads: this CLI is single-threaded; use 1".into());
    }
    match cmd.as_str() {
        "train" => cmd_train(&a),
        "bench" => cmd_bench(&a),
        "eval" => cmd_eval(&a),
        "profile" => cmd_profile(&a),
        _ => cmd_sample(&a),
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
