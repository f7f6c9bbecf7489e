//! Coded errors: what a learner's input got wrong, as a stable code
//! (`lesson.size`, `gpt.config.too_many_params`) and named params (`{ name, max, n }`),
//! so that the page can say it in the learner's language (`err.<code>` in the page's
//! string tables, filled by `errorText` in www/js/i18n/i18n.js). `Display` is the English
//! template of the code with the params filled in; the page's English tables are generated
//! from the same templates when the site is built (examples/error_tables.rs prints every
//! table, tools/error-tables.mjs writes www/js/i18n/*.gen.js and checks the Chinese).
//!
//! Each domain (`gpt`, `lesson`, `shape`) owns a `MESSAGES` table of code → English
//! template and a zero-sized marker implementing `Domain`; `Coded<D>` is an error of
//! that domain. A param is text (numbers already written as digits, names already
//! quoted where the English quotes them) or another coded error, the cause a sentence
//! wraps ("checkpoint config: {reason}"), which the page says in the same language.

use std::fmt;
use std::marker::PhantomData;

/// A domain's codes: every code and its English text; `{name}` is a param.
pub type Messages = &'static [(&'static str, &'static str)];

/// A family of coded errors and the tables its codes come from.
pub trait Domain: fmt::Debug {
    /// Every table a code of this domain may come from, searched in order (a domain
    /// that passes on another's errors lists that one's table too).
    const TABLES: &'static [Messages];
}

/// The English template of `code` in `D`'s tables.
pub fn template_in<D: Domain>(code: &str) -> Option<&'static str> {
    D::TABLES
        .iter()
        .flat_map(|t| t.iter())
        .find(|(c, _)| *c == code)
        .map(|(_, t)| *t)
}

/// A param's value: text, or the coded error a sentence wraps.
#[derive(Clone, PartialEq, Eq)]
pub enum Param<D> {
    Text(String),
    Error(Coded<D>),
}

impl<D: Domain> fmt::Display for Param<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::Text(s) => f.write_str(s),
            Param::Error(e) => e.fmt(f),
        }
    }
}

/// As `Display` (see `Coded`'s Debug).
impl<D: Domain> fmt::Debug for Param<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<D> From<Coded<D>> for Param<D> {
    fn from(e: Coded<D>) -> Param<D> {
        Param::Error(e)
    }
}

macro_rules! text_params {
    ($($t:ty),*) => {$(
        impl<D> From<$t> for Param<D> {
            fn from(v: $t) -> Param<D> {
                Param::Text(v.to_string())
            }
        }
    )*};
}
text_params!(String, &str, &String, char, usize, u32, u64, u128, f32, f64);

/// `c` in quotes as `format!("{c:?}")` writes it (`'a'`, `'\''`, `'\\'`, `'\n'`, `'ü'`,
/// `'字'`, `'\u{7f}'`), for a param naming a character the learner typed, without
/// `char`'s Debug, whose Unicode tables (printable, grapheme-extend) cost the lesson's
/// wasm a few KB. Shown as `\u{..}` are the characters of `HIDDEN`, where Debug hides the
/// characters of the scripts a learner types (tested against Debug: ASCII, Latin-1 and
/// Latin Extended-A, Greek, Cyrillic, general punctuation, kana, CJK, Hangul, emoji,
/// private use); elsewhere a character Debug would hide (another script's combining
/// mark, an unassigned code point) is shown as itself.
pub fn quoted(c: char) -> String {
    let mut s = String::from('\'');
    match c {
        '\0' => s.push_str("\\0"),
        '\t' => s.push_str("\\t"),
        '\r' => s.push_str("\\r"),
        '\n' => s.push_str("\\n"),
        '\\' => s.push_str("\\\\"),
        '\'' => s.push_str("\\'"),
        _ if HIDDEN
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c))) =>
        {
            s.push_str("\\u{");
            let u = u32::from(c);
            let digits = (1..8).rev().find(|&i| u >> (4 * i) != 0).unwrap_or(0);
            for i in (0..=digits).rev() {
                s.push(char::from_digit((u >> (4 * i)) & 0xf, 16).unwrap_or('0'));
            }
            s.push('}');
        }
        _ => s.push(c),
    }
    s.push('\'');
    s
}

