//! The builders every widget shares. Each repeats, operation for operation,
//! the forward code whose result it explains (same order of summation, the
//! same `softmax_row`), so the value it reports is the drawn number.

use super::body::{
    Addend, Axis, Dot, ExpRest, ExpTerm, Mean, Normalise, Over, Rest, Softmax, Term,
};
use super::fraction::fraction_beside;
use super::SourceCell;
use crate::largest_first::largest_first;
use crate::tensor::softmax_row;

/// A number and the cell it came from.
pub(crate) type Operand = (f64, SourceCell);

/// Which of n items to list: all when n ≤ max_terms, else `keep` (always) and
/// the largest nonzero |size| (ties to the lower index), in index order.
fn listed(size: &[f64], max_terms: usize, keep: Option<usize>) -> Vec<bool> {
    let n = size.len();
    if n <= max_terms {
        return vec![true; n];
    }
    let order = largest_first(n, n, |i, j| size[i].abs().total_cmp(&size[j].abs()));
    let mut out = vec![false; n];
    let mut count = 0;
    if let Some(k) = keep {
        out[k] = true;
        count = 1;
    }
    for i in order {
        if count >= max_terms {
            break;
        }
        // Exact zeros (a masked key's e^−∞, a 0 product) add nothing: they go to the rest.
        if !out[i] && size[i] != 0.0 {
            out[i] = true;
            count += 1;
        }
    }
    out
}

/// Σ of the unlisted values, left to right; None when every value is listed.
fn rest_of(shown: &[bool], values: &[f64]) -> Option<Rest> {
    let hidden = values.iter().zip(shown).filter(|(_, &s)| !s);
    let count = hidden.clone().count();
    (count > 0).then(|| Rest {
        count,
        sum: hidden.fold(0.0, |acc, (v, _)| acc + v),
    })
}

/// Keeps the items whose `shown` flag is set.
fn keep_shown<T>(items: Vec<T>, shown: &[bool]) -> Vec<T> {
    items
        .into_iter()
        .zip(shown)
        .filter_map(|(item, &s)| s.then_some(item))
        .collect()
}

fn addend(&(value, src): &Operand) -> Addend {
    Addend {
        value,
        src,
        fraction: fraction_beside(value),
    }
}

/// Σᵢ aᵢ·bᵢ, accumulated from 0 left to right as `matmul` and `tensor::dot` do.
/// Returns the sum without bias or scale, and every operand's cell.
pub(crate) fn dot(a: &[Operand], b: &[Operand], max_terms: usize) -> (Dot, Vec<SourceCell>) {
    debug_assert_eq!(a.len(), b.len());
    let terms: Vec<Term> = a
        .iter()
        .zip(b)
        .map(|(&(a, a_src), &(b, b_src))| Term {
            a,
            b,
            product: a * b,
            a_src,
            b_src,
            a_fraction: fraction_beside(a),
            b_fraction: fraction_beside(b),
        })
        .collect();
    let products: Vec<f64> = terms.iter().map(|t| t.product).collect();
    let mut sum = 0.0;
    for p in &products {
        sum += p;
    }
    let sources = terms.iter().flat_map(|t| [t.a_src, t.b_src]).collect();
    let shown = listed(&products, max_terms, None);
    let rest = rest_of(&shown, &products);
    let terms = keep_shown(terms, &shown);
    let body = Dot {
        terms,
        rest,
        sum,
        bias: None,
        scale: None,
    };
    (body, sources)
}

/// (Σᵢ xᵢ) / n, the running sum taken from 0 left to right as the loop does.
pub(crate) fn mean(items: &[Operand], max_terms: usize) -> (f64, Mean, Vec<SourceCell>) {
    let values: Vec<f64> = items.iter().map(|o| o.0).collect();
    let mut sum = 0.0;
    for v in &values {
        sum += v;
    }
    let count = items.len();
    let shown = listed(&values, max_terms, None);
    let body = Mean {
        terms: keep_shown(items.iter().map(addend).collect(), &shown),
        rest: rest_of(&shown, &values),
        sum,
        count,
    };
    let sources = items.iter().map(|o| o.1).collect();
    (sum / count as f64, body, sources)
}

/// a_s / Σ_s′ a_s′ for one row a, summed as `Matrix::row_sums` does.
pub(crate) fn normalise(
    row: &[Operand],
    s: usize,
    max_terms: usize,
) -> (f64, Normalise, Vec<SourceCell>) {
    normalise_by(&row[s], row, Over::Row, max_terms)
}

