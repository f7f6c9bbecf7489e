//! What a head learns (`gpt::heads`, `gpt::toy`): a head built by hand to attend to
//! t − 1 scores exactly 1; ablating a head is the same model as one whose c_proj never
//! reads that head's channels; and, in release, the phenomenon itself: the `induction`
//! preset on the repeated-strings task forms an induction head, a one-layer model does not.

use attention_playground::gpt::heads::{ablation, head_scores, Probe};
use attention_playground::gpt::toy::RepeatTask;
use attention_playground::gpt::{
    ActGrads, Activations, Gpt, GptConfig, Hyperparams, Trainer, Vocab,
};

/// Where the weights called `name` sit in `m.params`.
fn range_of(m: &Gpt, name: &str) -> std::ops::Range<usize> {
    m.index.spec(name).unwrap().range.clone()
}

/// A model whose every weight is 0 but ln_1's scale, with block_size T = 16 and head size
/// 16, so position t can be a one-hot wpe[t] = e_t that survives ln_1 as a·e_t − b·𝟙.
fn positional_model() -> Gpt {
    let cfg = GptConfig {
        vocab_size: 5,
        block_size: 16,
        n_layer: 1,
        n_head: 2,
        n_embd: 32,
        bias: true,
    };
    let mut m = Gpt::zeros(cfg).unwrap();
    let c = 32;
    let (wpe, ln, attn) = (
        range_of(&m, "transformer.wpe.weight"),
        range_of(&m, "transformer.h.0.ln_1.weight"),
        range_of(&m, "transformer.h.0.attn.c_attn.weight"),
    );
    for t in 0..16 {
        m.params[wpe.start + t * c + t] = 1.0; // wpe[t] = e_t
    }
    m.params[ln].fill(1.0);
    let w = &mut m.params[attn]; // (3C, C): rows q | k | v
    for j in 0..16 {
        w[j * c + j] = 100.0; // head 0: q_t = 100·(a e_t − b 𝟙)
        if j + 1 < 16 {
            w[(c + j + 1) * c + j] = 1.0; // k_s = a e_{s+1} − b·(shifted 𝟙)
        }
    }
    // q_t · k_s = 100 a² [s = t − 1] + terms equal for every s: all weight on t − 1
    m
}

#[test]
fn a_head_built_to_attend_to_the_previous_token_scores_one() {
    let m = positional_model();
    let probe = Probe::new(5, 16, 3, 8, 9).unwrap();
    let s = head_scores(&m, &probe);
    assert_eq!((s.n_layer, s.n_head), (1, 2));
    assert_eq!(s.previous_token[0], 1.0, "head (0, 0)");
    assert_eq!(s.induction[0], 0.0);
    assert_eq!(s.first_token[0], 1.0 / 15.0, "only t = 1 looks at 0");
    // head (0, 1) has q = 0: uniform over the t + 1 visible positions
    let uniform: f64 = (1..16).map(|t| 1.0 / (t + 1) as f64).sum::<f64>() / 15.0;
    assert!((s.previous_token[1] as f64 - uniform).abs() < 1e-6);
    assert!((s.first_token[1] as f64 - uniform).abs() < 1e-6);
    let induction: f64 = (8..16).map(|t| 1.0 / (t + 1) as f64).sum::<f64>() / 8.0;
    assert!((s.induction[1] as f64 - induction).abs() < 1e-6);
    // every logit is 0: both copies cost ln V
    assert!((s.loss_first - 5f32.ln()).abs() < 1e-5, "{}", s.loss_first);
    assert!((s.loss_second - 5f32.ln()).abs() < 1e-5);
}

#[test]
fn the_probe_is_seeded_random_tokens_written_twice() {
    let p = Probe::new(7, 20, 4, 10, 3).unwrap();
    assert_eq!(p.ids.len(), 4 * 20);
    for row in p.ids.chunks(20) {
        assert_eq!(row[..10], row[10..]);
        assert!(row.iter().all(|&i| i < 7));
    }
    assert_eq!(p, Probe::new(7, 20, 4, 10, 3).unwrap());
    assert_ne!(p.ids, Probe::new(7, 20, 4, 10, 4).unwrap().ids);
    for (rows, len, bs) in [(0, 4, 8), (1, 1, 8), (1, 5, 8)] {
        let e = Probe::new(7, bs, rows, len, 1).unwrap_err();
        assert_eq!(e.code(), "gpt.heads.probe");
    }
    // the default draws visible characters only: a row is a prompt one can type
    let vocab = Vocab::from_text("\n ab\tc");
    let d = Probe::default_for(&vocab, 64).unwrap();
    assert_eq!((d.rows, d.len), (16, 12));
    let visible = [vocab.id('a'), vocab.id('b'), vocab.id('c')].map(Option::unwrap);
    assert!(d.ids.iter().all(|i| visible.contains(i)), "{:?}", d.ids);
    assert!(visible.iter().all(|i| d.ids.contains(i)));
    assert_eq!(Probe::default_for(&vocab, 8).unwrap().len, 4);
    let spaces = Vocab::from_text(" \nx");
    assert_eq!(
        Probe::default_for(&spaces, 8).unwrap().ids.len(),
        16 * 8,
        "all ids then"
    );
}

