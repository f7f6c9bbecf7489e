//! Numbers typed by a learner: `2`, `-0.5`, `1e-3`, `−1.5` (Unicode minus),
//! `1/3` and `-2/3`, with surrounding spaces and a decimal comma tolerated.
//! Anything else, and anything that is not a finite f64, is an error whose
//! message says what to type instead.

use std::fmt;

use crate::decimal::decimal_to_f64;

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

/// A plain decimal or scientific literal, read as core's `str::parse::<f64>` reads it
/// (by `decimal_to_f64`, which is 14 KB gzipped smaller in wasm); `None` for words core's
/// parser would accept but a learner did not mean as a number (inf, NaN).
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
}