/// The code points `quoted` writes as `\u{..}`: controls, no-break and other spaces,
/// the soft hyphen, combining marks, invisible format characters, private use.
const HIDDEN: &[(u32, u32)] = &[
    (0x00, 0x1f),
    (0x7f, 0xa0),
    (0xad, 0xad),
    (0x300, 0x36f),
    (0x378, 0x379),
    (0x380, 0x383),
    (0x38b, 0x38b),
    (0x38d, 0x38d),
    (0x3a2, 0x3a2),
    (0x483, 0x489),
    (0x2000, 0x200f),
    (0x2028, 0x202f),
    (0x205f, 0x206f),
    (0x3000, 0x3000),
    (0x302a, 0x302f),
    (0x3040, 0x3040),
    (0x3097, 0x309a),
    (0xe000, 0xf8ff),
    (0xfe00, 0xfe0f),
    (0xfeff, 0xfeff),
];

/// An error of domain `D`: a code of `D`'s tables and its named params.
#[derive(Clone, PartialEq, Eq)]
pub struct Coded<D> {
    code: &'static str,
    params: Vec<(&'static str, Param<D>)>,
    domain: PhantomData<D>,
}

impl<D: Domain> Coded<D> {
    /// An error `code` (one of `D::TABLES`) with its params.
    pub fn new(code: &'static str, params: Vec<(&'static str, Param<D>)>) -> Coded<D> {
        debug_assert!(template_in::<D>(code).is_some(), "{code} has no template");
        Coded {
            code,
            params,
            domain: PhantomData,
        }
    }

    /// The same error told by domain `E`, whose tables include this code's.
    pub fn into_domain<E: Domain>(self) -> Coded<E> {
        let params = self
            .params
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    Param::Text(s) => Param::Text(s),
                    Param::Error(e) => Param::Error(e.into_domain()),
                };
                (k, v)
            })
            .collect();
        Coded::new(self.code, params)
    }
}

impl<D> Coded<D> {
    /// The stable name of the page's string `err.<code>`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The named params, in the order given.
    pub fn params(&self) -> &[(&'static str, Param<D>)] {
        &self.params
    }

    fn param(&self, name: &str) -> Option<&Param<D>> {
        self.params.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
    }
}

impl<D: Domain> fmt::Display for Coded<D> {
    /// The English text: the template with every `{name}` replaced by its param (a
    /// param's own text is not searched again).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(mut rest) = template_in::<D>(self.code) else {
            // No template (a bug `Coded::new` asserts against): the code and its params,
            // without `{:?}`, whose quoting of text pulls core's Unicode tables in.
            f.write_str(self.code)?;
            for (name, value) in &self.params {
                write!(f, " {name}={value}")?;
            }
            return Ok(());
        };
        // split_once, not `&rest[..i]`: a slice's panic path formats with `char`'s Debug.
        while let Some((before, after)) = rest.split_once('{') {
            f.write_str(before)?;
            let close = after.split_once('}');
            match close.and_then(|(name, tail)| self.param(name).map(|p| (tail, p))) {
                Some((tail, p)) => {
                    p.fmt(f)?;
                    rest = tail;
                }
                None => {
                    f.write_str("{")?;
                    rest = after;
                }
            }
        }
        f.write_str(rest)
    }
}

/// The code, then the English text: by hand, as a derived Debug would quote the text
/// with `<str as Debug>`, and with it core's Unicode tables, in every build where a
/// `Result<_, Coded>` is unwrapped.
impl<D: Domain> fmt::Debug for Coded<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {self}", self.code)
    }
}

impl<D: Domain> std::error::Error for Coded<D> {}

/// `<$ty>::new("some.code", params)` with params written `name = value` (or just
/// `name`, a variable of that name); a value is anything `Param: From` (text, numbers,
/// another coded error of the same domain).
macro_rules! coded {
    ($ty:ty, $code:literal $(, $k:ident $(= $v:expr)?)* $(,)?) => {
        <$ty>::new(
            $code,
            vec![$((stringify!($k), $crate::error::param!($k $(= $v)?))),*],
        )
    };
}
pub(crate) use coded;

