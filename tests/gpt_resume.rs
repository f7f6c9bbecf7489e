//! Training state (`gpt::state`): save at step k, restore, continue: the next losses,
//! weights and optimizer moments are bit for bit those of an uninterrupted run. Damaged
//! states give an Err with a message, never a panic.

use attention_playground::gpt::{state, Hyperparams, Trainer};

fn text() -> String {
    let mut s = String::new();
    for i in 0..400u32 {
        s.push_str(
            [
                "the cat sat. ",
                "a dog ran! ",
                "to be, or not? ",
                "été 夏 🙂\n",
            ][(i * 7 % 4) as usize],
        );
    }
    s
}

fn hp(causal: bool, bias: bool) -> Hyperparams {
    Hyperparams {
        batch_size: 4,
        causal,
        bias,
        lr: 3e-3,
        weight_decay: 0.1,
        ..Hyperparams::preset("tiny").unwrap()
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn resume_is_bit_identical_to_an_uninterrupted_run() {
    let text = text();
    for (causal, bias) in [(true, true), (false, false)] {
        let (k, more) = (17, 25);
        let mut whole = Trainer::new(&text, hp(causal, bias), 7).unwrap();
        let mut first = Trainer::new(&text, hp(causal, bias), 7).unwrap();
        for _ in 0..k {
            assert_eq!(whole.step().to_bits(), first.step().to_bits());
        }
        let saved = state::to_bytes(&first);
        drop(first);
        let mut resumed = state::from_bytes(&saved, &text).unwrap();
        assert_eq!(resumed.steps, k);
        assert_eq!(resumed.model.causal, causal);
        assert_eq!(
            state::to_bytes(&resumed),
            saved,
            "restore → save gives the same bytes"
        );
        let want: Vec<u32> = (0..more).map(|_| whole.step().to_bits()).collect();
        let got: Vec<u32> = (0..more).map(|_| resumed.step().to_bits()).collect();
        assert_eq!(got, want, "losses after the restore (causal {causal})");
        assert_eq!(bits(&resumed.model.params), bits(&whole.model.params));
        assert_eq!(bits(&resumed.opt.m), bits(&whole.opt.m));
        assert_eq!(bits(&resumed.opt.v), bits(&whole.opt.v));
        assert_eq!(resumed.opt.t, whole.opt.t);
        assert_eq!(resumed.steps, k + more as u64);
        let (a, b) = (resumed.estimate_loss(2), whole.estimate_loss(2));
        assert_eq!(
            (a.0.to_bits(), a.1.to_bits()),
            (b.0.to_bits(), b.1.to_bits())
        );
    }
}

#[test]
fn damaged_states_are_refused_with_a_message() {
    let text = text();
    let mut tr = Trainer::new(&text, hp(true, true), 1).unwrap();
    tr.step();
    let good = state::to_bytes(&tr);
    let msg = |b: &[u8], t: &str| state::from_bytes(b, t).err().expect("refused").to_string();
    assert!(msg(b"", &text).contains("not a saved training state"));
    assert!(msg(&tr.to_bytes(), &text).contains("not a saved training state"));
    for cut in [20, 40, good.len() / 2, good.len() - 1] {
        let m = msg(&good[..cut], &text);
        assert!(
            m.contains("truncated") || m.contains("expected"),
            "cut {cut}: {m}"
        );
    }
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 4]);
    assert!(msg(&longer, &text).contains("expected"));
    let mut bad_header = good.clone();
    bad_header[12] = b'!';
    assert!(msg(&bad_header, &text).contains("damaged"));
    assert!(msg(&good, "xyz xyz xyz").contains("not in the model's vocab"));
}
