//! `gpt::profile` on a clock that advances 1 ms per reading: every call then takes
//! exactly 1 ms, so each row must read the calls a step makes of its op.

use attention_playground::gpt::{kernels, profile, Hyperparams};

#[test]
fn rows_count_each_op_as_often_as_a_step_runs_it() {
    let hp = Hyperparams::preset("small").unwrap(); // L = 2
    let mut now = 0.0;
    let mut clock = || {
        now += 1.0;
        now
    };
    let p = profile::profile(&hp, 3, &mut clock).unwrap();
    assert_eq!((p.b, p.t, p.c, p.l), (16, 32, 64, 2));
    assert_eq!(p.simd, kernels::simd_level());
    let l = 2.0;
    let mut want = Vec::new();
    for (name, n) in [
        ("c_attn", l),
        ("attn.c_proj", l),
        ("mlp.c_fc", l),
        ("mlp.c_proj", l),
        ("lm_head", 1.0),
    ] {
        want.push((format!("matmul {name} fwd"), n));
        want.push((format!("matmul {name} bwd"), n));
    }
    for (op, n) in [
        ("attention fwd", l),
        ("attention bwd", l),
        ("layernorm fwd", 2.0 * l + 1.0),
        ("layernorm bwd", 2.0 * l + 1.0),
        ("gelu fwd", l),
        ("gelu bwd", l),
        ("crossentropy fwd", 1.0),
        ("crossentropy bwd", 1.0),
        ("AdamW", 1.0),
    ] {
        want.push((op.to_string(), n));
    }
    let got: Vec<(String, f64)> = p.rows.iter().map(|r| (r.op.clone(), r.ms)).collect();
    assert_eq!(got, want);
    assert_eq!(p.total_ms, want.iter().map(|w| w.1).sum::<f64>());
    // c_attn forward: 2·BT·C·3C flops in 1 ms
    let flops = 2.0 * (16.0 * 32.0) * 64.0 * 192.0;
    assert_eq!(p.rows[0].gflops, Some(flops / 1e6));
    assert_eq!(p.table("small").lines().count(), want.len() + 2);
}

#[test]
fn an_invalid_shape_is_refused() {
    let mut hp = Hyperparams::preset("tiny").unwrap();
    hp.n_head = 5; // 32 channels do not split into 5 heads
    assert!(profile::profile(&hp, 1, &mut || 0.0).is_err());
}
