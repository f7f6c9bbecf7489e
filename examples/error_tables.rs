//! error_tables: every error code of the core and its English template, as JSON on stdout,
//! by table: `{ "lesson": [[code, english], …], "shape": …, "number": …, "explain": …,
//! "gpt": … }`, each table in its own order. tools/error-tables.mjs writes the page's
//! English error tables (www/js/i18n/*.gen.js) from it at build time, so the English is
//! written once, here in the core.
//!
//!   cargo run --quiet --example error_tables
//!
//! An example, not a bin: `cargo test` builds every example with the same features
//! (dev-dependencies unified), so the build step and the tests share one native build.

use attention_playground::error::Messages;
use attention_playground::{explain, gpt, lesson, tensor};
use serde_json::{Map, Value};

fn main() {
    let tables: [(&str, Messages); 5] = [
        ("lesson", lesson::error::MESSAGES),
        ("shape", tensor::SHAPE_MESSAGES),
        ("number", lesson::error::NUMBER_MESSAGES),
        ("explain", explain::MESSAGES),
        ("gpt", gpt::error::MESSAGES),
    ];
    let json: Map<String, Value> = tables
        .iter()
        .map(|(name, table)| {
            let pairs = table
                .iter()
                .map(|(code, english)| Value::Array(vec![(*code).into(), (*english).into()]));
            (name.to_string(), Value::Array(pairs.collect()))
        })
        .collect();
    println!("{}", Value::Object(json));
}
