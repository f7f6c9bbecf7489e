//! Every fast f32 op of `gpt::ops` (and the one softmax) against its naive twin in
//! `gpt::naive`, forward and backward, with every instruction set this CPU has: odd shapes,
//! T = 1, causal and full attention, with and without bias. Outputs the op overwrites are
//! pre-filled with NaN (so a cell it forgets shows), gradients it accumulates into start
//! from random values, and every output carries one NaN past its end that must stay.
//!
//! B = batch, T = time, C = channels, NH = heads, HS = C / NH, V = vocab, BT = B·T.

#[path = "gpt_util/kernels.rs"]
mod kernel_util;

use attention_playground::gpt::ops::{self, *};
use attention_playground::gpt::{kernels, naive, Rng};
use kernel_util::{both_levels, close, random};

/// n NaNs plus the NaN past the end.
fn poisoned(n: usize) -> Vec<f32> {
    vec![f32::NAN; n + 1]
}

/// n random values (an accumulator's start) plus the NaN past the end.
fn start(n: usize, rng: &mut Rng) -> Vec<f32> {
    let mut v = random(n, rng);
    v.push(f32::NAN);
    v
}

/// got ≈ want (`close`), both still ending in their NaN past the end.
fn same(got: &[f32], want: &[f32], k: usize, what: &str) {
    close(body(got, what), body(want, what), k, what);
}

/// Checks that the NaN past the end survived and returns the rest.
fn body<'a>(v: &'a [f32], what: &str) -> &'a [f32] {
    let (last, rest) = v.split_last().unwrap();
    assert!(last.is_nan(), "{what}: wrote past the end");
    rest
}

/// (B, T, NH, HS): T = 1, odd head sizes, several heads, a head as wide as a tile strip.
const ATTN_SHAPES: [(usize, usize, usize, usize); 9] = [
    (1, 1, 1, 1),
    (1, 1, 2, 3),
    (2, 2, 1, 5),
    (1, 5, 3, 3),
    (3, 7, 2, 4),
    (2, 9, 1, 7),
    (1, 17, 4, 16),
    (2, 13, 2, 9),
    (1, 33, 1, 8),
];

/// ATTN_SHAPES, each causal and full.
fn attn_shapes() -> impl Iterator<Item = AttnShape> {
    let both = |(b, t, nh, hs): (usize, usize, usize, usize)| {
        [true, false].map(|causal| AttnShape {
            b,
            t,
            c: nh * hs,
            nh,
            causal,
        })
    };
    ATTN_SHAPES.into_iter().flat_map(both)
}

#[test]
fn attention_forward_equals_naive() {
    let mut rng = Rng::new(11);
    for s in attn_shapes() {
        let (b, t, nh, hs) = (s.b, s.t, s.nh, s.hs());
        let qkv = random(b * t * 3 * s.c, &mut rng);
        let (bt, tt) = (b * t, b * nh * t * t);
        let scratch = || vec![f32::NAN; attention_scratch_len(t, hs)];
        let (mut out, mut pre, mut att) = (poisoned(bt * s.c), poisoned(tt), poisoned(tt));
        naive::attention_forward(&mut out, &mut pre, &mut att, &qkv, &mut scratch(), s);
        both_levels(|level| {
            let what = format!("attention {s:?} {level}");
            let (mut o, mut p, mut a) = (poisoned(bt * s.c), poisoned(tt), poisoned(tt));
            ops::attention_forward(&mut o, &mut p, &mut a, &qkv, &mut scratch(), s);
            same(&p, &pre, hs, &format!("preatt {what}"));
            same(&a, &att, t, &format!("att {what}"));
            same(&o, &out, t, &format!("out {what}"));
        });
    }
}

