//! The hot loops, fast: matmuls with register tiles, exp and GELU without libm calls.
//!
//! Naive first, clever second, tested equal: `matmul_nn_naive` / `matmul_tn_naive` are the
//! reference loops, `tests/gpt_kernels.rs` holds the tiled ones equal to them.
//! Each kernel is one `#[inline(always)]` Rust body. On x86_64 the same body is also compiled
//! with AVX2+FMA and with AVX-512 and picked at run time (the crate builds for baseline
//! x86-64, SSE2 only); on wasm32 it compiles to simd128 (`.cargo/config.toml`).

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// Which instantiation the x86_64 dispatch picks: 0 = not yet known, 1 = portable,
/// 2 = AVX2+FMA, 3 = AVX-512F+FMA.
#[cfg(target_arch = "x86_64")]
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The widest instruction set in use: "avx512", "avx2+fma" or "portable".
pub fn simd_level() -> &'static str {
    match level() {
        3 => "avx512",
        2 => "avx2+fma",
        _ => "portable",
    }
}

/// Forces the portable body (true) or the best one detected (false): for tests and for
/// benchmarking what a wasm build without FMA will do.
pub fn force_portable(on: bool) {
    #[cfg(target_arch = "x86_64")]
    LEVEL.store(if on { 1 } else { detect() }, Ordering::Relaxed);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = on;
}

#[cfg(target_arch = "x86_64")]
fn detect() -> u8 {
    if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("fma") {
        3
    } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        2
    } else {
        1
    }
}

#[inline]
pub(crate) fn level() -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        let l = LEVEL.load(Ordering::Relaxed);
        if l != 0 {
            return l;
        }
        let l = detect();
        LEVEL.store(l, Ordering::Relaxed);
        l
    }
    #[cfg(not(target_arch = "x86_64"))]
    1
}

/// Runs `$body::<FMA, R, W>(args)` compiled for the detected instruction set. The
/// wrappers are plain fns (not closures) so the body inlines into code built with the
/// features; otherwise `mul_add` would become a call to libm's fmaf.
macro_rules! dispatch {
    ($body:ident, ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,avx2,fma")]
            unsafe fn avx512($($arg: $ty),*) $(-> $ret)? {
                $body::<true, 4, 32>($($arg),*)
            }
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2($($arg: $ty),*) $(-> $ret)? {
                $body::<true, 4, 16>($($arg),*)
            }
            match $crate::gpt::kernels::level() {
                // SAFETY: `level()` saw these features on this CPU.
                3 => return unsafe { avx512($($arg),*) },
                2 => return unsafe { avx2($($arg),*) },
                _ => {}
            }
        }
        $body::<false, 4, 16>($($arg),*)
    }};
}

pub(crate) use dispatch;

/// a·b + c, fused when the instantiation has FMA (wasm's simd128 and SSE2 do not).
#[inline(always)]
pub(crate) fn fmadd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// C (n×m) += A (n×k) @ B (k×m), all row-major. Panics unless the lengths fit.
pub fn matmul_nn(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    assert!(
        c.len() >= n * m && a.len() >= n * k && b.len() >= k * m,
        "matmul_nn shapes"
    );
    dispatch!(nn_body, (c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize))
}

/// C (m×p) += Aᵀ @ B with A (n×m), B (n×p), all row-major. Panics unless the lengths fit.
pub fn matmul_tn(c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize) {
    assert!(
        c.len() >= m * p && a.len() >= n * m && b.len() >= n * p,
        "matmul_tn shapes"
    );
    dispatch!(tn_body, (c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize))
}

/// C (n×m) += A (n×k) @ B (k×m), the plain triple loop.
pub fn matmul_nn_naive(c: &mut [f32], a: &[f32], b: &[f32], n: usize, k: usize, m: usize) {
    for i in 0..n {
        for p in 0..k {
            for j in 0..m {
                c[i * m + j] += a[i * k + p] * b[p * m + j];
            }
        }
    }
}

