//! Every `ExplainError` has a stable code and named params and says in English what it
//! said before codes existed. The page's English is generated from `MESSAGES`
//! (tools/error-tables.mjs), which, with tests/page/i18n-tables.test.mjs, holds the Chinese
//! of www/js/i18n/errors-explain.js to it.

use super::*;
use attention_playground::error::simple_params;
use std::collections::BTreeSet;

fn check(e: ExplainError, code: &str, english: &str) {
    assert_eq!(e.to_string(), english);
    assert_eq!(e.code(), code, "{english}");
}

#[test]
fn errors_say_what_they_said_with_a_code() {
    check(
        Kind::parse("bogus").unwrap_err(),
        "explain.unknown_kind",
        "unknown matrix “bogus”: use q, k, v, scores, masked_scores, weights or out",
    );
    check(
        Scheme::parse("fast").unwrap_err(),
        "explain.unknown_scheme",
        "unknown scheme “fast”: use loop, matrix or softmax",
    );
    let (x, w, _) = hou();
    let e = try_explain_hou(false, Kind::Weight, 3, 0).unwrap_err();
    check(
        e.clone(),
        "explain.out_of_range",
        "weights is 3×3: there is no cell (3, 0)",
    );
    assert_eq!(
        e.params(),
        [
            ("matrix", "weights"),
            ("rows", "3"),
            ("cols", "3"),
            ("row", "3"),
            ("col", "0")
        ]
        .map(|(k, v)| (k, v.to_string()))
    );
    check(
        explain_compat(&x, &w, Cell::new(Kind::Out, 0, 0), 8).unwrap_err(),
        "explain.not_here.probe",
        "the head probe has no out matrix to explain",
    );
    let a = Matrix::from_rows(&[vec![1.0, -1.0], vec![2.0, 2.0]]).unwrap();
    let e = explain_normalize(&a, Cell::new(Kind::ByRows, 0, 0), 8).unwrap_err();
    check(
        e,
        "explain.zero_sum.row",
        "row 0 of A sums to 0: this matrix is not drawn",
    );
    check(
        explain_sinusoid(0, 4, Cell::new(Kind::Pe, 0, 0)).unwrap_err(),
        "explain.shape.size",
        "T must be 1 to 64, got 0",
    );
    check(
        FutureGrid::parse("before").unwrap_err(),
        "explain.unknown_grid",
        "unknown grid “before”: use masked_before, masked_after, unmasked_before or unmasked_after",
    );
    let qkv = [0f32; 12];
    check(
        Strided::new(&qkv, 10, 2, 2, 6).unwrap_err(),
        "explain.shape.window",
        "a 2×2 window at offset 10 with row stride 6 does not fit in 12 numbers",
    );
    // A lesson function's refusal passes through as the lesson's own error.
    let e = explain_future_change(
        0,
        4,
        8,
        0,
        FutureGrid::MaskedAfter,
        Cell::new(Kind::Out, 0, 0),
        8,
    )
    .unwrap_err();
    assert!(matches!(e, ExplainError::Lesson(_)), "{e:?}");
    let ExplainError::Lesson(lesson) = &e else {
        unreachable!()
    };
    assert_eq!(e.code(), lesson.code(), "the lesson's own code");
    assert!(e.code().starts_with("lesson."), "{}", e.code());
    assert_eq!(e.to_string(), lesson.to_string());
}

#[test]
fn codes_are_unique_and_simple() {
    let mut seen = BTreeSet::new();
    for (code, _) in MESSAGES {
        assert!(code.starts_with("explain."), "{code}");
        assert!(seen.insert(*code), "{code} twice");
    }
    assert_eq!(simple_params(MESSAGES), Ok(()));
}