/// Ablating head h of layer l is the model whose attn.c_proj reads zeros from that head's
/// HS input channels: the same losses, and the same gradients everywhere but at the
/// ablated head's weights (no gradient: its output never reached the loss).
#[test]
fn ablating_a_head_is_zeroing_what_c_proj_reads_from_it() {
    let cfg = GptConfig {
        vocab_size: 11,
        block_size: 12,
        n_layer: 2,
        n_head: 3,
        n_embd: 12,
        bias: true,
    };
    let (l, h, hs, c) = (1, 2, 4, 12);
    let mut ablated = Gpt::new(cfg.clone(), 5).unwrap();
    let mut zeroed = ablated.clone();
    let proj = range_of(&zeroed, &format!("transformer.h.{l}.attn.c_proj.weight"));
    for row in zeroed.params[proj.clone()].chunks_exact_mut(c) {
        row[h * hs..(h + 1) * hs].fill(0.0); // (C out, C in): input channels of head h
    }
    ablated.set_ablated(l, h, true).unwrap();
    let probe = Probe::new(11, 12, 4, 6, 2).unwrap();
    let (a, z) = (head_scores(&ablated, &probe), head_scores(&zeroed, &probe));
    assert!((a.loss_second - z.loss_second).abs() < 1e-6);
    assert_eq!(a.induction, z.induction);

    let (b, t) = (2, 12);
    let x: Vec<u32> = (0..b * t).map(|i| (i * 7 % 11) as u32).collect();
    let y: Vec<u32> = (0..b * t).map(|i| (i * 5 % 11) as u32).collect();
    let grads = |m: &mut Gpt| {
        let mut acts = Activations::new(&cfg, b, t);
        let mut dacts = ActGrads::new(&cfg, b, t);
        let loss = m.forward(&mut acts, &x, Some(&y), b, t).unwrap();
        m.backward(&acts, &mut dacts, &x, &y);
        loss
    };
    let (la, lz) = (grads(&mut ablated), grads(&mut zeroed));
    assert!((la - lz).abs() < 1e-6, "{la} {lz}");
    let attn = range_of(&ablated, &format!("transformer.h.{l}.attn.c_attn.weight"));
    for (i, (ga, gz)) in ablated.grads.iter().zip(&zeroed.grads).enumerate() {
        let in_proj_cols = proj.contains(&i) && ((i - proj.start) % c) / hs == h;
        let row = (i.wrapping_sub(attn.start)) / c; // q | k | v rows of c_attn
        let head_row = attn.contains(&i) && (row % c) / hs == h;
        if in_proj_cols || head_row {
            assert_eq!(
                *ga, 0.0,
                "param {i}: the ablated head's weights get no gradient"
            );
        } else {
            assert!((ga - gz).abs() < 1e-6, "param {i}: {ga} vs {gz}");
        }
    }
    // and the model's own flags survive `ablation`, which switches each head in turn
    let mut m = ablated.clone();
    let ab = ablation(&mut m, &probe, &[], 0, 0, 1);
    assert_eq!(m.ablated, ablated.ablated);
    assert_eq!(ab.second_copy.len(), 6);
    assert!(ab.val.is_empty());
}

/// The preset trains on the task for `steps`; returns the best induction score at each
/// of `every` steps (step 0 first) and the final probe losses (first copy, second copy).
fn train_on_task(n_layer: usize, steps: usize, every: usize) -> (Vec<f32>, (f32, f32)) {
    let hp = Hyperparams {
        n_layer,
        ..Hyperparams::preset("induction").unwrap()
    };
    let text = RepeatTask::default().text(1337).unwrap();
    let mut tr = Trainer::new(&text, hp, 1337).unwrap();
    let c = tr.model.config.clone();
    let probe = Probe::default_for(&tr.data.vocab, c.block_size).unwrap();
    let mut best = Vec::new();
    for step in 0..=steps {
        if step % every == 0 {
            best.push(head_scores(&tr.model, &probe).best_induction().2);
        }
        if step < steps {
            tr.step();
        }
    }
    let s = head_scores(&tr.model, &probe);
    (best, (s.loss_first, s.loss_second))
}

/// The phenomenon (Olsson et al.): with two layers an induction head forms, and the
/// second copy, predictable only by it, becomes far cheaper than the first; one layer,
/// trained the same way, never forms one. About 40 s in release; skipped in debug
/// (build.sh runs it in layer 1b).
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn an_induction_head_forms_in_two_layers_and_not_in_one() {
    let (best, (first, second)) = train_on_task(2, 2500, 500);
    eprintln!(
        "two layers, best induction every 500 steps: {best:?}; probe loss {first} / {second}"
    );
    assert!(best[0] < 0.1, "{best:?}");
    assert!(*best.last().unwrap() > 0.5, "{best:?}");
    assert!(second < first - 1.5, "second copy {second}, first {first}");
    let (best1, (first1, second1)) = train_on_task(1, 2500, 500);
    eprintln!("one layer: {best1:?}; probe loss {first1} / {second1}");
    assert!(best1.iter().all(|&b| b < 0.2), "{best1:?}");
}
