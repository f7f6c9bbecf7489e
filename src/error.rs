//! Coded errors: what a learner's input got wrong, as a stable code
//! (`lesson.size`, `gpt.config.too_many_params`) and named params (`{ name, max, n }`),
//! so that the page can say it in the learner's language (`err.<code>` in the page's
//! string tables, filled by `errorText` in www/js/i18n.js). `Display` is the English
//! template of the code with the params filled in; the page's English must say the same.
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
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// An error of domain `D`: a code of `D`'s tables and its named params.
#[derive(Clone, Debug, PartialEq, Eq)]
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
            return write!(f, "{} {:?}", self.code, self.params);
        };
        while let Some(open) = rest.find('{') {
            f.write_str(&rest[..open])?;
            let after = &rest[open + 1..];
            let close = after.find('}');
            match close.and_then(|c| self.param(&after[..c]).map(|p| (c, p))) {
                Some((c, p)) => {
                    p.fmt(f)?;
                    rest = &after[c + 1..];
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

/// Every template names its params in lower-case ASCII and `_` (what `errorText`
/// fills): the check each domain's tests run on its tables.
pub fn simple_params(table: Messages) -> Result<(), String> {
    for (code, text) in table {
        for part in text.split('{').skip(1) {
            let name = part.split('}').next().unwrap_or("");
            if !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') || name.is_empty() {
                return Err(format!("{code}: {{{name}}}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