#[test]
fn attention_backward_equals_naive() {
    let mut rng = Rng::new(12);
    for s in attn_shapes() {
        let (b, t, nh, hs) = (s.b, s.t, s.nh, s.hs());
        let (bt, tt) = (b * t, b * nh * t * t);
        let (qkv, dout) = (random(bt * 3 * s.c, &mut rng), random(bt * s.c, &mut rng));
        let mut scratch = vec![f32::NAN; attention_scratch_len(t, hs)];
        let (mut out, mut pre, mut att) = (poisoned(bt * s.c), poisoned(tt), poisoned(tt));
        naive::attention_forward(&mut out, &mut pre, &mut att, &qkv, &mut scratch, s);
        let dqkv0 = start(bt * 3 * s.c, &mut rng);
        let mut want = dqkv0.clone();
        naive::attention_backward(&mut want, &dout, &qkv, &att, &mut scratch, s);
        both_levels(|level| {
            let what = format!("dqkv {s:?} {level}");
            let mut got = dqkv0.clone();
            scratch.fill(f32::NAN);
            ops::attention_backward(&mut got, &dout, &qkv, &att, &mut scratch, s);
            same(&got, &want, t.max(hs), &what);
        });
    }
}

/// (BT, C) for the row ops: one row of one channel, odd widths, wider than 8 lanes.
const ROW_SHAPES: [(usize, usize); 7] = [(1, 1), (1, 7), (2, 3), (3, 8), (5, 9), (4, 33), (7, 64)];

#[test]
fn layernorm_equals_naive() {
    let mut rng = Rng::new(13);
    for (bt, c) in ROW_SHAPES {
        for bias in [true, false] {
            let (inp, dout) = (random(bt * c, &mut rng), random(bt * c, &mut rng));
            let (weight, b) = (
                random(c, &mut rng),
                random(if bias { c } else { 0 }, &mut rng),
            );
            let w = Weights {
                weight: &weight,
                bias: &b,
            };
            let (mut out, mut mean, mut rstd) = (poisoned(bt * c), poisoned(bt), poisoned(bt));
            naive::layernorm_forward(&mut out, &mut mean, &mut rstd, &inp, w, c);
            let saved = LayerNormSaved {
                inp: &inp,
                mean: &mean[..bt],
                rstd: &rstd[..bt],
            };
            let (dinp0, dw0, db0) = (
                start(bt * c, &mut rng),
                start(c, &mut rng),
                start(b.len(), &mut rng),
            );
            let (mut dinp, mut dw, mut db) = (dinp0.clone(), dw0.clone(), db0.clone());
            let grads = WeightGrads {
                dweight: &mut dw,
                dbias: &mut db[..b.len()],
            };
            naive::layernorm_backward(&mut dinp, grads, &dout, saved, &weight, c);
            both_levels(|level| {
                let what = format!("layernorm ({bt}, {c}) bias {bias} {level}");
                let (mut o, mut m, mut r) = (poisoned(bt * c), poisoned(bt), poisoned(bt));
                ops::layernorm_forward(&mut o, &mut m, &mut r, &inp, w, c);
                same(&o, &out, c, &format!("out {what}"));
                same(&m, &mean, c, &format!("mean {what}"));
                same(&r, &rstd, c, &format!("rstd {what}"));
                let (mut gi, mut gw, mut gb) = (dinp0.clone(), dw0.clone(), db0.clone());
                let grads = WeightGrads {
                    dweight: &mut gw,
                    dbias: &mut gb[..b.len()],
                };
                ops::layernorm_backward(&mut gi, grads, &dout, saved, &weight, c);
                same(&gi, &dinp, c, &format!("dinp {what}"));
                same(&gw, &dw, bt, &format!("dweight {what}"));
                same(&gb, &db, bt, &format!("dbias {what}"));
            });
        }
    }
}

