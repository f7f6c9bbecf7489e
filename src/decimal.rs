//! Decimal literals to f64, correctly rounded (to nearest, ties to even) exactly as
//! core's `str::parse::<f64>` rounds them, by exact big-integer arithmetic instead of
//! core's dec2flt: its Eisel-Lemire table of 128-bit powers of five and its code cost
//! the lesson's wasm 14 KB gzipped (119.5 KB with this file, 133.4 KB with core's parse;
//! the GPT's wasm 4.6 KB). The tests hold it equal to core's parse, bit for bit.
//!
//! The steps: read the literal into an integer n and a power of ten (`Literal::read`),
//! write n × 10^exp as a fraction n / d (`as_ratio`), find its binary exponent
//! (`floor_log2`), divide out 53 bits and round them (`rounded_significand`), and put
//! sign, exponent and significand together (`assemble`).

use std::cmp::Ordering;

/// `s.parse::<f64>().ok()` for a literal of `[+-] digits [. digits] [(e|E) [+-] digits]`
/// (at least one mantissa digit), correctly rounded as core does it, so the same f64
/// for every input; `None` for anything else.
pub(crate) fn decimal_to_f64(s: &str) -> Option<f64> {
    let Literal {
        neg,
        n,
        n_digits,
        exp,
    } = Literal::read(s)?;
    let sign = if neg { -1.0 } else { 1.0 };
    // 10^(n_digits − 1 + exp) ≤ |value| < 10^(n_digits + exp)
    if n_digits == 0 || n_digits + exp < -330 {
        return Some(sign * 0.0);
    }
    if n_digits + exp > 310 {
        return Some(sign * f64::INFINITY);
    }
    let (n, d) = as_ratio(n, exp);
    // Subnormals keep the exponent −1022 and lose significant bits instead.
    let e = floor_log2(&n, &d).max(-1022);
    Some(assemble(neg, rounded_significand(&n, &d, e), e))
}

/// A literal read: its value is ±n × 10^exp.
struct Literal {
    neg: bool,
    /// The mantissa's digits, the decimal point left out, as an integer.
    n: Big,
    /// How many digits n has (its leading zeros not counted: 0 when n = 0).
    n_digits: i64,
    exp: i64,
}

impl Literal {
    /// Reads `[+-] digits [. digits] [(e|E) [+-] digits]`, all of `s`; None for
    /// anything else.
    fn read(s: &str) -> Option<Literal> {
        let b = s.as_bytes();
        let mut lit = Literal {
            neg: b.first() == Some(&b'-'),
            n: Big(Vec::new()),
            n_digits: 0,
            exp: 0,
        };
        let signed = matches!(b.first(), Some(b'-' | b'+'));
        let mut i = lit.read_mantissa(b, usize::from(signed))?;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            let (e, end) = read_exponent(b, i + 1)?;
            lit.exp += e;
            i = end;
        }
        (i == b.len()).then_some(lit)
    }

    /// Reads `digits [. digits]` from `b[i..]` into n (and exp, −1 a fraction digit);
    /// the index after them, None without a digit.
    fn read_mantissa(&mut self, b: &[u8], mut i: usize) -> Option<usize> {
        let (mut any_digit, mut fraction) = (false, false);
        while i < b.len() {
            match b[i] {
                d @ b'0'..=b'9' => {
                    any_digit = true;
                    if fraction {
                        self.exp -= 1;
                    }
                    if d != b'0' || self.n_digits > 0 {
                        self.n_digits += 1;
                        self.n.mul_add(10, u32::from(d - b'0'));
                    }
                }
                b'.' if !fraction => fraction = true,
                _ => break,
            }
            i += 1;
        }
        any_digit.then_some(i)
    }
}

