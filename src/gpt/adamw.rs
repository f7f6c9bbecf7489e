//! AdamW with nanoGPT's grouping: weight decay only on tensors with dim ≥ 2.
//!
//! The arithmetic follows torch's single-tensor AdamW in the order the reference README
//! found to reproduce it for 10 steps: scalars in f64 (as Python floats) rounded to f32,
//! then p *= 1 − lr·wd; m += (1−β1)(g − m); v = β2·v + (1−β2)·g²;
//! d = √v / √bc2 + eps; p += (−lr/bc1) · m / d.

use super::params::ParamIndex;
use std::ops::Range;

#[derive(Clone, Debug)]
pub struct AdamW {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
    /// First and second moments, one per parameter (same layout as `Gpt::params`).
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken so far.
    pub t: u64,
    /// (range, decayed?) per stored tensor.
    groups: Vec<(Range<usize>, bool)>,
}

impl AdamW {
    /// nanoGPT's settings: betas (0.9, 0.99), eps 1e-8.
    pub fn new(index: &ParamIndex, lr: f64, weight_decay: f64) -> AdamW {
        AdamW {
            lr,
            beta1: 0.9,
            beta2: 0.99,
            eps: 1e-8,
            weight_decay,
            m: vec![0.0; index.len],
            v: vec![0.0; index.len],
            t: 0,
            groups: index
                .specs
                .iter()
                .map(|s| (s.range.clone(), s.decays()))
                .collect(),
        }
    }

    /// One update of `params` from `grads` (same layout).
    pub fn step(&mut self, params: &mut [f32], grads: &[f32]) {
        self.t += 1;
        let bc1 = 1.0 - self.beta1.powi(self.t as i32);
        let bc2 = 1.0 - self.beta2.powi(self.t as i32);
        let step_size = (-self.lr / bc1) as f32;
        let bc2_sqrt = bc2.sqrt() as f32;
        let (one_minus_b1, b2, one_minus_b2) = (
            (1.0 - self.beta1) as f32,
            self.beta2 as f32,
            (1.0 - self.beta2) as f32,
        );
        let eps = self.eps as f32;
        for (range, decays) in &self.groups {
            let wd = if *decays { self.weight_decay } else { 0.0 };
            let shrink = (1.0 - self.lr * wd) as f32;
            let (p, g) = (&mut params[range.clone()], &grads[range.clone()]);
            let (m, v) = (&mut self.m[range.clone()], &mut self.v[range.clone()]);
            for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
                *p *= shrink;
                *m += one_minus_b1 * (g - *m); // torch: m.lerp_(g, 1 − β1)
                *v = *v * b2 + one_minus_b2 * g * g;
                let d = v.sqrt() / bc2_sqrt + eps;
                *p += step_size * (*m / d);
            }
        }
    }
}
