//! The command line: `--flag value` pairs and switches, and the model flags turned into
//! hyperparameters and a trainer (as tools/gpt_torch.py's `hyperparams`).

use attention_playground::gpt::toy::RepeatTask;
use attention_playground::gpt::{Hyperparams, Trainer};
use std::collections::HashMap;

/// Parsed `--flag value` pairs and bare `--switch`es.
pub struct Args {
    values: HashMap<String, String>,
    switches: Vec<String>,
}

impl Args {
    pub fn parse(
        argv: &[String],
        value_flags: &[&str],
        switch_flags: &[&str],
    ) -> Result<Args, String> {
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

    pub fn get<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.values.get(name) {
            None => Ok(None),
            Some(s) => s
                .parse()
                .map(Some)
                .map_err(|_| format!("--{name}: cannot parse {s:?}")),
        }
    }

    pub fn or<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        Ok(self.get(name)?.unwrap_or(default))
    }

    pub fn required(&self, name: &str) -> Result<String, String> {
        self.values
            .get(name)
            .cloned()
            .ok_or(format!("--{name} is required"))
    }

    pub fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

/// The preset, then every override flag (as tools/gpt_torch.py's `hyperparams`).
pub fn hyperparams(a: &Args) -> Result<(String, Hyperparams), String> {
    // the induction task's own preset unless another is asked for: its phase change
    let toy = a.get::<String>("toy")?.is_some();
    let preset: String = a.or("preset", if toy { "induction" } else { "tiny" }.to_string())?;
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

pub fn trainer(a: &Args) -> Result<(String, Trainer), String> {
    let (preset, hp) = hyperparams(a)?;
    let seed = a.or("seed", 1337u64)?;
    let text = training_text(a, seed)?;
    let t = Trainer::new(&text, hp, seed).map_err(|e| e.to_string())?;
    Ok((preset, t))
}

/// Flags of the generated task (`--toy repeat`), `RepeatTask`'s fields.
pub const TOY_FLAGS: [&str; 5] = [
    "toy",
    "toy-alphabet",
    "toy-min-len",
    "toy-max-len",
    "toy-chars",
];

/// `--data FILE`'s text, or with `--toy repeat` the induction task's (`gpt::toy`), made
/// from `seed`.
pub fn training_text(a: &Args, seed: u64) -> Result<String, String> {
    match a.get::<String>("toy")?.as_deref() {
        None => {
            let path = a.required("data").map_err(|_| {
                "--data FILE or --toy repeat is required (e.g. www/data/corpus.txt)".to_string()
            })?;
            std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))
        }
        Some("repeat") => {
            if a.get::<String>("data")?.is_some() {
                return Err("--toy repeat makes its own text: leave out --data".into());
            }
            let d = RepeatTask::default();
            let task = RepeatTask {
                alphabet: a.or("toy-alphabet", d.alphabet)?,
                min_len: a.or("toy-min-len", d.min_len)?,
                max_len: a.or("toy-max-len", d.max_len)?,
                chars: a.or("toy-chars", d.chars)?,
            };
            task.text(seed).map_err(|e| e.to_string())
        }
        Some(other) => Err(format!(
            "--toy: the one generated task is \"repeat\", got {other:?}"
        )),
    }
}
