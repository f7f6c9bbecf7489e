//! Largest first, without the library's sorts: `slice::sort_by` costs the lesson's wasm
//! ~6 KB, and the orders it is needed for are short (a row's terms, a vocabulary's top k).

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
