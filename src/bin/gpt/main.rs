//! gpt: train, sample, eval and bench the small GPT natively, with the same subcommands,
//! flags and meanings as tools/gpt_torch.py (the same GPT in PyTorch).
//!
//!   gpt train  --preset tiny --data input.txt --iters 2000 --out tiny.safetensors
//!   gpt sample --ckpt tiny.safetensors --prompt "ROMEO:" -n 100 --greedy
//!   gpt eval   --ckpt tiny.safetensors --text "First Ci"
//!   gpt bench  --preset tiny --data input.txt --iters 200
//!   gpt train  --toy repeat --iters 2500 --heads-every 250 --out ind.safetensors
//!   gpt heads  --ckpt ind.safetensors --json --ablate --toy repeat
//!
//! `--threads N` (train, bench) splits each batch into N row slices whose gradients run
//! on N threads and are summed before one AdamW step (`gpt::parallel`, as DDP); eval and
//! sample take 1. Extra flag: `--no-causal` trains without the causal mask (the lesson's
//! counterexample).

mod args;
mod bench;
mod heads;
mod hf;

use args::{trainer, Args};
use attention_playground::gpt::hf::MAX_PROMPT_TOKENS;
use attention_playground::gpt::sample::{generate, SampleOptions};
use attention_playground::gpt::{checkpoint, state};
use attention_playground::gpt::{Activations, Gpt, Parallel, Vocab};
use bench::{cmd_bench, cmd_profile};
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Batches per split for the train/val loss estimate (as the reference).
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

const USAGE: &str = "usage: gpt <train|sample|eval|tokenize|bench|heads> [flags]
  model flags (train, bench): --preset tiny|small|cpu (tiny) --data FILE --seed N (1337)
    or --toy repeat: lines of a random string written twice, made from the seed
    (--toy-alphabet 52 --toy-min-len 4 --toy-max-len 16 --toy-chars 400000); its preset
    is induction (2, 4, 32, 64, 32, lr 3e-3): an induction head forms by step ~1,750
    --n-layer --n-head --n-embd --block-size --batch-size --lr --weight-decay (override
    the preset) --dropout 0 --no-bias --no-causal
  train:  --iters N (2000) --eval-interval N (500) --out FILE.safetensors
          --heads-every N: every N steps, the best induction score and the probe's losses
          --state FILE: also the training state (weights, AdamW moments, step), which
          tools/export_nanogpt.py turns into a nanoGPT checkpoint that continues the run
  bench:  --iters N (200): 20 warm-up steps, then N timed steps; prints one JSON line
  eval:   --ckpt FILE --text TEXT (2..block_size+1 tokens): the loss at each position;
          --logits: also the ids and the logits after the last token (the whole vocab);
          --attentions: every layer's and head's attention weights
          --off 0.1,2.3: with those heads (layer.head, counted from 0) switched off
  tokenize: --ckpt FILE|DIR --text TEXT: the ids and each token's text
  --ckpt DIR (eval, sample, heads, tokenize): a Hugging Face GPT-2 folder: config.json,
          model.safetensors, and tokenizer.json or vocab.json + merges.txt
  sample: --ckpt FILE --prompt TEXT (\"\\n\") -n N (200) --greedy | --temperature T (1.0)
          --top-k K --seed N (1337)
  heads:  --ckpt FILE [--json] [--probe-rows 16 --probe-len min(12, block_size/2)
          --probe-seed 1234]: each head's previous-token, induction and first-token
          score; --ablate: each head's loss change when it is off (probe, and validation
          text of --data FILE or --toy repeat)
  profile: --preset ... [--portable]: per-op milliseconds of one step (not in the reference)
  train, bench: --threads N (1): data-parallel over N threads, batch rows split N ways
  eval, sample, profile: --threads 1";

/// `--threads N` (default 1), at least 1.
pub(crate) fn threads(a: &Args) -> Result<usize, String> {
    match a.or("threads", 1usize)? {
        0 => Err("--threads: at least 1".into()),
        n => Ok(n),
    }
}

pub(crate) fn load(a: &Args) -> Result<(Gpt, Vocab), String> {
    let path = a.required("ckpt")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    checkpoint::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
}

