//! Data-parallel training (`gpt::parallel`): k = 1 is `Trainer::step` bit for bit; k = 2
//! and k = 3 (uneven slices of a batch of 5) follow the k = 1 run within float tolerance
//! over 20 steps; the same k twice is the same run bit for bit; the slices' gradients
//! sum to the full batch's gradient; a `Worker` (the page's replica) computes the same
//! gradient as a thread, and refuses bad input with a code.

use attention_playground::gpt::{
    split_rows, Hyperparams, Parallel, ReplicaConfig, Trainer, Worker,
};

mod gpt_util;
use gpt_util::assert_close;

const STEPS: usize = 20;

fn text() -> String {
    "the cat sat. a dog ran! to be, or not? été 夏 🙂\n".repeat(60)
}

fn hp(batch_size: usize) -> Hyperparams {
    Hyperparams {
        batch_size,
        n_embd: 16,
        n_head: 2,
        n_layer: 2,
        block_size: 8,
        lr: 1e-3,
        ..Hyperparams::preset("tiny").unwrap()
    }
}

fn trainer(batch_size: usize) -> Trainer {
    Trainer::new(&text(), hp(batch_size), 11).unwrap()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// (losses, final params) of STEPS data-parallel steps on k threads.
fn run(batch_size: usize, k: usize) -> (Vec<f32>, Vec<f32>) {
    let mut tr = trainer(batch_size);
    let mut par = Parallel::new(&tr, k);
    assert_eq!(par.threads(), k.min(batch_size));
    let losses = (0..STEPS).map(|_| par.step(&mut tr)).collect();
    assert_eq!(tr.steps, STEPS as u64);
    (losses, tr.model.params)
}

#[test]
fn split_rows_covers_the_batch_in_near_equal_slices() {
    assert_eq!(split_rows(5, 3), vec![0..2, 2..4, 4..5]);
    assert_eq!(split_rows(5, 1), vec![0..5]);
    assert_eq!(split_rows(2, 4), vec![0..1, 1..2], "k is clamped to B");
    assert_eq!(split_rows(3, 0), vec![0..3], "k = 0 is 1");
    for b in 1..12 {
        for k in 1..=b {
            let s = split_rows(b, k);
            assert_eq!(s.len(), k);
            assert_eq!((s[0].start, s[k - 1].end), (0, b));
            assert!(s.windows(2).all(|w| w[0].end == w[1].start));
            let (lo, hi) = (
                s.iter().map(|r| r.len()).min(),
                s.iter().map(|r| r.len()).max(),
            );
            assert!(hi.unwrap() - lo.unwrap() <= 1, "b {b} k {k}: {s:?}");
        }
    }
}

#[test]
fn one_thread_is_step_bit_for_bit() {
    let mut plain = trainer(5);
    let want: Vec<u32> = (0..STEPS).map(|_| plain.step().to_bits()).collect();
    let (losses, params) = run(5, 1);
    assert_eq!(bits(&losses), want);
    assert_eq!(bits(&params), bits(&plain.model.params));
}

/// Tolerances, max |a − b| / max |b|: the losses 1e-6 (measured ≈8e-8: the slices
/// reassociate the gradient sums only), the weights after 20 AdamW steps 1e-5 (measured
/// ≈1.3e-6 at lr 1e-3; Adam's m/√v turns the rounding of near-zero gradients into
/// whole-lr differences, so at lr 1e-2 it grows to ≈2e-4).
const TOL_LOSS: f32 = 1e-6;
const TOL_PARAMS: f32 = 1e-5;

#[test]
fn two_and_three_threads_follow_one_thread() {
    let (want_losses, want_params) = run(5, 1);
    for k in [2, 3] {
        let (losses, params) = run(5, k);
        let dl = assert_close(&format!("k = {k} losses"), &losses, &want_losses, TOL_LOSS);
        let dp = assert_close(
            &format!("k = {k} params"),
            &params,
            &want_params,
            TOL_PARAMS,
        );
        println!("k = {k}: max |diff| / max |k = 1| losses {dl:e}, params {dp:e}");
        assert_ne!(bits(&params), bits(&want_params), "k = {k} really split");
    }
}

#[test]
fn the_same_k_twice_is_the_same_run() {
    for k in [2, 3] {
        let (l1, p1) = run(5, k);
        let (l2, p2) = run(5, k);
        assert_eq!(bits(&l1), bits(&l2), "k = {k}");
        assert_eq!(bits(&p1), bits(&p2), "k = {k}");
    }
}

#[test]
fn slice_gradients_sum_to_the_full_batch_gradient() {
    let mut tr = trainer(5);
    tr.next_batch();
    let (x, y) = (tr.batch().0.to_vec(), tr.batch().1.to_vec());
    let t = tr.model.config.block_size;
    let (b, bt) = (5, 5 * t);
    let full_loss = tr.model.forward(&mut tr.acts, &x, Some(&y), b, t).unwrap();
    tr.model.backward(&tr.acts, &mut tr.dacts, &x, &y);
    let full = tr.model.grads.clone();
    let mut sum = vec![0.0f32; full.len()];
    let mut loss_sum = 0.0f64;
    for r in split_rows(b, 3) {
        loss_sum += tr.slice_grads(r).unwrap();
        for (s, g) in sum.iter_mut().zip(&tr.model.grads) {
            *s += g;
        }
    }
    let loss = (loss_sum / bt as f64) as f32;
    assert!((loss - full_loss).abs() < 1e-6, "{loss} vs {full_loss}");
    let scale = full.iter().fold(0.0f32, |m, g| m.max(g.abs()));
    let worst = sum
        .iter()
        .zip(&full)
        .fold(0.0f32, |m, (s, g)| m.max((s - g).abs()));
    assert!(scale > 1e-3, "a real gradient: max |g| {scale}");

    assert!(
        worst < 1e-6 * scale.max(1.0),
        "max |Σ slices − full| {worst}"
    );
}

#[test]
fn a_worker_computes_what_the_trainer_does_for_its_rows() {
    let mut tr = trainer(5);
    tr.next_batch();
    let cfg = ReplicaConfig::of(&tr);
    let mut worker = Worker::new(&cfg).unwrap();
    let t = cfg.model.block_size;
    let (x, y) = (tr.batch().0.to_vec(), tr.batch().1.to_vec());
    let (xs, ys) = (&x[2 * t..4 * t], &y[2 * t..4 * t]);
    let (g, sum) = worker.grads(&tr.model.params, (xs, ys), 2, 5).unwrap();
    let (g, sum) = (g.to_vec(), sum);
    let want_sum = tr.slice_grads(2..4).unwrap();
    assert_eq!(sum.to_bits(), want_sum.to_bits());
    assert_eq!(bits(&g), bits(&tr.model.grads));
    // a bigger slice than the first makes the buffers grow
    let (g5, _) = worker.grads(&tr.model.params, (&x, &y), 5, 5).unwrap();
    let g5 = g5.to_vec();
    tr.slice_grads(0..5).unwrap();
    assert_eq!(bits(&g5), bits(&tr.model.grads));
}

#[test]
fn bad_slices_and_gradients_are_refused_with_a_code() {
    let mut tr = trainer(5);
    tr.next_batch();
    let code = |e: attention_playground::gpt::GptError| e.code();
    assert_eq!(
        tr.slice_grads(4..6).map_err(code),
        Err("gpt.parallel.slice")
    );
    assert_eq!(
        tr.slice_grads(2..2).map_err(code),
        Err("gpt.parallel.slice")
    );
    assert_eq!(
        tr.add_grads(&[0.0; 3]).map_err(code),
        Err("gpt.parallel.grads_len")
    );
    let mut bad = ReplicaConfig::of(&tr);
    bad.model.n_head = 3;
    assert_eq!(
        Worker::new(&bad).err().map(code),
        Some("gpt.config.heads_divide")
    );
    let cfg = ReplicaConfig::of(&tr);
    let mut w = Worker::new(&cfg).unwrap();
    let p = tr.model.params.clone();
    let t = cfg.model.block_size;
    let ids = vec![0u32; 2 * t];
    let mut call = |p: &[f32], x: &[u32], rows, batch_rows| {
        w.grads(p, (x, &ids[..x.len()]), rows, batch_rows)
            .err()
            .map(code)
    };
    assert_eq!(call(&p[1..], &ids, 2, 5), Some("gpt.parallel.params_len"));
    assert_eq!(call(&p, &ids, 0, 5), Some("gpt.parallel.rows"));
    assert_eq!(call(&p, &ids, 2, 1), Some("gpt.parallel.rows"));
    assert_eq!(
        call(&p, &ids, 2, 6),
        Some("gpt.parallel.rows"),
        "batch_size 5"
    );
    assert_eq!(call(&p, &ids[..t], 2, 5), Some("gpt.model.ids_len"));
    let mut outside = ids.clone();
    outside[3] = cfg.model.vocab_size as u32;
    assert_eq!(call(&p, &outside, 2, 5), Some("gpt.model.id_outside_vocab"));
    assert_eq!(call(&p, &ids, 2, 5), None);
}
