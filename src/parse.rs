//! Numbers typed by a learner: `2`, `-0.5`, `1e-3`, `−1.5` (Unicode minus),
//! `1/3` and `-2/3`, with surrounding spaces and a decimal comma tolerated.
//! Anything else, and anything that is not a finite f64, is an error whose
//! message says what to type instead.

use std::fmt;

/// Why a cell's text is not a number; `Display` is the learner-facing message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    Empty,
    NotANumber(String),
    NotFinite(String),
    DivisionByZero,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberError::Empty => f.write_str("empty cell: type a number such as 0, -1.5 or 1/3"),
            NumberError::NotANumber(t) => write!(
                f,
                "“{t}” is not a number: type digits such as 2, -0.5, 1e-3 or 1/3"
            ),
            NumberError::NotFinite(t) => write!(
                f,
                "“{t}” is too large (or not finite): use a value between -1e300 and 1e300"
            ),
            NumberError::DivisionByZero => f.write_str("a fraction cannot have 0 below the line"),
        }
    }
}

impl std::error::Error for NumberError {}

impl NumberError {
    /// A stable name for the page's string tables (`err.<code>`), so the message can
    /// be said in the learner's language; `text()` is its one parameter.
    pub fn code(&self) -> &'static str {
        match self {
            NumberError::Empty => "number.empty",
            NumberError::NotANumber(_) => "number.not_a_number",
            NumberError::NotFinite(_) => "number.not_finite",
            NumberError::DivisionByZero => "number.division_by_zero",
        }
    }

    /// The (shortened) text the learner typed, where the message quotes it.
    pub fn text(&self) -> Option<&str> {
        match self {
            NumberError::NotANumber(t) | NumberError::NotFinite(t) => Some(t),
            _ => None,
        }
    }
}

/// Longest text accepted: a cell, not a document.
const MAX_LEN: usize = 64;

/// Parses one cell. Accepts decimals, scientific notation and `a/b` fractions;
/// rejects NaN, infinities, values beyond ±1e300 and text over 64 characters.
pub fn parse_number(text: &str) -> Result<f64, NumberError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NumberError::Empty);
    }
    let shown: String = trimmed.chars().take(20).collect();
    if trimmed.len() > MAX_LEN {
        return Err(NumberError::NotANumber(format!("{shown}…")));
    }
    let normalised: String = trimmed
        .chars()
        .map(|c| match c {
            '−' | '–' => '-',
            ',' => '.',
            c => c,
        })
        .filter(|c| !c.is_whitespace())
        .collect();
    let value = match normalised.split_once('/') {
        Some((num, den)) => {
            let num = parse_plain(num).ok_or_else(|| NumberError::NotANumber(shown.clone()))?;
            let den = parse_plain(den).ok_or_else(|| NumberError::NotANumber(shown.clone()))?;
            if den == 0.0 {
                return Err(NumberError::DivisionByZero);
            }
            num / den
        }
        None => parse_plain(&normalised).ok_or_else(|| NumberError::NotANumber(shown.clone()))?,
    };
    if !value.is_finite() || value.abs() > 1e300 {
        return Err(NumberError::NotFinite(shown));
    }
    Ok(value)
}

/// A plain decimal or scientific literal; `None` for words Rust's parser
/// would accept but a learner did not mean as a number (inf, NaN).
fn parse_plain(s: &str) -> Option<f64> {
    let ok = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'))
        && s.chars().any(|c| c.is_ascii_digit());
    if !ok {
        return None;
    }
    decimal_to_f64(s)
}