#[test]
fn matmul_ops_equal_naive() {
    let mut rng = Rng::new(14);
    for (bt, ic, oc) in [
        (1, 1, 1),
        (1, 3, 5),
        (2, 7, 9),
        (5, 16, 33),
        (9, 33, 17),
        (3, 8, 65),
    ] {
        for bias in [true, false] {
            let s = LinearShape { bt, ic, oc };
            let (inp, dout) = (random(bt * ic, &mut rng), random(bt * oc, &mut rng));
            let (weight, b) = (
                random(oc * ic, &mut rng),
                random(if bias { oc } else { 0 }, &mut rng),
            );
            let w = Weights {
                weight: &weight,
                bias: &b,
            };
            let mut out = poisoned(bt * oc);
            naive::matmul_forward(&mut out, &inp, w, &mut [], s);
            let (dinp0, dw0, db0) = (
                start(bt * ic, &mut rng),
                start(oc * ic, &mut rng),
                start(b.len(), &mut rng),
            );
            let (mut dinp, mut dw, mut db) = (dinp0.clone(), dw0.clone(), db0.clone());
            let grads = WeightGrads {
                dweight: &mut dw,
                dbias: &mut db[..b.len()],
            };
            naive::matmul_backward(&mut dinp, grads, &dout, &inp, &weight, s);
            both_levels(|level| {
                let what = format!("linear {s:?} bias {bias} {level}");
                let (mut o, mut wt) = (poisoned(bt * oc), vec![f32::NAN; ic * oc]);
                ops::matmul_forward(&mut o, &inp, w, &mut wt, s);
                same(&o, &out, ic, &format!("out {what}"));
                let (mut gi, mut gw, mut gb) = (dinp0.clone(), dw0.clone(), db0.clone());
                let grads = WeightGrads {
                    dweight: &mut gw,
                    dbias: &mut gb[..b.len()],
                };
                ops::matmul_backward(&mut gi, grads, &dout, &inp, &weight, s);
                same(&gi, &dinp, oc, &format!("dinp {what}"));
                same(&gw, &dw, bt, &format!("dweight {what}"));
                same(&gb, &db, bt, &format!("dbias {what}"));
            });
        }
    }
}

/// GPT-2's tanh GELU (Hugging Face's `gelu_new`) against its formula in f64 with std's
/// tanh, from −12 to 12 and the far tails; its derivative against central differences of
/// that formula.
#[test]
fn gelu_tanh_equals_its_formula_and_its_slope() {
    let f = |x: f64| {
        0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
    };
    let inp: Vec<f32> = (-2400..=2400)
        .map(|i| i as f32 / 200.0)
        .chain([-1e4, -90.0, -50.0, 50.0, 90.0, 1e4])
        .collect();
    let mut out = vec![0.0f32; inp.len()];
    ops::gelu_tanh_forward(&mut out, &inp);
    for (&x, &y) in inp.iter().zip(&out) {
        let want = f(x as f64);
        assert!(
            (y as f64 - want).abs() <= 2e-6 * want.abs().max(1.0),
            "gelu_tanh({x}) = {y}, want {want}"
        );
    }
    let mut dinp = vec![0.0f32; inp.len()];
    ops::gelu_tanh_backward(&mut dinp, &inp, &vec![1.0; inp.len()]);
    for (&x, &d) in inp.iter().zip(&dinp).filter(|(x, _)| x.abs() <= 12.0) {
        let h = 1e-4;
        let want = (f(x as f64 + h) - f(x as f64 - h)) / (2.0 * h);
        assert!(
            (d as f64 - want).abs() <= 1e-5 * want.abs().max(1.0),
            "gelu_tanh'({x}) = {d}, want {want}"
        );
    }
}

#[test]
fn gelu_equals_naive() {
    let mut rng = Rng::new(15);
    for n in [1, 2, 7, 8, 9, 33, 200] {
        // wide inputs: the far tails of Φ as well as the middle
        let inp: Vec<f32> = random(n, &mut rng).iter().map(|x| 4.0 * x).collect();
        let dout = random(n, &mut rng);
        let mut out = poisoned(n);
        naive::gelu_forward(&mut out, &inp);
        let dinp0 = start(n, &mut rng);
        let mut dinp = dinp0.clone();
        naive::gelu_backward(&mut dinp, &inp, &dout);
        both_levels(|level| {
            let what = format!("gelu {n} {level}");
            let mut o = poisoned(n);
            ops::gelu_forward(&mut o, &inp);
            same(&o, &out, 1, &format!("out {what}"));
            let mut d = dinp0.clone();
            ops::gelu_backward(&mut d, &inp, &dout);
            same(&d, &dinp, 1, &format!("dinp {what}"));
        });
    }
}

