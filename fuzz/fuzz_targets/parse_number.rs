//! A typed cell: `parse_number` returns a finite number within ±1e300 or an Err with a
//! message, never panics; a number it accepts reads back from its own formatting.
#![no_main]

use attention_playground::parse::parse_number;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match parse_number(text) {
        Ok(v) => {
            assert!(v.is_finite() && v.abs() <= 1e300, "{text:?} -> {v}");
            assert_eq!(parse_number(&format!("{v:e}")), Ok(v), "{text:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
