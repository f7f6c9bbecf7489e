//! The per-op profile of one training step: each op of the forward, the backward and
//! AdamW timed alone at a preset's shapes, the fastest of `reps` calls times how often a
//! step makes it. The clock is the caller's (ms): `Instant` natively (`gpt profile`),
//! `performance.now()` in wasm (`gptProfile`), so nothing here needs std::time.
//!
//! B = batch, T = time, C = channels, NH = heads, V = vocab, L = layers, BT = B·T.

use super::ops::{self, *};
use super::{kernels, AdamW, Gpt, GptError, Hyperparams};
use serde::Serialize;

/// The vocabulary the profile assumes: the default corpus's 65 characters.
const VOCAB: usize = 65;

/// One op's time in a training step.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileRow {
    pub op: String,
    /// ms per training step: the fastest call × the calls a step makes.
    pub ms: f64,
    /// GFLOP/s of the fastest call, for the matmuls (None for the others).
    pub gflops: Option<f64>,
}

/// Every op of one step at a preset's shapes, in step order.
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    pub b: usize,
    pub t: usize,
    pub c: usize,
    pub l: usize,
    /// `kernels::simd_level()` while it ran.
    pub simd: &'static str,
    pub rows: Vec<ProfileRow>,
    /// Σ rows.ms (the encoder, the residuals and zeroing the gradients are not in it).
    pub total_ms: f64,
}

/// Fastest of `reps` (at least 1) calls of `f` on `clock` (ms): the least disturbed.
pub fn time_ms(clock: &mut dyn FnMut() -> f64, reps: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..reps.max(1) {
        let t0 = clock();
        f();
        best = best.min(clock() - t0);
    }
    best
}

/// Times every op of one training step of `hp` (vocab 65) on `clock`, `reps` calls each.
pub fn profile(
    hp: &Hyperparams,
    reps: usize,
    clock: &mut dyn FnMut() -> f64,
) -> Result<Profile, GptError> {
    hp.validate(VOCAB)?;
    let mut bench = Bench::new(hp, reps, clock);
    bench.matmuls();
    bench.attention();
    bench.layernorm_gelu();
    bench.crossentropy();
    bench.adamw(hp)?;
    let Bench { b, t, c, l, .. } = bench;
    let total_ms = bench.rows.iter().map(|r| r.ms).sum();
    Ok(Profile {
        b,
        t,
        c,
        l,
        simd: kernels::simd_level(),
        rows: bench.rows,
        total_ms,
    })
}

impl Profile {
    /// The table `gpt profile` prints: ms per step, share of the total, op.
    pub fn table(&self, preset: &str) -> String {
        let Profile { b, t, c, l, .. } = *self;
        let mut s = format!(
            "{preset} (B={b}, T={t}, C={c}, L={l}), simd {}: per step, each op timed alone\n",
            self.simd
        );
        for r in &self.rows {
            let rate = r.gflops.map(|g| format!(" ({g:.1} GFLOP/s)"));
            let share = 100.0 * r.ms / self.total_ms;
            s += &format!(
                "  {:8.4} ms  {share:5.1} %  {}{}\n",
                r.ms,
                r.op,
                rate.unwrap_or_default()
            );
        }
        s + &format!(
            "  {:8.4} ms  total of the ops above (encoder, residuals and zeroing not included)",
            self.total_ms
        )
    }
}

/// The preset's shapes and buffers big enough for every op of a step (filled with 0.01:
/// the values do not change the time).
struct Bench<'a> {
    b: usize,
    t: usize,
    c: usize,
    nh: usize,
    l: usize,
    reps: usize,
    clock: &'a mut dyn FnMut() -> f64,
    out: Vec<f32>,
    inp: Vec<f32>,
    w: Vec<f32>,
    wt: Vec<f32>,
    bias: Vec<f32>,
    dinp: Vec<f32>,
    dw: Vec<f32>,
    db: Vec<f32>,
    rows: Vec<ProfileRow>,
}

fn z(n: usize) -> Vec<f32> {
    vec![0.01f32; n]
}

