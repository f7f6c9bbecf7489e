//! The page's error tables (`www/js/i18n/*.js`, `'err.<code>': '…'` lines) held to the
//! core's `MESSAGES`: the English word for word, the Chinese in Chinese with the same
//! params, and no code the core does not have.

use std::collections::{BTreeSet, HashMap};

/// The placeholders `{name}` of a template.
pub fn placeholders(s: &str) -> BTreeSet<String> {
    s.split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

/// `'err.<code>': '…'` entries of one language's block (JS string literals in single or
/// double quotes, `\'` and `\"` escapes), keyed by `<code>`.
pub fn js_table(block: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for line in block.lines() {
        let Some(rest) = line.trim().strip_prefix("'err.") else {
            continue;
        };
        let (key, rest) = rest.split_once("': ").expect("key: value");
        let quote = rest.chars().next().unwrap();
        let mut value = String::new();
        let mut chars = rest[1..].chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.push(chars.next().unwrap()),
                c if c == quote => break,
                c => value.push(c),
            }
        }
        out.insert(key.to_string(), value);
    }
    out
}

/// `file` (below the repository) has an English block, then a Chinese one from the first
/// `zh_marker` on: every code of `messages` is in both, the English equal to the core's,
/// the Chinese in Chinese with the same params; every code there is in `seen`.
pub fn check_page_table(
    file: &str,
    zh_marker: &str,
    messages: &[(&str, &str)],
    seen: &BTreeSet<&str>,
) {
    let js = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let zh_at = js.find(zh_marker).expect("a zh block");
    let (en, zh) = (js_table(&js[..zh_at]), js_table(&js[zh_at..]));
    for (code, english) in messages {
        assert_eq!(
            en.get(*code).map(String::as_str),
            Some(*english),
            "en {code}"
        );
        let chinese = zh.get(*code).unwrap_or_else(|| panic!("zh {code} missing"));
        assert!(
            chinese
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "zh {code} is not Chinese: {chinese}"
        );
        assert_eq!(placeholders(chinese), placeholders(english), "zh {code}");
    }
    for code in en.keys().chain(zh.keys()) {
        assert!(
            seen.contains(code.as_str()),
            "{code} is in {file} but not the core"
        );
    }
}