fn cmd_train(a: &Args) -> Result<(), String> {
    let (_, mut tr) = trainer(a)?;
    let mut par = Parallel::new(&tr, threads(a)?);
    let (iters, every): (usize, usize) = (a.or("iters", 2000)?, a.or("eval-interval", 500)?);
    let heads_every: usize = a.or("heads-every", 0)?;
    let out = a.required("out")?;
    let tokens = (tr.hp.batch_size * tr.hp.block_size) as f64;
    let (start, mut last_print) = (Instant::now(), Instant::now());
    for it in 0..=iters {
        if it == iters || (every > 0 && it % every == 0) {
            let (train, val) = tr.estimate_loss(EVAL_ITERS);
            eprint!("\r\x1b[K");
            println!("step {it}: train loss {train:.4}, val loss {val:.4}");
        }
        if heads_every > 0 && (it % heads_every == 0 || it == iters) {
            if let Some(s) = heads::trainer_scores(&tr) {
                eprint!("\r\x1b[K");
                println!("{}", heads::progress_line(it, &s));
            }
        }
        if it < iters {
            let loss = par.step(&mut tr);
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
    if let Some(path) = a.get::<String>("state")? {
        std::fs::write(&path, state::to_bytes(&tr)).map_err(|e| format!("{path}: {e}"))?;
        println!("saved {path}");
    }
    Ok(())
}

fn cmd_eval(a: &Args) -> Result<(), String> {
    let mut loaded = hf::load_any(a)?;
    // --off 0.1,2.3: those heads (layer.head, from 0) switched off, as the page's switch
    if let Some(list) = a.get::<String>("off")? {
        for item in list.split(',').filter(|s| !s.is_empty()) {
            let bad = || format!("--off: {item:?} is not layer.head (from 0)");
            let (l, h) = item.split_once('.').ok_or_else(bad)?;
            let (l, h) = (l.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
            loaded
                .model_mut()
                .set_ablated(l, h, true)
                .map_err(|e| e.to_string())?;
        }
    }
    let model = loaded.model();
    let ids = loaded.encode(&a.required("text")?)?;
    let bs = model.config.block_size;
    if !(2..=bs + 1).contains(&ids.len()) {
        return Err(format!(
            "text must have 2..{} tokens (block_size + 1), has {}",
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
    let mut out = json!({"loss": loss as f64, "losses": losses, "n": t});
    let (logits, attentions) = (a.has("logits"), a.has("attentions"));
    if logits || attentions {
        // the whole text (up to block_size tokens): the next token after its last
        let ids = &ids[ids.len().saturating_sub(bs)..];
        let mut acts = Activations::for_inference(&model.config, ids.len());
        model
            .forward_last(&mut acts, ids)
            .map_err(|e| e.to_string())?;
        out["ids"] = json!(ids);
        if logits {
            let v = model.config.vocab_size;
            out["logits"] = json!(acts.logits[..v]
                .iter()
                .map(|&x| x as f64)
                .collect::<Vec<_>>());
        }
        if attentions {
            let (nl, nh) = (model.config.n_layer, model.config.n_head);
            let t = ids.len();
            let maps: Vec<Vec<Vec<Vec<f64>>>> = (0..nl)
                .map(|l| {
                    (0..nh)
                        .map(|h| {
                            acts.att(l, 0, h, nh)
                                .chunks_exact(t)
                                .map(|row| row.iter().map(|&x| x as f64).collect())
                                .collect()
                        })
                        .collect()
                })
                .collect();
            out["attentions"] = json!(maps);
        }
    }
    println!("{out}");
    Ok(())
}

fn cmd_sample(a: &Args) -> Result<(), String> {
    let loaded = hf::load_any(a)?;
    let model = loaded.model();
    let prompt: String = a.or("prompt", "\n".to_string())?;
    let opts = SampleOptions {
        greedy: a.has("greedy"),
        temperature: a.or("temperature", 1.0f32)?,
        top_k: a.get("top-k")?,
        seed: a.or("seed", 1337u64)?,
    };
    let mut ids = loaded.encode(&prompt)?;
    let start = ids.len();
    let mut acts = match loaded {
        hf::Loaded::Ours(..) => Activations::new(&model.config, 1, model.config.block_size),
        hf::Loaded::Hf(..) => Activations::for_inference(
            &model.config,
            model.config.block_size.min(MAX_PROMPT_TOKENS),
        ),
    };
    generate(model, &mut acts, &mut ids, a.or("n", 200usize)?, &opts).map_err(|e| e.to_string())?;
    println!("{}", loaded.decode(&ids[start..]));
    Ok(())
}

fn run(argv: &[String]) -> Result<(), String> {
    let Some(cmd) = argv.first() else {
        return Err(USAGE.into());
    };
    let rest = &argv[1..];
    let with_model = |own: &[&'static str]| -> Vec<&'static str> {
        let mut v = MODEL_FLAGS.to_vec();
        v.extend_from_slice(&args::TOY_FLAGS);
        v.extend_from_slice(own);
        v.push("threads");
        v
    };
    let (values, switches): (Vec<&str>, &[&str]) = match cmd.as_str() {
        "train" => (
            with_model(&["iters", "eval-interval", "out", "state", "heads-every"]),
            &["no-bias", "no-causal"],
        ),
        "bench" => (with_model(&["iters"]), &["no-bias", "no-causal"]),
        "profile" => (
            with_model(&["iters"]),
            &["no-bias", "no-causal", "portable"],
        ),
        "eval" => (
            vec!["ckpt", "text", "threads", "off"],
            &["logits", "attentions"],
        ),
        "tokenize" => (vec!["ckpt", "text"], &[]),
        "heads" => {
            let mut v = vec![
                "ckpt",
                "data",
                "seed",
                "probe-rows",
                "probe-len",
                "probe-seed",
            ];
            v.extend_from_slice(&args::TOY_FLAGS);
            v.push("threads");
            (v, &["json", "ablate"])
        }
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
    if !matches!(cmd.as_str(), "train" | "bench") && a.or("threads", 1usize)? != 1 {
        return Err(format!("--threads: {cmd} is single-threaded; use 1"));
    }
    match cmd.as_str() {
        "train" => cmd_train(&a),
        "bench" => cmd_bench(&a),
        "eval" => cmd_eval(&a),
        "tokenize" => hf::cmd_tokenize(&a),
        "heads" => heads::cmd_heads(&a),
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
