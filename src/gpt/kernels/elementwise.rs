//! Element-wise math without libm calls, so loops over it vectorise: eˣ, the standard
//! normal CDF Φ and density φ, and GELU = x·Φ(x) forward and backward.

use super::dispatch::kernel;

// The constants of exp and Φ, shared with wasm's f32x4 twins (`simd128_elementwise`).
pub(super) const LOG2E: f32 = std::f32::consts::LOG2_E;
pub(super) const LN2_HI: f32 = 0.693_359_4; // 355/512: n·LN2_HI is exact
pub(super) const LN2_LO: f32 = -2.121_944_4e-4;
pub(super) const ROUND: f32 = 12_582_912.0; // 1.5·2²³: adding it rounds to an integer
/// Cephes expf's polynomial in r, highest power first (Horner).
pub(super) const EXP_POLY: [f32; 6] = [
    1.987_569_1e-4,
    1.398_199_9e-3,
    8.333_452e-3,
    4.166_579_6e-2,
    1.666_666_5e-1,
    0.5,
];
/// Numerical Recipes' erfc polynomial in t, highest power first (Horner).
pub(super) const ERFC_POLY: [f32; 10] = [
    0.170_872_77,
    -0.822_152_23,
    1.488_515_9,
    -1.135_204,
    0.278_868_07,
    -0.186_288_06,
    0.096_784_18,
    0.374_091_96,
    1.000_023_7,
    -1.265_512_2,
];
pub(super) const INV_SQRT_2PI: f32 = 0.398_942_3;

/// eˣ for x ≤ 88 within about 2 ulp, 0 below −87 (Cephes expf: x = n·ln2 + r, a degree-6
/// polynomial in r, then 2ⁿ from the exponent bits). No branches and no libm call, so loops
/// over it vectorise; libm's expf does neither.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    let xc = x.clamp(-87.0, 88.0);
    let n = (xc * LOG2E + ROUND) - ROUND;
    let r = (xc - n * LN2_HI) - n * LN2_LO;
    let mut y = EXP_POLY[0];
    for &p in &EXP_POLY[1..] {
        y = y * r + p;
    }
    y = y * (r * r) + r + 1.0;
    // z's low mantissa bits hold n (z = 1.5·2²³ + n): integer ops only, so it vectorises
    let n_int = (xc * LOG2E + ROUND).to_bits().wrapping_sub(ROUND.to_bits());
    let two_n = f32::from_bits(n_int.wrapping_add(127) << 23);
    if x < -87.0 {
        0.0
    } else {
        y * two_n
    }
}

/// Φ(x) = ½·erfc(−x/√2), the standard normal CDF, within about 2e-7 relative
/// (Numerical Recipes' erfc: fractional error < 1.2e-7, evaluated in f32).
#[inline(always)]
pub fn normal_cdf(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let mut q = ERFC_POLY[0];
    for &p in &ERFC_POLY[1..] {
        q = q * t + p;
    }
    let half_erfc = 0.5 * t * exp(q - z * z); // ½·erfc(|x|/√2) = Φ(−|x|)
    if x >= 0.0 {
        1.0 - half_erfc
    } else {
        half_erfc
    }
}

/// φ(x) = e^(−x²/2) / √(2π), the standard normal density.
#[inline(always)]
pub fn normal_pdf(x: f32) -> f32 {
    INV_SQRT_2PI * exp(-0.5 * x * x)
}

kernel! {
    /// out = x·Φ(x) element-wise (exact-erf GELU). On wasm32 the f32x4 twin of this loop
    /// (LLVM leaves it scalar there).
    pub fn gelu(out: &mut [f32], inp: &[f32]) {
        #[cfg(target_arch = "wasm32")]
        let (out, inp) = super::simd128_elementwise::gelu(out, inp);
        for (o, &x) in out.iter_mut().zip(inp) {
            *o = x * normal_cdf(x);
        }
    }
}

kernel! {
    /// dinp += (Φ(x) + x·φ(x))·dout element-wise: d/dx of x·Φ(x). f32x4 on wasm32.
    pub fn gelu_grad(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
        #[cfg(target_arch = "wasm32")]
        let (dinp, inp, dout) = super::simd128_elementwise::gelu_grad(dinp, inp, dout);
        for ((d, &x), &g) in dinp.iter_mut().zip(inp).zip(dout) {
            *d += (normal_cdf(x) + x * normal_pdf(x)) * g;
        }
    }
}
