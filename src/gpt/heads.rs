//! What a head has learned, measured on a probe: random tokens written twice.
//!
//! L = the probe's segment length, R = its rows, NL = layers, NH = heads.
//!
//! Two heads every learner should meet (Olsson et al. 2022, "In-context learning and
//! induction heads"): a previous-token head attends from t to t − 1; an induction head, on
//! `… A B … A`, attends from the second A to the first B and so predicts B. On a sequence
//! s written twice (s s, length 2L), the token after the earlier occurrence of position
//! t's token is at t − L + 1, for every t of the second copy. Induction needs two layers:
//! the key "my previous token was A" is written by a previous-token head in an earlier
//! layer.

use super::data::{estimate_loss, Vocab};
use super::model::{Activations, Gpt};
use super::seeded_draws::Rng;
use super::{bail, GptError};

/// R sequences of L tokens drawn uniformly from the vocab with a seeded generator, each
/// written twice: `ids` is (R, 2L), row r = s_r s_r.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub rows: usize,
    pub len: usize,
    pub ids: Vec<u32>,
}

impl Probe {
    /// The probe of (rows, len, seed) drawn from every id of a model of `vocab_size`
    /// tokens and `block_size`; Err unless rows ≥ 1, len ≥ 2 and 2·len ≤ block_size.
    pub fn new(
        vocab_size: usize,
        block_size: usize,
        rows: usize,
        len: usize,
        seed: u64,
    ) -> Result<Probe, GptError> {
        let all: Vec<u32> = (0..vocab_size as u32).collect();
        Probe::from_ids(&all, block_size, rows, len, seed)
    }

    /// The same, drawn from `candidates` (not empty) only.
    pub fn from_ids(
        candidates: &[u32],
        block_size: usize,
        rows: usize,
        len: usize,
        seed: u64,
    ) -> Result<Probe, GptError> {
        if rows == 0 || rows > 4096 || len < 2 || 2 * len > block_size || candidates.is_empty() {
            bail!("gpt.heads.probe", rows, len, block_size);
        }
        let mut rng = Rng::new(seed);
        let mut ids = Vec::with_capacity(rows * 2 * len);
        for _ in 0..rows {
            let s: Vec<u32> = (0..len)
                .map(|_| candidates[rng.below(candidates.len())])
                .collect();
            ids.extend_from_slice(&s);
            ids.extend_from_slice(&s);
        }
        Ok(Probe { rows, len, ids })
    }

    /// The page's and the CLI's probe for a model: `DEFAULT_ROWS` rows, L =
    /// `default_len(block_size)`, `DEFAULT_SEED`, drawn from `visible_ids(vocab)`.
    pub fn default_for(vocab: &Vocab, block_size: usize) -> Result<Probe, GptError> {
        let (rows, len) = (DEFAULT_ROWS, default_len(block_size));
        Probe::from_ids(&visible_ids(vocab), block_size, rows, len, DEFAULT_SEED)
    }
}

pub const DEFAULT_ROWS: usize = 16;
pub const DEFAULT_SEED: u64 = 1234;

/// L = min(12, block_size / 2). 12 sits inside the induction task's lengths (4 to 16);
/// the longer L is, the more weight a one-layer head puts near t − L + 1 by position
/// alone (0.19 at L = 16 against 0.16 at 12 in the one-layer control).
pub fn default_len(block_size: usize) -> usize {
    (block_size / 2).min(12)
}

/// The ids of the vocab's visible characters (not spaces, line breaks or control
/// characters), or every id when fewer than two are: a probe row is then a prompt a
/// learner can read and type.
pub fn visible_ids(vocab: &Vocab) -> Vec<u32> {
    let visible: Vec<u32> = (0..vocab.len() as u32)
        .filter(|&i| {
            let ch = vocab.chars[i as usize];
            !ch.is_whitespace() && !ch.is_control()
        })
        .collect();
    match visible.len() {
        0 | 1 => (0..vocab.len() as u32).collect(),
        _ => visible,
    }
}

/// The scores of every head (each NL × NH, layer-major) and the probe's losses.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadScores {
    pub n_layer: usize,
    pub n_head: usize,
    /// Mean over rows and t in 1..2L of att[t, t − 1].
    pub previous_token: Vec<f32>,
    /// Mean over rows and t in L..2L (the second copy) of att[t, t − L + 1].
    pub induction: Vec<f32>,
    /// Mean over rows and t in 1..2L of att[t, 0] (t = 0 has nowhere else to look).
    pub first_token: Vec<f32>,
    /// Mean cross-entropy of predicting tokens 1..L from positions 0..L−1 (the first
    /// copy: random, ln V at best).
    pub loss_first: f32,
    /// Mean cross-entropy of predicting tokens L+1..2L from positions L..2L−1 (the second
    /// copy after its first token: predictable by induction). Token L, the start of the
    /// repeat, is in neither.
    pub loss_second: f32,
}

impl HeadScores {
    /// The layer and head of the largest induction score, and the score.
    pub fn best_induction(&self) -> (usize, usize, f32) {
        let (i, &v) = self
            .induction
            .iter()
            .enumerate()
            .fold((0, &f32::MIN), |m, x| if x.1 > m.1 { x } else { m });
        (i / self.n_head, i % self.n_head, v)
    }
}

