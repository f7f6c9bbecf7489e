//! Exact values: a weight of 0.333… is 1/3, and the page shows both.

use serde::Serialize;

/// p/q in lowest terms with q ≥ 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fraction {
    pub num: i64,
    pub den: i64,
}

/// Largest denominator tried (1/(t+1) for T ≤ 12, thirds, sixths, twelfths).
pub const MAX_DEN: i64 = 12;
/// Largest |numerator| accepted.
pub const MAX_NUM: i64 = 1000;
/// How close x must be to p/q: a few ulps of the sums the lesson makes.
pub const TOLERANCE: f64 = 1e-12;

/// The p/q with q ≤ 12, |p| ≤ 1000 and |x − p/q| ≤ 1e-12, or None. Trying the
/// smallest q first returns the fraction in lowest terms.
pub fn as_fraction(x: f64) -> Option<Fraction> {
    if !x.is_finite() {
        return None;
    }
    (1..=MAX_DEN).find_map(|den| {
        let num = (x * den as f64).round();
        let close = (x - num / den as f64).abs() <= TOLERANCE;
        (num.abs() <= MAX_NUM as f64 && close).then_some(Fraction {
            num: num as i64,
            den,
        })
    })
}

/// `as_fraction` for non-integers only: what is worth showing beside the decimal.
pub fn fraction_beside(x: f64) -> Option<Fraction> {
    as_fraction(x).filter(|f| f.den > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_denominators_in_lowest_terms() {
        let f = |num, den| Some(Fraction { num, den });
        assert_eq!(as_fraction(1.0 / 3.0), f(1, 3));
        assert_eq!(as_fraction(0.5), f(1, 2));
        assert_eq!(as_fraction(1.0 / 2.0 + 1.0 / 3.0), f(5, 6));
        assert_eq!(as_fraction(2.0 / 4.0), f(1, 2));
        assert_eq!(as_fraction(-14.0 / 3.0), f(-14, 3));
        assert_eq!(as_fraction(3.0), f(3, 1));
        assert_eq!(fraction_beside(3.0), None);
        assert_eq!(as_fraction(0.7978), None);
        assert_eq!(as_fraction(1.0 / 13.0), None);
        assert_eq!(as_fraction(2000.5), None);
        assert_eq!(as_fraction(f64::NEG_INFINITY), None);
        assert_eq!(as_fraction(f64::NAN), None);
    }
}