/// C (m×p) += Aᵀ @ B with A (n×m), B (n×p), the plain triple loop.
pub fn matmul_tn_naive(c: &mut [f32], a: &[f32], b: &[f32], n: usize, m: usize, p: usize) {
    for t in 0..n {
        for i in 0..m {
            for j in 0..p {
                c[i * p + j] += a[t * m + i] * b[t * p + j];
            }
        }
    }
}

// Tiles: 4 rows × W columns of C live in registers while the shared dimension streams by.
// The 4 rows are written out by hand: a `for r in 0..R` loop around the vectorised column
// loop stays a loop in LLVM and sends the accumulators to the stack. Column tiles are the
// outer loop so one (k × W) strip of B stays in L1 across row tiles. The const R is unused
// (always 4) but keeps one `dispatch!` for every kernel.
#[inline(always)]
fn nn_body<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    n: usize,
    k: usize,
    m: usize,
) {
    let (m_full, n_full) = (m / W * W, n / 4 * 4);
    for j0 in (0..m_full).step_by(W) {
        for i0 in (0..n_full).step_by(4) {
            nn_tile4::<FMA, W>(c, a, b, i0, j0, k, m);
        }
        for i0 in n_full..n {
            nn_tile1::<FMA, W>(c, a, b, i0, j0, k, m);
        }
    }
    for i in 0..n {
        let (a_row, c_row) = (&a[i * k..][..k], &mut c[i * m + m_full..(i + 1) * m]);
        for (p, &av) in a_row.iter().enumerate() {
            let b_row = &b[p * m + m_full..(p + 1) * m];
            for (cv, &bv) in c_row.iter_mut().zip(b_row) {
                *cv = fmadd::<FMA>(av, bv, *cv);
            }
        }
    }
}

/// c[row][j0..j0+W] += acc.
#[inline(always)]
fn add_row<const W: usize>(c: &mut [f32], row: usize, stride: usize, j0: usize, acc: &[f32; W]) {
    let c_row: &mut [f32; W] = (&mut c[row * stride + j0..][..W]).try_into().unwrap();
    for j in 0..W {
        c_row[j] += acc[j];
    }
}

#[inline(always)]
fn nn_tile4<const FMA: bool, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    i0: usize,
    j0: usize,
    k: usize,
    m: usize,
) {
    let (mut c0, mut c1, mut c2, mut c3) = ([0.0f32; W], [0.0f32; W], [0.0f32; W], [0.0f32; W]);
    let row = |r: usize| &a[(i0 + r) * k..][..k];
    let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
    let a_cols = r0.iter().zip(r1).zip(r2).zip(r3);
    for (p, (((&a0, &a1), &a2), &a3)) in a_cols.enumerate() {
        let bv: &[f32; W] = b[p * m + j0..][..W].try_into().unwrap();
        for j in 0..W {
            c0[j] = fmadd::<FMA>(a0, bv[j], c0[j]);
            c1[j] = fmadd::<FMA>(a1, bv[j], c1[j]);
            c2[j] = fmadd::<FMA>(a2, bv[j], c2[j]);
            c3[j] = fmadd::<FMA>(a3, bv[j], c3[j]);
        }
    }
    for (r, acc) in [c0, c1, c2, c3].iter().enumerate() {
        add_row(c, i0 + r, m, j0, acc);
    }
}

#[inline(always)]
fn nn_tile1<const FMA: bool, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    i0: usize,
    j0: usize,
    k: usize,
    m: usize,
) {
    let mut c0 = [0.0f32; W];
    for (p, &a0) in a[i0 * k..][..k].iter().enumerate() {
        let bv: &[f32; W] = b[p * m + j0..][..W].try_into().unwrap();
        for j in 0..W {
            c0[j] = fmadd::<FMA>(a0, bv[j], c0[j]);
        }
    }
    add_row(c, i0, m, j0, &c0);
}