/// numerator / Σ `by`, the sum taken left to right as `iter().sum()` does; the
/// numerator is listed among the terms when it is one of them.
pub(crate) fn normalise_by(
    numerator: &Operand,
    by: &[Operand],
    over: Over,
    max_terms: usize,
) -> (f64, Normalise, Vec<SourceCell>) {
    let values: Vec<f64> = by.iter().map(|o| o.0).collect();
    let denominator: f64 = values.iter().sum();
    let own = by.iter().position(|o| o.1 == numerator.1);
    let shown = listed(&values, max_terms, own);
    let body = Normalise {
        numerator: addend(numerator),
        terms: keep_shown(by.iter().map(addend).collect(), &shown),
        rest: rest_of(&shown, &values),
        denominator,
        over,
    };
    let mut sources: Vec<SourceCell> = by.iter().map(|o| o.1).collect();
    if own.is_none() {
        sources.insert(0, numerator.1);
    }
    (numerator.0 / denominator, body, sources)
}

/// e^(m_s − max) / Σ_s′ e^(m_s′ − max) for one row m of masked scores
/// (`masked[s′]` marks the mask's −∞), the value taken from `softmax_row`
/// itself. None when softmax has no value (every key masked, or overflow).
pub(crate) fn softmax(
    row: &[Operand],
    masked: &[bool],
    s: usize,
    max_terms: usize,
) -> Option<(f64, Softmax, Vec<SourceCell>)> {
    let scores: Vec<f64> = row.iter().map(|o| o.0).collect();
    let value = softmax_row(&scores)?[s];
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let terms: Vec<ExpTerm> = row
        .iter()
        .zip(masked)
        .map(|(&(score, src), &masked)| ExpTerm {
            score,
            shifted: score - max,
            exp: score.exp(),
            shifted_exp: (score - max).exp(),
            masked,
            src,
        })
        .collect();
    let shifted: Vec<f64> = terms.iter().map(|t| t.shifted_exp).collect();
    let exps: Vec<f64> = terms.iter().map(|t| t.exp).collect();
    let shown = listed(&shifted, max_terms, Some(s));
    let rest = rest_of(&shown, &shifted).map(|r| ExpRest {
        count: r.count,
        exp_sum: rest_of(&shown, &exps).map_or(0.0, |e| e.sum),
        shifted_exp_sum: r.sum,
    });
    let body = Softmax {
        axis: Axis::Row,
        max,
        numerator: terms[s].exp,
        denominator: exps.iter().sum(),
        numerator_shifted: terms[s].shifted_exp,
        denominator_shifted: shifted.iter().sum(),
        target_masked: masked[s],
        terms: keep_shown(terms, &shown),
        rest,
    };
    let sources = row.iter().map(|o| o.1).collect();
    Some((value, body, sources))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_keeps_the_largest_and_the_target_in_index_order() {
        let size = [0.1, -5.0, 2.0, 0.0, 3.0];
        assert_eq!(listed(&size, 9, None), vec![true; 5]);
        assert_eq!(
            listed(&size, 2, None),
            vec![false, true, false, false, true]
        );
        assert_eq!(
            listed(&size, 2, Some(3)),
            vec![false, true, false, true, false]
        );
        assert_eq!(
            listed(&size, 0, Some(0)),
            vec![true, false, false, false, false]
        );
        let r = rest_of(&listed(&size, 2, None), &size).unwrap();
        assert_eq!((r.count, r.sum), (3, 2.1));
    }

    #[test]
    fn listing_picks_what_a_stable_library_sort_would() {
        let mut seed = 7u64;
        for n in 0..40 {
            let size = crate::largest_first::awkward_keys(&mut seed, n);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&i, &j| size[j].abs().total_cmp(&size[i].abs()));
            for max_terms in 0..n {
                for keep in [None, Some(0), Some(n / 2)]
                    .into_iter()
                    .filter(|k| *k < Some(n))
                {
                    let mut want = vec![false; n];
                    let mut count = usize::from(keep.is_some());
                    if let Some(k) = keep {
                        want[k] = true;
                    }
                    for &i in order.iter() {
                        if count < max_terms && !want[i] && size[i] != 0.0 {
                            want[i] = true;
                            count += 1;
                        }
                    }
                    assert_eq!(listed(&size, max_terms, keep), want, "{size:?} {max_terms}");
                }
            }
        }
    }
}