/// Reads `[+-] digits` from `b[i..]`: the exponent (its size capped at 2^40, far past
/// any f64) and the index after it; None without a digit.
fn read_exponent(b: &[u8], mut i: usize) -> Option<(i64, usize)> {
    let neg = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let start = i;
    let mut e: i64 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        e = (e * 10 + i64::from(b[i] - b'0')).min(1 << 40);
        i += 1;
    }
    (i > start).then_some((if neg { -e } else { e }, i))
}

/// n × 10^exp as a fraction n / d of two integers.
fn as_ratio(mut n: Big, exp: i64) -> (Big, Big) {
    let mut d = Big(vec![1]);
    for _ in 0..exp.unsigned_abs() {
        if exp > 0 { &mut n } else { &mut d }.mul_add(10, 0);
    }
    (n, d)
}

/// ⌊log2(n / d)⌋, for n, d > 0.
fn floor_log2(n: &Big, d: &Big) -> i64 {
    let e2 = n.bits() - d.bits();
    let below = Big::cmp(&n.shl((-e2).max(0) as usize), &d.shl(e2.max(0) as usize)).is_lt();
    e2 - i64::from(below)
}

/// n / d · 2^(52 − e) rounded to an integer (to nearest, ties to even): the significand
/// at binary exponent e, at most 2^53 (below 2^52 for a subnormal).
fn rounded_significand(n: &Big, d: &Big, e: i64) -> u64 {
    let shift = 52 - e;
    let mut rest = n.shl(shift.max(0) as usize);
    let den = d.shl((-shift).max(0) as usize);
    let mut q: u64 = 0;
    for k in (0..54).rev() {
        let dk = den.shl(k);
        if !Big::cmp(&rest, &dk).is_lt() {
            rest.sub(&dk);
            q |= 1 << k;
        }
    }
    let twice_rest = Big::cmp(&rest.shl(1), &den);
    if twice_rest.is_gt() || (twice_rest.is_eq() && q & 1 == 1) {
        q += 1;
    }
    q
}

/// The f64 ±q · 2^(e − 52), from a rounded significand q ≤ 2^53 (below 2^52 only for
/// a subnormal, at e = −1022); ±∞ past the largest exponent, 1023.
fn assemble(neg: bool, q: u64, e: i64) -> f64 {
    // Rounding up may carry into a 54th bit.
    let (q, e) = if q == 1 << 53 {
        (q >> 1, e + 1)
    } else {
        (q, e)
    };
    let bits = if e > 1023 {
        0x7ff << 52 // infinity
    } else if q >= 1 << 52 {
        ((e + 1023) as u64) << 52 | (q - (1 << 52))
    } else {
        q // a subnormal: e = −1022
    };
    f64::from_bits(bits | u64::from(neg) << 63)
}

/// A natural number, little-endian base 2^32 limbs.
struct Big(Vec<u32>);