#[test]
fn crossentropy_equals_naive() {
    let mut rng = Rng::new(16);
    for (bt, v) in [(1, 1), (1, 2), (3, 7), (2, 9), (5, 65), (4, 33)] {
        let logits: Vec<f32> = random(bt * v, &mut rng).iter().map(|x| 3.0 * x).collect();
        let targets: Vec<u32> = (0..bt).map(|n| ((n * 7 + 3) % v) as u32).collect();
        for with_targets in [true, false] {
            let y = with_targets.then_some(&targets[..]);
            let (mut losses, mut probs) = (poisoned(bt), poisoned(bt * v));
            let mean = naive::crossentropy_forward(&mut losses, &mut probs, &logits, y, v);
            both_levels(|level| {
                let what = format!("crossentropy ({bt}, {v}) targets {with_targets} {level}");
                let (mut l, mut p) = (poisoned(bt), poisoned(bt * v));
                let got = ops::crossentropy_forward(&mut l, &mut p, &logits, y, v);
                same(&p, &probs, v, &format!("probs {what}"));
                assert_eq!(got.is_some(), with_targets, "{what}: a mean iff targets");
                if with_targets {
                    same(&l, &losses, v, &format!("losses {what}"));
                    close(
                        &[got.unwrap()],
                        &[mean.unwrap()],
                        v,
                        &format!("mean {what}"),
                    );
                } else {
                    assert!(
                        l.iter().all(|x| x.is_nan()),
                        "{what}: no losses without targets"
                    );
                }
            });
        }
        let probs = &{
            let (mut l, mut p) = (poisoned(bt), poisoned(bt * v));
            naive::crossentropy_forward(&mut l, &mut p, &logits, Some(&targets), v);
            p
        }[..bt * v];
        let dlogits0 = start(bt * v, &mut rng);
        let mut want = dlogits0.clone();
        naive::crossentropy_backward(&mut want, probs, &targets, 0.25, v);
        let mut got = dlogits0.clone();
        ops::crossentropy_backward(&mut got, probs, &targets, 0.25, v);
        let what = format!("dlogits ({bt}, {v})");
        same(&got, &want, 1, &what);
    }
}

/// The one f32 softmax (attention, probabilities, sampling): masked (−∞) entries weigh 0,
/// a single entry is 1, and (max, Σ) are what log-softmax needs.
#[test]
fn softmax_equals_naive() {
    let mut rng = Rng::new(17);
    for n in [1, 2, 7, 8, 9, 17, 65] {
        let mut x: Vec<f32> = random(n, &mut rng).iter().map(|v| 5.0 * v).collect();
        if n > 2 {
            x[1] = f32::NEG_INFINITY; // a masked entry
        }
        let mut want = poisoned(n);
        let (max, sum) = naive::softmax(&mut want, &x);
        let mut got = poisoned(n);
        let (m, s) = kernels::softmax(&mut got, &x);
        close(
            body(&got, "softmax"),
            body(&want, "softmax"),
            n,
            &format!("softmax {n}"),
        );
        assert_eq!(m, max, "softmax {n}: the max");
        close(&[s], &[sum], n, &format!("softmax {n}: Σ"));
        if n > 2 {
            assert_eq!(got[1], 0.0, "softmax {n}: a masked entry weighs 0");
        }
    }
    let mut one = [f32::NAN];
    kernels::softmax(&mut one, &[-3.5]);
    assert_eq!(one, [1.0]);
}
