//! The lesson's export tables (`exports!` in src/wasm/lesson/) write each export's docs as
//! `#[doc = "…"]`: a `///` comment inside the macro reaches `#[wasm_bindgen]` as a raw
//! string, and wasm-bindgen would put `r"` before each line of the export's JSDoc in the
//! .d.ts. Read as text, natively: the wasm module is not built here.

use std::fs;
use std::path::Path;

#[test]
fn export_tables_have_no_doc_comments() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/wasm/lesson");
    let mut tables = 0;
    for entry in fs::read_dir(&dir).expect("src/wasm/lesson") {
        let path = entry.expect("a directory entry").path();
        let text = fs::read_to_string(&path).expect("a source file");
        let mut inside = false;
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("exports! {") {
                inside = true;
                tables += 1;
            } else if line == "}" {
                inside = false;
            } else if inside {
                assert!(
                    !line.trim_start().starts_with("///"),
                    "{}:{}: a `///` comment inside `exports!`; write `#[doc = \"…\"]`",
                    path.display(),
                    i + 1
                );
            }
        }
    }
    assert!(tables >= 6, "found {tables} export tables");
}