/// Runs the probe through `model` (one forward of R × 2L) and measures every head.
pub fn head_scores(model: &Gpt, probe: &Probe) -> HeadScores {
    let mut acts = Activations::new(&model.config, probe.rows, 2 * probe.len);
    probe_forward(model, &mut acts, probe);
    scores_of(model, &acts, probe)
}

fn probe_forward(model: &Gpt, acts: &mut Activations, probe: &Probe) {
    let (r, t) = (probe.rows, 2 * probe.len);
    model.forward(acts, &probe.ids, None, r, t);
}

/// The scores from a forward pass of the probe already in `acts`.
fn scores_of(model: &Gpt, acts: &Activations, probe: &Probe) -> HeadScores {
    let (nl, nh, v) = (
        model.config.n_layer,
        model.config.n_head,
        model.config.vocab_size,
    );
    let (r, len, t) = (probe.rows, probe.len, 2 * probe.len);
    let mut s = HeadScores {
        n_layer: nl,
        n_head: nh,
        previous_token: vec![0.0; nl * nh],
        induction: vec![0.0; nl * nh],
        first_token: vec![0.0; nl * nh],
        loss_first: 0.0,
        loss_second: 0.0,
    };
    for l in 0..nl {
        for h in 0..nh {
            let (mut prev, mut ind, mut first) = (0.0f64, 0.0f64, 0.0f64);
            for b in 0..r {
                let att = acts.att(l, b, h, nh); // (T,T), row = query position
                for ti in 1..t {
                    prev += att[ti * t + ti - 1] as f64;
                    first += att[ti * t] as f64;
                }
                for ti in len..t {
                    ind += att[ti * t + ti - len + 1] as f64;
                }
            }
            let i = l * nh + h;
            s.previous_token[i] = (prev / (r * (t - 1)) as f64) as f32;
            s.first_token[i] = (first / (r * (t - 1)) as f64) as f32;
            s.induction[i] = (ind / (r * len) as f64) as f32;
        }
    }
    let loss = |positions: std::ops::Range<usize>| {
        let mut sum = 0.0f64;
        for b in 0..r {
            for ti in positions.clone() {
                let p = acts.probs_at(b, ti, v)[probe.ids[b * t + ti + 1] as usize];
                sum -= (p as f64).ln();
            }
        }
        (sum / (r * positions.len()) as f64) as f32
    };
    s.loss_first = loss(0..len - 1);
    s.loss_second = loss(len..t - 1);
    s
}

/// What switching one head off does: the probe's second-copy loss and the validation
/// loss with the head off, minus the same with every head on.
#[derive(Clone, Debug, PartialEq)]
pub struct Ablation {
    /// Per head (NL × NH): Δ loss_second of the probe.
    pub second_copy: Vec<f32>,
    /// Per head: Δ mean loss over `val_batches` fixed batches of validation text (empty
    /// when no validation ids were given).
    pub val: Vec<f32>,
    /// With every head on: loss_second and the validation loss.
    pub base_second_copy: f32,
    pub base_val: f32,
}

/// Ablates each head in turn (`Gpt::ablated`; the model's own flags are restored after).
/// `val` = validation ids (may be empty), measured on `val_batches` batches of
/// (`val_rows`, block_size) drawn with `seed` (`data::estimate_loss`).
pub fn ablation(
    model: &mut Gpt,
    probe: &Probe,
    val: &[u32],
    val_rows: usize,
    val_batches: usize,
    seed: u64,
) -> Ablation {
    let (nl, nh, bs) = (
        model.config.n_layer,
        model.config.n_head,
        model.config.block_size,
    );
    let saved = std::mem::take(&mut model.ablated);
    let mut probe_acts = Activations::new(&model.config, probe.rows, 2 * probe.len);
    let use_val = val.len() > bs && val_rows > 0 && val_batches > 0;
    let mut val_acts = Activations::new(&model.config, if use_val { val_rows } else { 1 }, bs);
    let (mut x, mut y) = (vec![0u32; val_rows * bs], vec![0u32; val_rows * bs]);
    let mut measure = |m: &Gpt| {
        probe_forward(m, &mut probe_acts, probe);
        let second = scores_of(m, &probe_acts, probe).loss_second;
        let (acts, x, y) = (&mut val_acts, &mut x[..], &mut y[..]);
        let v = match use_val {
            true => estimate_loss(m, acts, val, val_rows, bs, seed, val_batches, x, y),
            false => 0.0,
        };
        (second, v)
    };
    let (base_second, base_val) = measure(model);
    let mut out = Ablation {
        second_copy: Vec::with_capacity(nl * nh),
        val: Vec::new(),
        base_second_copy: base_second,
        base_val,
    };
    for l in 0..nl {
        for h in 0..nh {
            model.ablated.clear();
            model.set_ablated(l, h, true).expect("l, h in range");
            let (second, v) = measure(model);
            out.second_copy.push(second - base_second);
            if use_val {
                out.val.push(v - base_val);
            }
        }
    }
    model.ablated = saved;
    out
}