macro_rules! param {
    ($k:ident) => {
        $crate::error::Param::from($k)
    };
    ($k:ident = $v:expr) => {
        $crate::error::Param::from($v)
    };
}
pub(crate) use param;

/// The `{name}` params a template names, each once: what a translation must name too.
pub fn placeholders(template: &str) -> std::collections::BTreeSet<&str> {
    let opened = template.split('{').skip(1);
    opened
        .filter_map(|part| part.split_once('}').map(|(name, _)| name))
        .collect()
}

/// Every template names its params in lower-case ASCII and `_` (what `errorText`
/// fills): the check each domain's tests run on its tables.
pub fn simple_params(table: Messages) -> Result<(), String> {
    for (code, text) in table {
        for name in placeholders(text) {
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                return Err(format!("{code}: {{{name}}}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_is_debug_for_the_characters_a_learner_types() {
        let blocks = [
            (0x00, 0x24f),      // ASCII, Latin-1, Latin Extended-A and -B
            (0x300, 0x36f),     // combining diacritics
            (0x370, 0x3ff),     // Greek
            (0x400, 0x4ff),     // Cyrillic
            (0x2000, 0x206f),   // general punctuation, spaces, format characters
            (0x3000, 0x30ff),   // CJK punctuation, hiragana, katakana
            (0x4e00, 0x9fa5),   // CJK ideographs
            (0xac00, 0xd7a3),   // Hangul syllables
            (0xe000, 0xf8ff),   // private use
            (0xfe00, 0xfe0f),   // variation selectors
            (0xfeff, 0xfeff),   // byte order mark
            (0x1f600, 0x1f64f), // emoticons
        ];
        let mut n = 0;
        for (lo, hi) in blocks {
            for c in (lo..=hi).filter_map(char::from_u32) {
                assert_eq!(quoted(c), format!("{c:?}"), "U+{:04X}", u32::from(c));
                n += 1;
            }
        }
        assert!(n > 40_000);
        for (c, q) in [
            ('a', "'a'"),
            ('\'', r"'\''"),
            ('"', "'\"'"),
            ('\\', r"'\\'"),
        ] {
            assert_eq!(quoted(c), q);
        }
        assert_eq!(quoted('\n'), r"'\n'");
        assert_eq!(quoted('\u{7f}'), r"'\u{7f}'");
        assert_eq!(quoted('\u{feff}'), r"'\u{feff}'");
    }

    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Outer;
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Inner;
    const INNER: Messages = &[("inner.short", "too short: {n} < {min}")];
    const OUTER: Messages = &[("outer.wraps", "the {what} failed: {reason}")];
    impl Domain for Inner {
        const TABLES: &'static [Messages] = &[INNER];
    }
    impl Domain for Outer {
        const TABLES: &'static [Messages] = &[OUTER, INNER];
    }

    #[test]
    fn params_fill_the_template_once_and_nest() {
        let (n, min) = (2usize, 3usize);
        let inner = coded!(Coded<Inner>, "inner.short", n, min);
        assert_eq!(inner.to_string(), "too short: 2 < 3");
        let outer = coded!(
            Coded<Outer>,
            "outer.wraps",
            what = "{reason}",
            reason = inner.clone().into_domain::<Outer>()
        );
        assert_eq!(outer.to_string(), "the {reason} failed: too short: 2 < 3");
        assert_eq!(outer.code(), "outer.wraps");
        assert_eq!(outer.params()[0], ("what", Param::Text("{reason}".into())));
        let moved: Coded<Outer> = inner.into_domain();
        assert_eq!(moved.code(), "inner.short");
        assert_eq!(moved.to_string(), "too short: 2 < 3");
    }

    #[test]
    fn simple_params_finds_odd_names() {
        assert_eq!(simple_params(OUTER), Ok(()));
        assert!(simple_params(&[("x", "{Bad}")]).is_err());
        assert!(simple_params(&[("x", "{}")]).is_err());
    }
}