impl Big {
    /// self = self · m + add
    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in self.0.iter_mut() {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// The number of significant bits (0 for zero).
    fn bits(&self) -> i64 {
        let top = self.0.iter().rposition(|&l| l != 0);
        top.map_or(0, |t| {
            32 * t as i64 + 32 - i64::from(self.0[t].leading_zeros())
        })
    }

    /// self · 2^k
    fn shl(&self, k: usize) -> Big {
        let (limbs, bits) = (k / 32, k % 32);
        let mut out = vec![0; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            out.push(l << bits | carry);
            carry = if bits == 0 { 0 } else { l >> (32 - bits) };
        }
        out.push(carry);
        Big(out)
    }

    fn cmp(a: &Big, b: &Big) -> Ordering {
        let len = a.0.len().max(b.0.len());
        let at = |x: &Big, i: usize| x.0.get(i).copied().unwrap_or(0);
        (0..len)
            .rev()
            .map(|i| at(a, i).cmp(&at(b, i)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// self −= b (b ≤ self)
    fn sub(&mut self, b: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(b.0.get(i).copied().unwrap_or(0)) - borrow;
            *limb = v as u32;
            borrow = i64::from(v < 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// decimal_to_f64 is core's `str::parse::<f64>` on the literals it is handed.
    fn same_as_core(s: &str) {
        let want = s.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(decimal_to_f64(s).map(f64::to_bits), want, "{s}");
    }

    const ALPHABET: &[u8] = b"0123456789.+-eE";

    #[test]
    fn every_short_literal_reads_as_core_does() {
        // Every string of up to 4 characters of the alphabet.
        let mut all = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = all
                .iter()
                .filter(|s| s.len() == all.last().map_or(0, |l| l.len()))
                .flat_map(|s| ALPHABET.iter().map(move |&c| format!("{s}{}", c as char)))
                .collect();
            all.extend(longer);
        }
        for s in &all {
            same_as_core(s);
        }
    }

    #[test]
    fn random_literals_round_as_core_does() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Random strings of the alphabet, mostly digits.
        for _ in 0..3_000 {
            let len = 1 + next() as usize % 30;
            let s: String = (0..len)
                .map(|_| {
                    let r = next() as usize;
                    if r.is_multiple_of(4) {
                        ALPHABET[10 + r / 4 % 5] as char
                    } else {
                        ALPHABET[r / 4 % 10] as char
                    }
                })
                .collect();
            same_as_core(&s);
        }
        // Every kind of f64 written out, and nudged in its last digits; near halfway points.
        for _ in 0..3_000 {
            let x = f64::from_bits(next() >> (next() % 12));
            if !x.is_finite() {
                continue;
            }
            for s in [
                format!("{x}"),
                format!("{x:e}"),
                format!("{x:.25e}"),
                format!("{x:.17e}"),
            ] {
                same_as_core(&s);
                let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
                for tail in ["5", "49999999999999999999", "50000000000000000001", "0"] {
                    same_as_core(&format!("{m}{tail}e{e}"));
                }
            }
        }
    }

    #[test]
    fn halfway_integers_round_to_even_as_core_does() {
        // Exact halfway points between neighbouring f64 integers of 54..=70 bits.
        for k in 53..70u32 {
            for j in 0..50u128 {
                let n = (1u128 << k) + (2 * j + 1) * (1u128 << (k - 53));
                same_as_core(&n.to_string());
                same_as_core(&format!("-{n}.000"));
            }
        }
    }

    #[test]
    fn edge_literals_read_as_core_does() {
        for s in [
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "4.9406564584124654e-324",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "179769313486231580793728971405301e276",
            "9007199254740993",
            "-0",
            "-0e99999999999999999999999",
            "0e-99999999999999999",
            "1e-99999999999999999",
            "1e99999999999999999",
            "000000000000000000000000000001.5e-0000000000000000000000000000001",
            "0.000000000000000000000000000000000000000000000000000000000000000001e-257",
            "123456789012345678901234567890123456789012345678901234567890e-370",
        ] {
            same_as_core(s);
        }
    }

    /// b in decimal digits.
    fn decimal(b: &Big) -> String {
        let mut limbs = b.0.clone();
        let mut out = Vec::new();
        while limbs.iter().any(|&l| l != 0) {
            let mut rem = 0u64;
            for l in limbs.iter_mut().rev() {
                let v = rem << 32 | u64::from(*l);
                *l = (v / 10) as u32;
                rem = v % 10;
            }
            out.push(b'0' + rem as u8);
        }
        out.reverse();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn halfway_subnormals_round_to_even_as_core_does() {
        // Exactly halfway subnormal gaps 2^-1075·(2j+1), written in full.
        let mut digits = Big(vec![1]);
        for _ in 0..1075 {
            digits.mul_add(5, 0); // 5^1075 = 10^1075 · 2^-1075
        }
        for odd in [1u32, 3, 5, 7, 9, 2047, 4095] {
            let mut b = Big(digits.0.clone());
            b.mul_add(odd, 0);
            same_as_core(&format!("{}e-1075", decimal(&b)));
        }
    }
}