impl<'a> Bench<'a> {
    fn new(hp: &Hyperparams, reps: usize, clock: &'a mut dyn FnMut() -> f64) -> Bench<'a> {
        let (b, t, c, v) = (hp.batch_size, hp.block_size, hp.n_embd, VOCAB);
        let (acts, weights, biases) = (b * t * 4 * c.max(v), 4 * c * c.max(v), 4 * c.max(v));
        Bench {
            b,
            t,
            c,
            nh: hp.n_head,
            l: hp.n_layer,
            reps,
            clock,
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

    /// Records `op`: `ms` per call, `calls` per step.
    fn push(&mut self, op: String, ms: f64, calls: usize, gflops: Option<f64>) {
        let ms = ms * calls as f64;
        self.rows.push(ProfileRow { op, ms, gflops });
    }

    fn matmuls(&mut self) {
        let (bt, c, v, l, reps) = (self.b * self.t, self.c, VOCAB, self.l, self.reps);
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
            let f = time_ms(self.clock, reps, || {
                ops::matmul_forward(&mut self.out, &self.inp, w, &mut self.wt, s)
            });
            let g = time_ms(self.clock, reps, || {
                let dw = WeightGrads {
                    dweight: &mut self.dw,
                    dbias: &mut self.db[..oc],
                };
                ops::matmul_backward(&mut self.dinp, dw, &self.out, &self.inp, &self.w, s)
            });
            let mflop = 2.0 * (bt * ic * oc) as f64 / 1e6; // per ms: GFLOP/s
            self.push(format!("matmul {name} fwd"), f, n, Some(mflop / f));
            self.push(format!("matmul {name} bwd"), g, n, Some(2.0 * mflop / g));
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
        let f = time_ms(self.clock, reps, || {
            ops::attention_forward(&mut self.out, &mut pre, &mut att, &qkv, &mut scratch, s)
        });
        let g = time_ms(self.clock, reps, || {
            ops::attention_backward(&mut dqkv, &self.inp, &qkv, &att, &mut scratch, s)
        });
        self.push("attention fwd".into(), f, self.l, None);
        self.push("attention bwd".into(), g, self.l, None);
    }

    fn layernorm_gelu(&mut self) {
        let (bt, c, l, reps) = (self.b * self.t, self.c, self.l, self.reps);
        let (mut mean, mut rstd) = (z(bt), z(bt));
        let (out, inp) = (&mut self.out[..bt * c], &self.inp[..bt * c]);
        let w = Weights {
            weight: &self.w[..c],
            bias: &self.bias[..c],
        };
        let f = time_ms(self.clock, reps, || {
            ops::layernorm_forward(out, &mut mean, &mut rstd, inp, w, c)
        });
        let g = time_ms(self.clock, reps, || {
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
        self.push("layernorm fwd".into(), f, 2 * l + 1, None);
        self.push("layernorm bwd".into(), g, 2 * l + 1, None);
        let (out, inp) = (&mut self.out[..bt * 4 * c], &self.inp[..bt * 4 * c]);
        let f = time_ms(self.clock, reps, || ops::gelu_forward(out, inp));
        let dinp = &mut self.dinp[..bt * 4 * c];
        let g = time_ms(self.clock, reps, || ops::gelu_backward(dinp, inp, out));
        self.push("gelu fwd".into(), f, l, None);
        self.push("gelu bwd".into(), g, l, None);
    }

    fn crossentropy(&mut self) {
        let (bt, v, reps) = (self.b * self.t, VOCAB, self.reps);
        let (mut losses, targets) = (z(bt), vec![1u32; bt]);
        let (out, inp) = (&mut self.out[..bt * v], &self.inp[..bt * v]);
        let f = time_ms(self.clock, reps, || {
            ops::crossentropy_forward(&mut losses, out, inp, Some(&targets), v);
        });
        let dinp = &mut self.dinp[..bt * v];
        let g = time_ms(self.clock, reps, || {
            ops::crossentropy_backward(dinp, out, &targets, 0.1, v)
        });
        self.push("crossentropy fwd".into(), f, 1, None);
        self.push("crossentropy bwd".into(), g, 1, None);
    }

    /// One AdamW update of every parameter (gradients 0.01, so the moments stay finite).
    fn adamw(&mut self, hp: &Hyperparams) -> Result<(), GptError> {
        let mut model = Gpt::zeros(hp.model_config(VOCAB))?;
        model.grads.fill(0.01);
        let mut opt = AdamW::new(&model.index, hp.lr, hp.weight_decay);
        let o = time_ms(self.clock, self.reps, || {
            opt.step(&mut model.params, &model.grads)
        });
        self.push("AdamW".into(), o, 1, None);
        Ok(())
    }
}

/// The causal attention forward alone, one sequence and one head (T = `t`, head size `hs`):
/// the median ms of `iters` calls (at least 1), each timed as 10 calls on `clock` so
/// a coarse clock still resolves it. The counterpart of PyTorch's
/// `scaled_dot_product_attention(q, k, v, is_causal=True)` in `tools/gpt_torch.py
/// bench-attention`.
pub fn attention_forward_ms(
    t: usize,
    hs: usize,
    iters: usize,
    clock: &mut dyn FnMut() -> f64,
) -> f64 {
    const CALLS: usize = 10;
    let s = AttnShape {
        b: 1,
        t,
        c: hs,
        nh: 1,
        causal: true,
    };
    let qkv: Vec<f32> = (0..t * 3 * hs)
        .map(|i| ((i % 17) as f32 - 8.0) * 0.05)
        .collect();
    let (mut out, mut pre, mut att) = (vec![0.0; t * hs], vec![0.0; t * t], vec![0.0; t * t]);
    let mut scratch = vec![0.0; attention_scratch_len(t, hs)];
    let mut times: Vec<f64> = (0..iters.max(1))
        .map(|_| {
            let t0 = clock();
            for _ in 0..CALLS {
                ops::attention_forward(&mut out, &mut pre, &mut att, &qkv, &mut scratch, s);
            }
            (clock() - t0) / CALLS as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