#[inline(always)]
fn tn_body<const FMA: bool, const R: usize, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    n: usize,
    m: usize,
    p: usize,
) {
    let (p_full, m_full) = (p / W * W, m / 4 * 4);
    for j0 in (0..p_full).step_by(W) {
        for i0 in (0..m_full).step_by(4) {
            tn_tile4::<FMA, W>(c, a, b, i0, j0, n, m, p);
        }
        for i0 in m_full..m {
            tn_tile1::<FMA, W>(c, a, b, i0, j0, n, m, p);
        }
    }
    if p_full < p {
        for t in 0..n {
            let (a_row, b_row) = (&a[t * m..][..m], &b[t * p + p_full..(t + 1) * p]);
            for (i, &av) in a_row.iter().enumerate() {
                let c_row = &mut c[i * p + p_full..(i + 1) * p];
                for (cv, &bv) in c_row.iter_mut().zip(b_row) {
                    *cv = fmadd::<FMA>(av, bv, *cv);
                }
            }
        }
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn tn_tile4<const FMA: bool, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    i0: usize,
    j0: usize,
    n: usize,
    m: usize,
    p: usize,
) {
    let (mut c0, mut c1, mut c2, mut c3) = ([0.0f32; W], [0.0f32; W], [0.0f32; W], [0.0f32; W]);
    for t in 0..n {
        let [a0, a1, a2, a3]: [f32; 4] = a[t * m + i0..][..4].try_into().unwrap();
        let bv: &[f32; W] = b[t * p + j0..][..W].try_into().unwrap();
        for j in 0..W {
            c0[j] = fmadd::<FMA>(a0, bv[j], c0[j]);
            c1[j] = fmadd::<FMA>(a1, bv[j], c1[j]);
            c2[j] = fmadd::<FMA>(a2, bv[j], c2[j]);
            c3[j] = fmadd::<FMA>(a3, bv[j], c3[j]);
        }
    }
    for (r, acc) in [c0, c1, c2, c3].iter().enumerate() {
        add_row(c, i0 + r, p, j0, acc);
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn tn_tile1<const FMA: bool, const W: usize>(
    c: &mut [f32],
    a: &[f32],
    b: &[f32],
    i0: usize,
    j0: usize,
    n: usize,
    m: usize,
    p: usize,
) {
    let mut c0 = [0.0f32; W];
    for t in 0..n {
        let a0 = a[t * m + i0];
        let bv: &[f32; W] = b[t * p + j0..][..W].try_into().unwrap();
        for j in 0..W {
            c0[j] = fmadd::<FMA>(a0, bv[j], c0[j]);
        }
    }
    add_row(c, i0, p, j0, &c0);
}

/// Σ a·b with 8 independent lanes (then a tail), so the loop vectorises; a plain
/// `.sum()` is a serial chain in IEEE order and does not.
#[inline(always)]
pub fn dot<const FMA: bool>(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    for (ac, bc) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for j in 0..8 {
            acc[j] = fmadd::<FMA>(ac[j], bc[j], acc[j]);
        }
    }
    let tail = n / 8 * 8;
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in a[tail..].iter().zip(&b[tail..]) {
        sum = fmadd::<FMA>(x, y, sum);
    }
    sum
}

/// Σ x with 8 independent lanes (then a tail).
#[inline(always)]
pub fn sum(x: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    for c in x.chunks_exact(8) {
        for j in 0..8 {
            acc[j] += c[j];
        }
    }
    let tail = x.len() / 8 * 8;
    let s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    x[tail..].iter().fold(s, |s, &v| s + v)
}

/// max x (−∞ for an empty slice) with 8 independent lanes.
#[inline(always)]
pub fn max(x: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; 8];
    for c in x.chunks_exact(8) {
        for j in 0..8 {
            acc[j] = if c[j] > acc[j] { c[j] } else { acc[j] };
        }
    }
    let tail = x.len() / 8 * 8;
    let m = acc.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    x[tail..].iter().fold(m, |m, &v| m.max(v))
}

/// out = e^(x − shift) element-wise; returns Σ out. Two loops: the exp loop has no
/// running sum in it, so it vectorises.
#[inline(always)]
pub fn exp_shifted(out: &mut [f32], x: &[f32], shift: f32) -> f32 {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = exp(v - shift);
    }
    sum(&out[..x.len().min(out.len())])
}

