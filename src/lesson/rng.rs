//! A seeded generator shared by the page and the tests: SplitMix64 for bits,
//! Marsaglia's polar form of Box–Muller for N(0, 1). The same seed names the
//! same numbers in the browser and in `cargo test`, bit for bit: the polar
//! form needs only √ (correctly rounded everywhere) and ln, and `ln` here is
//! written with +, −, ×, ÷ so it cannot differ between glibc and wasm's libm.
//!
//! R, C = rows, columns of a drawn matrix.

use crate::tensor::Matrix;

/// SplitMix64 state plus the second Box–Muller normal, kept for the next call.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    spare: Option<f64>,
}

impl Rng {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            state: seed,
            spare: None,
        }
    }

    /// SplitMix64: state += γ; z = mix(state).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// u ~ U[0, 1) with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// z ~ N(0, 1), polar Box–Muller: v₁, v₂ ~ U(−1, 1) until 0 < s = v₁² + v₂² < 1,
    /// then z = v₁ √(−2 ln s / s) and, next call, v₂ √(−2 ln s / s).
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        loop {
            let v1 = 2.0 * self.uniform() - 1.0;
            let v2 = 2.0 * self.uniform() - 1.0;
            let s = v1 * v1 + v2 * v2;
            if s > 0.0 && s < 1.0 {
                let f = (-2.0 * ln(s) / s).sqrt();
                self.spare = Some(v2 * f);
                return v1 * f;
            }
        }
    }

    /// (R, C) matrix of independent N(0, std²) draws, filled row by row.
    pub fn normal_matrix(&mut self, rows: usize, cols: usize, std: f64) -> Matrix {
        Matrix::from_fn(rows, cols, |_, _| self.normal() * std)
    }

    /// (R, C) matrix of U[−a, a) draws (`nn.Linear`'s init with a = 1/√fan_in).
    pub fn uniform_matrix(&mut self, rows: usize, cols: usize, a: f64) -> Matrix {
        Matrix::from_fn(rows, cols, |_, _| (self.uniform() * 2.0 - 1.0) * a)
    }

    /// A uniformly random permutation of 0..n (Fisher–Yates).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            p.swap(i, j);
        }
        p
    }
}

/// ln x for finite x > 0 from +, −, ×, ÷ only (the same bits on every target):
/// x = m·2^e with m ∈ [√½, √2), ln m = 2 atanh s = 2 Σ s^(2k+1)/(2k+1), s = (m−1)/(m+1).
pub fn ln(x: f64) -> f64 {
    debug_assert!(x > 0.0 && x.is_finite());
    let (x, shift) = if x < f64::MIN_POSITIVE {
        (x * 2f64.powi(54), -54) // subnormal: scale into the normal range
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023 + shift;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000); // [1, 2)
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0); // |s| ≤ 0.1716
    let s2 = s * s;
    let (mut term, mut sum) = (s, 0.0);
    for k in 0..14 {
        sum += term / (2 * k + 1) as f64; // the 14th term is below 1e-21
        term *= s2;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_has_mean_0_and_variance_1() {
        let mut rng = Rng::new(1);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.01, "var {var}");
        assert!(xs.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn ln_matches_the_library_to_an_ulp_or_two() {
        let mut rng = Rng::new(9);
        for _ in 0..100_000 {
            let x = (rng.uniform() * 80.0 - 40.0).exp();
            let (a, b) = (ln(x), x.ln());
            assert!(
                (a - b).abs() <= 4.5e-16 * b.abs().max(1.0),
                "{x}: {a} vs {b}"
            );
        }
        for x in [
            1.0,
            2.0,
            0.5,
            f64::MIN_POSITIVE,
            5e-324,
            1e-300,
            f64::MAX,
            1.0 - 1e-16,
        ] {
            assert!(
                (ln(x) - x.ln()).abs() <= 4.5e-16 * x.ln().abs().max(1.0),
                "{x}"
            );
        }
        assert_eq!(ln(1.0), 0.0);
    }

    #[test]
    fn same_seed_same_stream_and_permutations_are_permutations() {
        let a: Vec<f64> = {
            let mut r = Rng::new(42);
            (0..9).map(|_| r.normal()).collect()
        };
        let b: Vec<f64> = {
            let mut r = Rng::new(42);
            (0..9).map(|_| r.normal()).collect()
        };
        assert_eq!(a, b);
        let mut p = Rng::new(3).permutation(10);
        p.sort();
        assert_eq!(p, (0..10).collect::<Vec<_>>());
        assert!(Rng::new(3).permutation(0).is_empty());
    }
}
