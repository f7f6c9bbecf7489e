//! Which instruction set the kernels run with, and `dispatch!`, which compiles one body
//! for each and calls the one this CPU has.

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// Which instantiation the x86_64 dispatch picks: 0 = not yet known, 1 = portable,
/// 2 = AVX2+FMA, 3 = AVX-512F+FMA.
#[cfg(target_arch = "x86_64")]
static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The widest instruction set in use: "avx512", "avx2+fma" or "portable" on x86_64 and
/// elsewhere; on wasm32 the one it was built for, "wasm-relaxed-simd" (the FMA build) or
/// "wasm-simd128" (the portable body there compiles to simd128).
pub fn simd_level() -> &'static str {
    match level() {
        3 => "avx512",
        2 => "avx2+fma",
        _ => PORTABLE,
    }
}

/// The portable body's name: what it compiles to.
const PORTABLE: &str = if cfg!(all(target_arch = "wasm32", target_feature = "relaxed-simd")) {
    "wasm-relaxed-simd"
} else if cfg!(target_arch = "wasm32") {
    "wasm-simd128"
} else {
    "portable"
};

/// The instruction sets this CPU can run, widest first (the portable body always last; on
/// wasm32 it is the only one).
pub fn available_levels() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let names = [(3, "avx512"), (2, "avx2+fma")];
        let best = detect();
        let mut v: Vec<_> = names.iter().filter(|l| l.0 <= best).map(|l| l.1).collect();
        v.push(PORTABLE);
        v
    }
    #[cfg(not(target_arch = "x86_64"))]
    vec![PORTABLE]
}

/// Uses the instruction set `name` (one of `available_levels()`); false (and no change)
/// for any other name. For tests: an AVX-512 machine can still check the AVX2 body.
pub fn force_level(name: &str) -> bool {
    if !available_levels().contains(&name) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    LEVEL.store(
        match name {
            "avx512" => 3,
            "avx2+fma" => 2,
            _ => 1,
        },
        Ordering::Relaxed,
    );
    true
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

/// Runs a kernel body compiled for the detected instruction set:
/// `dispatch!(body, (args))` calls `body::<FMA>(args)`; `dispatch!(tiled body, (args))`
/// calls `body::<FMA, R, W>(args)` with that set's matmul tile of R rows × W columns (see
/// `matmul`); `dispatch!(plain body, (args))` calls a body with no FMA to choose, compiled
/// for the wider sets only so that its loops use their wider vectors. The wrappers are
/// plain fns (not closures) so the body inlines into code built with the features;
/// otherwise `mul_add` would become a call to libm's fmaf.
macro_rules! dispatch {
    (tiled $body:ident, $($sig:tt)*) => {
        $crate::gpt::kernels::dispatch!(
            @run $body, [::<true, 8, 32>], [::<true, 4, 16>], [::<false, 4, 8>], $($sig)*
        )
    };
    (plain $body:ident, $($sig:tt)*) => {
        $crate::gpt::kernels::dispatch!(@run $body, [], [], [], $($sig)*)
    };
    ($body:ident, $($sig:tt)*) => {
        $crate::gpt::kernels::dispatch!(
            @run $body, [::<true>], [::<true>], [::<false>], $($sig)*
        )
    };
    (@run $body:ident, [$($avx512:tt)*], [$($avx2:tt)*], [$($portable:tt)*],
     ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,avx2,fma")]
            unsafe fn avx512($($arg: $ty),*) $(-> $ret)? {
                $body $($avx512)* ($($arg),*)
            }
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2($($arg: $ty),*) $(-> $ret)? {
                $body $($avx2)* ($($arg),*)
            }
            match $crate::gpt::kernels::level() {
                // SAFETY: `level()` saw these features on this CPU.
                3 => return unsafe { avx512($($arg),*) },
                2 => return unsafe { avx2($($arg),*) },
                _ => {}
            }
        }
        $body $($portable)* ($($arg),*)
    }};
}

pub(crate) use dispatch;

/// A dispatched kernel written once: `kernel! { /// doc
/// pub fn name<const FMA: bool>(args) -> ret { body } }` defines `name(args)`, which runs
/// `body` compiled for the detected instruction set through `dispatch!`. With
/// `<const FMA: bool, const R: usize, const W: usize>` the body gets the matmul tile too;
/// with no generics it is only compiled for the wider vectors.
macro_rules! kernel {
    ($(#[$m:meta])* $vis:vis fn $name:ident<const $fma:ident: bool, const $r:ident: usize,
     const $w:ident: usize>($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        $(#[$m])* $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body<const $fma: bool, const $r: usize, const $w: usize>(
                $($arg: $ty),*
            ) $(-> $ret)? $body
            $crate::gpt::kernels::dispatch!(tiled body, ($($arg: $ty),*) $(-> $ret)?)
        }
    };
    ($(#[$m:meta])* $vis:vis fn $name:ident<const $fma:ident: bool>($($arg:ident: $ty:ty),* $(,)?)
     $(-> $ret:ty)? $body:block) => {
        $(#[$m])* $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body<const $fma: bool>($($arg: $ty),*) $(-> $ret)? $body
            $crate::gpt::kernels::dispatch!(body, ($($arg: $ty),*) $(-> $ret)?)
        }
    };
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
     $body:block) => {
        $(#[$m])* $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body($($arg: $ty),*) $(-> $ret)? $body
            $crate::gpt::kernels::dispatch!(plain body, ($($arg: $ty),*) $(-> $ret)?)
        }
    };
}

pub(crate) use kernel;

/// a·b + c, fused when the instantiation has FMA (wasm's simd128 and SSE2 do not).
#[inline(always)]
pub(crate) fn fmadd<const FMA: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}
