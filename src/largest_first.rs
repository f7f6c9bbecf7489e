//! Largest first, without the library's sorts: `slice::sort_by` (one copy per comparator)
//! costs the lesson's wasm 2.3 KB gzipped (1.9 KB as one `sort_unstable_by` behind a
//! `&dyn Fn`) and the GPT's 4.0 KB, and the orders it is needed for are short (a row's
//! terms, a vocabulary's top k).

use std::cmp::Ordering;

/// The indices of the `k` largest of `0..n` by `cmp` (largest first, equals in index
/// order, as a stable sort by descending key would give them), picked one at a time.
pub(crate) fn largest_first(
    n: usize,
    k: usize,
    cmp: impl Fn(usize, usize) -> Ordering,
) -> Vec<usize> {
    let mut taken = vec![false; n];
    (0..k.min(n))
        .map(|_| {
            let mut best: Option<usize> = None;
            for i in (0..n).filter(|&i| !taken[i]) {
                if best.is_none_or(|b| cmp(i, b).is_gt()) {
                    best = Some(i);
                }
            }
            let i = best.expect("k ≤ n items left");
            taken[i] = true;
            i
        })
        .collect()
}

/// `n` keys drawn from values that trip orderings (±0, ±NaN, ±∞, ties, a subnormal-sized
/// one) by a linear congruential step of `seed`: for tests that hold an ordering to a
/// library sort.
#[cfg(test)]
pub(crate) fn awkward_keys(seed: &mut u64, n: usize) -> Vec<f64> {
    const ODD: [f64; 10] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e-300,
    ];
    (0..n)
        .map(|_| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ODD[(*seed >> 33) as usize % ODD.len()]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{awkward_keys, largest_first};

    /// The first k of a stable descending library sort: ties in index order, NaN by
    /// `total_cmp` (+NaN above +∞, −NaN below −∞), −0 below +0.
    #[test]
    fn picks_what_a_stable_library_sort_would() {
        let mut seed = 11u64;
        for n in 0..40 {
            let keys = awkward_keys(&mut seed, n);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&i, &j| keys[j].total_cmp(&keys[i]));
            for k in 0..=n + 1 {
                let got = largest_first(n, k, |i, j| keys[i].total_cmp(&keys[j]));
                assert_eq!(got, order[..k.min(n)], "{keys:?} k = {k}");
            }
        }
    }
}