/// `s.parse::<f64>().ok()` for a literal of `[+-] digits [. digits] [(e|E) [+-] digits]`
/// (at least one mantissa digit), correctly rounded (to nearest, ties to even) as core
/// does it, so the same f64 for every input; `None` for anything else. By exact big
/// integer arithmetic instead of core's dec2flt, whose Eisel-Lemire table of 128-bit
/// powers of five and its code cost the lesson's wasm ~14 KB gzipped.
fn decimal_to_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let neg = b.first() == Some(&b'-');
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    // value = n × 10^exp, n the digits' integer (leading zeros not counted in n_digits)
    let mut n = Big(Vec::new());
    let mut exp: i64 = 0;
    let mut any_digit = false;
    let mut n_digits: i64 = 0;
    let mut fraction = false;
    while i < b.len() {
        match b[i] {
            d @ b'0'..=b'9' => {
                any_digit = true;
                if fraction {
                    exp -= 1;
                }
                if d != b'0' || n_digits > 0 {
                    n_digits += 1;
                    n.mul_add(10, u32::from(d - b'0'));
                }
            }
            b'.' if !fraction => fraction = true,
            _ => break,
        }
        i += 1;
    }
    if !any_digit {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        let e_neg = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut e: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            e = (e * 10 + i64::from(b[i] - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start {
            return None;
        }
        exp += if e_neg { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    let sign = if neg { -1.0 } else { 1.0 };
    // 10^(n_digits − 1 + exp) ≤ value < 10^(n_digits + exp)
    if n_digits == 0 || n_digits + exp < -330 {
        return Some(sign * 0.0);
    }
    if n_digits + exp > 310 {
        return Some(sign * f64::INFINITY);
    }
    let mut d = Big(vec![1]);
    for _ in 0..exp.unsigned_abs() {
        if exp > 0 { &mut n } else { &mut d }.mul_add(10, 0);
    }
    // e2 = ⌊log2(n / d)⌋
    let mut e2 = n.bits() - d.bits();
    if Big::cmp(&n.shl((-e2).max(0) as usize), &d.shl(e2.max(0) as usize)).is_lt() {
        e2 -= 1;
    }
    if e2 > 1023 {
        return Some(sign * f64::INFINITY);
    }
    // q = ⌊n / d · 2^(52 − e)⌋ < 2^53, e = max(e2, −1022) (subnormals keep e = −1022)
    let e = e2.max(-1022);
    let shift = 52 - e;
    let mut a = n.shl(shift.max(0) as usize);
    let den = d.shl((-shift).max(0) as usize);
    let mut q: u64 = 0;
    for k in (0..54).rev() {
        let dk = den.shl(k);
        if !Big::cmp(&a, &dk).is_lt() {
            a.sub(&dk);
            q |= 1 << k;
        }
    }
    let twice_rest = Big::cmp(&a.shl(1), &den);
    if twice_rest.is_gt() || (twice_rest.is_eq() && q & 1 == 1) {
        q += 1;
    }
    let (mut q, mut e) = (q, e);
    if q == 1 << 53 {
        q >>= 1;
        e += 1;
        if e > 1023 {
            return Some(sign * f64::INFINITY);
        }
    }
    let bits = if q >= 1 << 52 {
        ((e + 1023) as u64) << 52 | (q - (1 << 52))
    } else {
        q // a subnormal: e = −1022
    };
    Some(f64::from_bits(bits | u64::from(neg) << 63))
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

    fn cmp(a: &Big, b: &Big) -> std::cmp::Ordering {
        let len = a.0.len().max(b.0.len());
        let at = |x: &Big, i: usize| x.0.get(i).copied().unwrap_or(0);
        (0..len)
            .rev()
            .map(|i| at(a, i).cmp(&at(b, i)))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
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

    #[test]
    fn accepts_what_a_learner_types() {
        for (text, want) in [
            ("2", 2.0),
            (" -0.5 ", -0.5),
            ("1e-3", 1e-3),
            ("−1.5", -1.5),
            ("+4", 4.0),
            ("1/4", 0.25),
            ("-3 / 4", -0.75),
            ("0,5", 0.5),
            (".5", 0.5),
        ] {
            assert_eq!(parse_number(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_finite_number() {
        for text in [
            "abc",
            "NaN",
            "inf",
            "-Infinity",
            "1e",
            "--1",
            "1..2",
            "1/x",
            "e5",
        ] {
            assert!(
                matches!(parse_number(text), Err(NumberError::NotANumber(_))),
                "{text}: {:?}",
                parse_number(text)
            );
        }
        assert_eq!(parse_number(""), Err(NumberError::Empty));
        assert_eq!(parse_number("   "), Err(NumberError::Empty));
        assert!(matches!(
            parse_number("1e400"),
            Err(NumberError::NotFinite(_))
        ));
        assert!(matches!(
            parse_number("1e301"),
            Err(NumberError::NotFinite(_))
        ));
        assert_eq!(parse_number("1/0"), Err(NumberError::DivisionByZero));
        assert!(parse_number(&"1".repeat(65)).is_err());
        assert!(parse_number("abc").unwrap_err().to_string().contains("abc"));
    }

    /// decimal_to_f64 is core's `str::parse::<f64>` on the literals it is handed.
    fn same_as_core(s: &str) {
        let want = s.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(decimal_to_f64(s).map(f64::to_bits), want, "{s}");
    }

    #[test]
    fn decimal_literals_round_as_core_does() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Every string of up to 4 characters of the alphabet, then random longer ones.
        let alphabet = b"0123456789.+-eE";
        let mut all = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = all
                .iter()
                .filter(|s| s.len() == all.last().map_or(0, |l| l.len()))
                .flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{}", c as char)))
                .collect();
            all.extend(longer);
        }
        for s in &all {
            same_as_core(s);
        }
        for _ in 0..3_000 {
            let len = 1 + next() as usize % 30;
            let s: String = (0..len)
                .map(|_| {
                    let r = next() as usize;
                    if r.is_multiple_of(4) {
                        alphabet[10 + r / 4 % 5] as char
                    } else {
                        alphabet[r / 4 % 10] as char
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
        // Exact halfway points between neighbouring integers of 54..=70 bits: ties to even.
        for k in 53..70u32 {
            for j in 0..50u128 {
                let n = (1u128 << k) + (2 * j + 1) * (1u128 << (k - 53));
                same_as_core(&n.to_string());
                same_as_core(&format!("-{n}.000"));
            }
        }
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
        // Every exactly halfway subnormal gap 2^-1075·(2j+1), written in full.
        let mut digits = Big(vec![1]);
        for _ in 0..1075 {
            digits.mul_add(5, 0); // 5^1075 = 10^1075 · 2^-1075
        }
        let decimal = |b: &Big| {
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
        };
        for odd in [1u32, 3, 5, 7, 9, 2047, 4095] {
            let mut b = Big(digits.0.clone());
            b.mul_add(odd, 0);
            same_as_core(&format!("{}e-1075", decimal(&b)));
        }
    }
}