/// y += alpha·x, in chunks of 8 (then a tail).
#[inline(always)]
pub fn axpy<const FMA: bool>(y: &mut [f32], alpha: f32, x: &[f32]) {
    let n = y.len().min(x.len());
    let (y, x) = (&mut y[..n], &x[..n]);
    let tail = n / 8 * 8;
    for (yc, xc) in y.chunks_exact_mut(8).zip(x.chunks_exact(8)) {
        for j in 0..8 {
            yc[j] = fmadd::<FMA>(alpha, xc[j], yc[j]);
        }
    }
    for (yv, &xv) in y[tail..].iter_mut().zip(&x[tail..]) {
        *yv = fmadd::<FMA>(alpha, xv, *yv);
    }
}

/// out (cols×rows) = inp (rows×cols)ᵀ.
pub fn transpose(out: &mut [f32], inp: &[f32], rows: usize, cols: usize) {
    let (out, inp) = (&mut out[..rows * cols], &inp[..rows * cols]);
    for (r, row) in inp.chunks_exact(cols).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            out[c * rows + r] = x;
        }
    }
}

/// eˣ for x ≤ 88 within about 2 ulp, 0 below −87 (Cephes expf: x = n·ln2 + r, a degree-6
/// polynomial in r, then 2ⁿ from the exponent bits). No branches and no libm call, so loops
/// over it vectorise; libm's expf does neither.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4; // 355/512: n·LN2_HI is exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    const ROUND: f32 = 12_582_912.0; // 1.5·2²³: adding it rounds to an integer
    let xc = x.clamp(-87.0, 88.0);
    let n = (xc * LOG2E + ROUND) - ROUND;
    let r = (xc - n * LN2_HI) - n * LN2_LO;
    let mut y = 1.987_569_1e-4f32;
    y = y * r + 1.398_199_9e-3;
    y = y * r + 8.333_452e-3;
    y = y * r + 4.166_579_6e-2;
    y = y * r + 1.666_666_5e-1;
    y = y * r + 0.5;
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
    let mut q = 0.170_872_77f32;
    q = q * t - 0.822_152_23;
    q = q * t + 1.488_515_9;
    q = q * t - 1.135_204;
    q = q * t + 0.278_868_07;
    q = q * t - 0.186_288_06;
    q = q * t + 0.096_784_18;
    q = q * t + 0.374_091_96;
    q = q * t + 1.000_023_7;
    q = q * t - 1.265_512_2;
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
    const INV_SQRT_2PI: f32 = 0.398_942_3;
    INV_SQRT_2PI * exp(-0.5 * x * x)
}

/// out = x·Φ(x) element-wise (exact-erf GELU).
pub fn gelu(out: &mut [f32], inp: &[f32]) {
    dispatch!(gelu_body, (out: &mut [f32], inp: &[f32]))
}

#[inline(always)]
fn gelu_body<const FMA: bool, const R: usize, const W: usize>(out: &mut [f32], inp: &[f32]) {
    for (o, &x) in out.iter_mut().zip(inp) {
        *o = x * normal_cdf(x);
    }
}

/// dinp += (Φ(x) + x·φ(x))·dout element-wise: d/dx of x·Φ(x).
pub fn gelu_grad(dinp: &mut [f32], inp: &[f32], dout: &[f32]) {
    dispatch!(gelu_grad_body, (dinp: &mut [f32], inp: &[f32], dout: &[f32]))
}

#[inline(always)]
fn gelu_grad_body<const FMA: bool, const R: usize, const W: usize>(
    dinp: &mut [f32],
    inp: &[f32],
    dout: &[f32],
) {
    for ((d, &x), &g) in dinp.iter_mut().zip(inp).zip(dout) {
        *d += (normal_cdf(x) + x * normal_pdf(x)) * g;
    }
}
