//! The crate's one seeded generator: SplitMix64 for bits, and two normals drawn from it.
//! `Rng` is the bits, uniforms, integers below n, permutations, and the GPT's init
//! normal (Box–Muller with cos, rounded to f32). `PolarRng` is the lesson's: the same
//! bits with Marsaglia's polar Box–Muller, which needs only √ (correctly rounded
//! everywhere) and a `ln` written with +, −, ×, ÷, so the same seed names the same
//! numbers in the browser and in `cargo test`, bit for bit.
//! The GPT draws with `Rng` (`gpt::seeded_draws`), the lesson with `PolarRng`
//! (`lesson::portable_draws`).
//! Not torch's generator: tests that need torch's numbers load its dumps instead.
//!
//! R, C = rows, columns of a drawn matrix.

use crate::tensor::Matrix;

/// SplitMix64: one u64 of state, every seed (including 0) is fine.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The state: `Rng::new(rng.state())` continues the same sequence.
    pub fn state(&self) -> u64 {
        self.state
    }

    /// SplitMix64: state += γ; z = mix(state).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// u ~ U[0, 1) with 53 random bits (scaling by 2⁻⁵³ is exact).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform integer in [0, n); n > 0. Lemire's multiply-shift (bias < n / 2^64).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// N(mean, std) by Box–Muller in f64, rounded to f32.
    pub fn normal(&mut self, mean: f32, std: f32) -> f32 {
        let u1 = 1.0 - self.uniform(); // (0, 1]: ln is finite
        let u2 = self.uniform();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        (mean as f64 + std as f64 * z) as f32
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

/// `Rng`'s bits plus the second polar Box–Muller normal, kept for the next call.
#[derive(Clone, Debug)]
pub struct PolarRng {
    bits: Rng,
    spare: Option<f64>,
}

impl PolarRng {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> PolarRng {
        PolarRng {
            bits: Rng::new(seed),
            spare: None,
        }
    }

    /// SplitMix64's next 64 bits (`Rng::next_u64`).
    pub fn next_u64(&mut self) -> u64 {
        self.bits.next_u64()
    }

    /// u ~ U[0, 1) with 53 random bits (`Rng::uniform`).
    pub fn uniform(&mut self) -> f64 {
        self.bits.uniform()
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

    /// A uniformly random permutation of 0..n (`Rng::permutation`).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        self.bits.permutation(n)
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

    /// Numbers printed by the two generators before they were one: GPT init, batch
    /// offsets and resumes, and the lesson's draws must not move by a bit.
    #[test]
    fn the_gpt_stream_is_the_one_it_always_was() {
        let mut r = Rng::new(1337);
        let init: Vec<u32> = (0..6).map(|_| r.normal(0.0, 0.02).to_bits()).collect();
        assert_eq!(
            init,
            [1007698979, 3159887250, 3153503069, 1015164180, 1005309084, 1021495575]
        );
        let offsets: Vec<usize> = (0..6).map(|_| r.below(1000)).collect();
        assert_eq!(offsets, [383, 730, 187, 940, 525, 821]);
        assert_eq!(r.uniform().to_bits(), 4594839209018894156);
        assert_eq!(r.state(), 13699396756335704776);
        let mut r = Rng::new(5);
        let sum: f64 = (0..100_000).map(|_| r.normal(1.0, 0.3) as f64).sum();
        assert_eq!(sum.to_bits(), 4681616793444444320);
    }

    #[test]
    fn the_lesson_stream_is_the_one_it_always_was() {
        // The bits tests/web_lesson.rs expects from the browser for seed 0.
        let mut r = PolarRng::new(0);
        let first: Vec<u64> = (0..5).map(|_| r.normal().to_bits()).collect();
        assert_eq!(
            first,
            [
                4607043058621490887,
                13818876415947502553,
                13827960978151866074,
                13822670356603663244,
                13827153163510445970
            ]
        );
        let mut r = PolarRng::new(0);
        let sum: f64 = (0..100_000).map(|_| r.normal()).sum();
        assert_eq!(sum.to_bits(), 13854406228289072056);
        let mut r = PolarRng::new(9);
        assert_eq!(r.permutation(10), [3, 2, 1, 9, 7, 5, 0, 6, 4, 8]);
        let u = r.uniform_matrix(2, 3, 0.5);
        let bits = u.data.iter().fold(0, |a, v| a ^ v.to_bits());
        assert_eq!(bits, 29578902741714182);
    }

    #[test]
    fn both_uniforms_are_the_same_bits() {
        // The lesson divided by 2⁵³ and the GPT multiplied by 2⁻⁵³: both exact.
        let (mut a, mut b) = (Rng::new(77), PolarRng::new(77));
        for _ in 0..10_000 {
            let x = b.next_u64();
            assert_eq!(a.uniform(), ((x >> 11) as f64 / (1u64 << 53) as f64));
        }
        assert_eq!(PolarRng::new(3).next_u64(), Rng::new(3).next_u64());
    }

    #[test]
    fn normal_has_mean_0_and_variance_1() {
        let mut rng = PolarRng::new(1);
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
        let mut rng = PolarRng::new(9);
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
            let mut r = PolarRng::new(42);
            (0..9).map(|_| r.normal()).collect()
        };
        let b: Vec<f64> = {
            let mut r = PolarRng::new(42);
            (0..9).map(|_| r.normal()).collect()
        };
        assert_eq!(a, b);
        let mut p = PolarRng::new(3).permutation(10);
        p.sort();
        assert_eq!(p, (0..10).collect::<Vec<_>>());
        assert!(PolarRng::new(3).permutation(0).is_empty());
    }
}
