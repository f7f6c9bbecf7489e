//! `gpt heads`: what each head of a checkpoint attends to on a probe of random tokens
//! written twice (`gpt::heads`), and with `--ablate` what switching each one off costs.
//! `gpt train --heads-every N` prints the best induction score as training goes.

use crate::args::{training_text, Args};
use attention_playground::gpt::heads::{self, ablation, head_scores, HeadScores, Probe};
use attention_playground::gpt::{Dataset, Gpt, Trainer, Vocab};
use serde_json::{json, Value};

/// Batches of validation text the ablation measures (rows of block_size each).
const VAL_BATCHES: usize = 8;
const VAL_ROWS: usize = 8;

/// The probe the flags ask for (`--probe-rows`, `--probe-len`, `--probe-seed`), else
/// `Probe::default_for` the model.
pub fn probe(a: &Args, m: &Gpt, vocab: &Vocab) -> Result<Probe, String> {
    let bs = m.config.block_size;
    let rows = a.or("probe-rows", heads::DEFAULT_ROWS)?;
    let len = a.or("probe-len", heads::default_len(bs))?;
    let seed = a.or("probe-seed", heads::DEFAULT_SEED)?;
    Probe::from_ids(&heads::visible_ids(vocab), bs, rows, len, seed).map_err(|e| e.to_string())
}

/// A layer-major NL·NH list as NL rows.
fn grid(v: &[f32], nh: usize) -> Value {
    json!(v.chunks(nh).collect::<Vec<_>>())
}

/// One line while training: the best induction head and the probe's two losses.
pub fn progress_line(step: usize, s: &HeadScores) -> String {
    let (l, h, best) = s.best_induction();
    format!(
        "heads step {step}: best induction {best:.3} (layer {l} head {h}), probe loss first copy {:.3}, second copy {:.3}",
        s.loss_first, s.loss_second
    )
}

pub fn cmd_heads(a: &Args) -> Result<(), String> {
    let (mut model, vocab) = crate::load(a)?;
    let p = probe(a, &model, &vocab)?;
    let s = head_scores(&model, &p);
    let nh = model.config.n_head;
    let mut out = json!({
        "n_layer": s.n_layer, "n_head": nh,
        "probe": p.ids.chunks(2 * p.len).collect::<Vec<_>>(),
        "probe_len": p.len,
        "previous_token": grid(&s.previous_token, nh),
        "induction": grid(&s.induction, nh),
        "first_token": grid(&s.first_token, nh),
        "loss_first": s.loss_first, "loss_second": s.loss_second,
    });
    let ab = match a.has("ablate") {
        false => None,
        true => {
            // validation text: --data or --toy's, else none (the probe alone)
            let val = match (a.get::<String>("data")?, a.get::<String>("toy")?) {
                (None, None) => Vec::new(),
                _ => {
                    let text = training_text(a, a.or("seed", 1337u64)?)?;
                    let d = Dataset::with_vocab(&text, vocab.clone()).map_err(|e| e.to_string())?;
                    d.val
                }
            };
            Some(ablation(&mut model, &p, &val, VAL_ROWS, VAL_BATCHES, 1337))
        }
    };
    if let Some(ab) = &ab {
        let has_val = !ab.val.is_empty();
        out["ablation"] = json!({
            "second_copy": grid(&ab.second_copy, nh),
            "val": if has_val { grid(&ab.val, nh) } else { Value::Null },
            "base_second_copy": ab.base_second_copy,
            "base_val": if has_val { json!(ab.base_val) } else { Value::Null },
        });
    }
    if a.has("json") {
        println!("{out}");
        return Ok(());
    }
    let (l, h, best) = s.best_induction();
    println!("probe: {} rows of {} tokens written twice", p.rows, p.len);
    let off = if ab.is_some() {
        "  Δloss off: 2nd copy  val"
    } else {
        ""
    };
    println!("layer head  previous  induction  first{off}");
    for i in 0..s.n_layer * nh {
        let (prev, ind, first) = (s.previous_token[i], s.induction[i], s.first_token[i]);
        let mut line = format!(
            "{:>5} {:>4}  {prev:>8.3}  {ind:>9.3}  {first:>5.3}",
            i / nh,
            i % nh
        );
        if let Some(ab) = &ab {
            let val = ab.val.get(i).map_or("–".into(), |v| format!("{v:+.3}"));
            line += &format!("  {:>+19.3}  {val:>6}", ab.second_copy[i]);
        }
        println!("{line}");
    }
    println!("best induction head: layer {l} head {h} ({best:.3})");
    println!(
        "probe loss: first copy {:.3}, second copy {:.3}",
        s.loss_first, s.loss_second
    );
    Ok(())
}

/// The scores of a trainer's model on its default probe (the `--heads-every` line).
pub fn trainer_scores(tr: &Trainer) -> Option<HeadScores> {
    let c = &tr.model.config;
    let p = Probe::default_for(&tr.data.vocab, c.block_size).ok()?;
    Some(head_scores(&tr.model, &p))
}
