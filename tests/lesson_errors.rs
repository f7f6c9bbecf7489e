//! Every error the lesson hands the page (`LessonError`, and the `ShapeError`s it passes
//! on) has a stable code and named params (for the page's string tables, `err.<code>`) and
//! says in English exactly what it said before codes existed: the errors are made here
//! from real inputs and compared with their full text. The page's English is generated
//! from these tables (tools/error-tables.mjs), which, with tests/page/i18n-tables.test.mjs,
//! holds the Chinese of www/js/i18n/errors-lesson.js to them.

use attention_playground::attention::{cross_forward, head_forward, hou_defaults, HeadWeights};
use attention_playground::error::simple_params;
use attention_playground::explain::explain_batch;
use attention_playground::lesson::answers::{check_answer, parse_numbers, quiz_order};
use attention_playground::lesson::backward::head_grads;
use attention_playground::lesson::bigram::{param_counts, training_examples, Bigram};
use attention_playground::lesson::content::letters;
use attention_playground::lesson::error::{LessonError, Param, MESSAGES, NUMBER_MESSAGES};
use attention_playground::lesson::exercise::{MaskLine, ScoreLine, SoftmaxAxis};
use attention_playground::lesson::head_experiments::{bias_effect, output_terms, score_two_ways};
use attention_playground::lesson::ladder::{
    keepdim_trap, ladder, masked_softmax_steps, normalize_by_sum, normalize_directions,
};
use attention_playground::lesson::multihead::multihead_inputs;
use attention_playground::lesson::position::{embed, sinusoidal};
use attention_playground::lesson::practice::{shift_values, weighted_output};
use attention_playground::lesson::proofs::future_change;
use attention_playground::lesson::scaling::{softmax_sharpening, variance_experiment};
use attention_playground::lesson::{check_finite, check_matrix};
use attention_playground::tensor::{Mask, Matrix, ShapeError, SHAPE_MESSAGES};
use std::collections::BTreeSet;

fn check(e: LessonError, code: &str, english: &str) {
    assert_eq!(e.to_string(), english);
    assert_eq!(e.0, english, "the English text field");
    assert_eq!(e.code(), code, "{english}");
}

fn check_shape(e: ShapeError, code: &str, english: &str) {
    assert_eq!(e.to_string(), english);
    assert_eq!(e.code(), code, "{english}");
}

fn m(rows: &[&[f64]]) -> Matrix {
    Matrix::from_rows(rows).unwrap()
}

#[test]
fn shape_errors_say_what_they_said() {
    check_shape(
        Matrix::from_vec(2, 2, vec![1.0]).unwrap_err(),
        "shape.matrix.len",
        "a 2×2 matrix needs 4 numbers, got 1",
    );
    check_shape(
        Matrix::from_rows(&[vec![1.0, 2.0], vec![3.0]]).unwrap_err(),
        "shape.matrix.ragged",
        "row 1 has 1 numbers but row 0 has 2",
    );
    let (_, x, w) = hou_defaults();
    let e = |w: HeadWeights| head_forward(&x, &w, true, true).unwrap_err();
    check_shape(
        e(HeadWeights {
            w_q: Matrix::zeros(2, 4),
            ..w.clone()
        }),
        "shape.head.weight_cols",
        "W_q has 4 columns but x has 3 channels (nn.Linear layout is (d, C))",
    );
    check_shape(
        e(HeadWeights {
            w_v: Matrix::zeros(0, 3),
            ..w.clone()
        }),
        "shape.head.weight_rows",
        "W_v has no rows: head size must be ≥ 1",
    );
    check_shape(
        e(HeadWeights {
            w_k: Matrix::zeros(1, 3),
            ..w.clone()
        }),
        "shape.head.head_size",
        "W_q has 2 rows but W_k has 1: q and k need the same head size",
    );
    let x_kv = Matrix::zeros(5, 2);
    check_shape(
        cross_forward(&x, &x_kv, &w, &Mask::none(3, 5), true).unwrap_err(),
        "shape.head.channels",
        "queries have 3 channels but keys/values have 2",
    );
    check_shape(
        cross_forward(&x, &x, &w, &Mask::none(3, 5), true).unwrap_err(),
        "shape.head.mask",
        "the mask is 3×5 but scores are 3×3",
    );
}

#[test]
fn checks_and_answers_say_what_they_said() {
    check(
        check_matrix("x", &Matrix::zeros(0, 3)).unwrap_err(),
        "lesson.matrix.size",
        "x must have between 1 and 64 rows and columns, got 0×3",
    );
    check(
        check_finite("b_q", &[1.0, f64::NAN]).unwrap_err(),
        "lesson.not_finite",
        "b_q: entry 1 is not a finite number",
    );
    check(
        parse_numbers(" , ").unwrap_err(),
        "lesson.answer.empty",
        "type your answer: a number, or several separated by commas",
    );
    check(
        parse_numbers(&vec!["1"; 65].join(", ")).unwrap_err(),
        "lesson.size.numbers",
        "the number of numbers must be between 1 and 64, got 65",
    );
    check(
        parse_numbers("1, abc").unwrap_err(),
        "number.not_a_number",
        "“abc” is not a number: type digits such as 2, -0.5, 1e-3 or 1/3",
    );
    let e = check_answer("no-such-question", "1").unwrap_err();
    assert!(e
        .to_string()
        .starts_with("unknown question “no-such-question”: one of "));
    assert_eq!(e.code(), "lesson.answer.unknown_question");
    check(
        quiz_order(17, 0).unwrap_err(),
        "lesson.size.options",
        "the number of options must be between 1 and 16, got 17",
    );
    check(
        letters("hoz").unwrap_err(),
        "lesson.content.no_vector",
        "'z' has no vector here: use h, o, u and y",
    );
    check(
        letters("").unwrap_err(),
        "lesson.content.word",
        "type a word of 1 to 16 letters from h, o, u, y",
    );
}

#[test]
fn head_errors_say_what_they_said() {
    let (_, x, w) = hou_defaults();
    let bad = HeadWeights {
        w_k: Matrix::zeros(1, 3),
        ..w.clone()
    };
    check(
        score_two_ways(&x, &bad, 0, 0).unwrap_err(),
        "shape.head.head_size",
        "W_q has 2 rows but W_k has 1: q and k need the same head size",
    );
    check(
        score_two_ways(&x, &w, 3, 0).unwrap_err(),
        "lesson.head.pair_range",
        "x has 3 rows: receiver and source must be 0..2",
    );
    let trace = head_forward(&x, &w, true, true).unwrap();
    check(
        output_terms(&trace, 5).unwrap_err(),
        "lesson.head.receiver_range",
        "there are 3 receivers: pick 0..2",
    );
    check(
        bias_effect(&x, &w, &[1.0], &[1.0, 2.0], true, true).unwrap_err(),
        "lesson.head.bias_len",
        "b_q and b_k need 2 numbers each (the head size), got 1 and 2",
    );
    let huge = HeadWeights {
        w_q: w.w_q.scale(1e300),
        w_k: w.w_k.scale(1e300),
        w_v: w.w_v.clone(),
    };
    let overflow = head_forward(&x, &huge, false, false).unwrap();
    check(
        output_terms(&overflow, 0).unwrap_err(),
        "lesson.head.score_overflow",
        "a score overflowed: use smaller weights or inputs",
    );
    check(
        head_grads(&x, &huge, false, false, &Matrix::zeros(3, 2)).unwrap_err(),
        "lesson.head.score_overflow",
        "a score overflowed: use smaller weights or inputs",
    );
    check(
        head_grads(&x, &w, true, true, &Matrix::zeros(2, 2)).unwrap_err(),
        "lesson.backward.dout_shape",
        "dout must have the shape of out, 3×2, got 2×2",
    );
    check(
        attention_playground::lesson::head_experiments::value_change(
            &x, &huge, &w.w_v, false, false,
        )
        .unwrap_err(),
        "lesson.head.overflow",
        "the numbers grew too large to compute (a score overflowed): use smaller weights or inputs",
    );
}

#[test]
fn ladder_errors_say_what_they_said() {
    check(
        ladder(&Matrix::zeros(65, 1)).unwrap_err(),
        "lesson.matrix.size",
        "x must have between 1 and 64 rows and columns, got 65×1",
    );
    check(
        normalize_by_sum(&[]).unwrap_err(),
        "lesson.size.scores",
        "the number of scores must be between 1 and 64, got 0",
    );
    check(
        masked_softmax_steps(&[1.0, 2.0], &[true]).unwrap_err(),
        "lesson.ladder.flags",
        "give one allowed/masked flag per score: 2 scores but 1 flags",
    );
    check(
        normalize_directions(&m(&[&[1.0, f64::INFINITY]])).unwrap_err(),
        "lesson.the_matrix.not_finite",
        "the matrix: entry 1 is not a finite number",
    );
    check(
        keepdim_trap(&Matrix::zeros(1, 65)).unwrap_err(),
        "lesson.the_matrix.size",
        "the matrix must have between 1 and 64 rows and columns, got 1×65",
    );
    check(
        keepdim_trap(&m(&[&[1.0, 2.0, 3.0]])).unwrap_err(),
        "lesson.ladder.trap_square",
        "the trap needs a square matrix: a (1,) vector only broadcasts against (1, 3) when 1 = 3 \
         (otherwise NumPy and PyTorch raise an error)",
    );
    check(
        keepdim_trap(&m(&[&[1.0, 2.0], &[1.0, -1.0]])).unwrap_err(),
        "lesson.ladder.zero_row",
        "row 1 sums to 0: dividing by it is a division by zero",
    );
}

#[test]
fn scaling_and_practice_errors_say_what_they_said() {
    check(
        variance_experiment(1, &[], 10).unwrap_err(),
        "lesson.size.dimensions",
        "the number of dimensions must be between 1 and 8, got 0",
    );
    check(
        variance_experiment(1, &[4], 1).unwrap_err(),
        "lesson.scaling.samples",
        "n must be between 2 and 200000 samples, got 1",
    );
    check(
        variance_experiment(1, &[5000], 10).unwrap_err(),
        "lesson.size.each_d",
        "each d must be between 1 and 4096, got 5000",
    );
    check(
        variance_experiment(1, &[4096; 8], 200_000).unwrap_err(),
        "lesson.scaling.too_much_work",
        "n · Σd = 6553600000 products is too much work for one click (limit 25000000): lower n",
    );
    check(
        softmax_sharpening(&[1.0, 2.0], &[]).unwrap_err(),
        "lesson.size.factors",
        "the number of factors must be between 1 and 16, got 0",
    );
    check(
        softmax_sharpening(&[1e308, 2.0], &[2.0]).unwrap_err(),
        "lesson.scaling.overflow",
        "scores × 2 overflow: use smaller numbers",
    );
    check(
        weighted_output(&[1.0, 2.0], &[1.0]).unwrap_err(),
        "lesson.practice.values",
        "give one value per score: 2 scores, 1 values",
    );
    check(
        shift_values(1, 4, 4, 2e6).unwrap_err(),
        "lesson.practice.c_range",
        "keep c between -1000000 and 1000000",
    );
    check(
        shift_values(1, 0, 4, 1.0).unwrap_err(),
        "lesson.size",
        "T must be between 1 and 16, got 0",
    );
    check(
        multihead_inputs(1, [2, 9, 4, 4]).unwrap_err(),
        "lesson.size",
        "H must be between 1 and 8, got 9",
    );
}

#[test]
fn word_and_other_errors_say_what_they_said() {
    check(
        MaskLine::parse("sideways").unwrap_err(),
        "lesson.exercise.mask",
        "mask “sideways”: choose upper, lower, none or diagonal",
    );
    check(
        ScoreLine::parse("x").unwrap_err(),
        "lesson.exercise.score_line",
        "score line “x”: choose scaled, unscaled or dk",
    );
    check(
        SoftmaxAxis::parse("0").unwrap_err(),
        "lesson.exercise.axis",
        "softmax axis “0”: choose last (-1) or receivers (-2)",
    );
    check(
        embed("dox", true).unwrap_err(),
        "lesson.position.not_in_table",
        "'x' is not in the toy table: use only the letters d, o, g and s",
    );
    check(
        embed("dogsdogsd", true).unwrap_err(),
        "lesson.size.word_length",
        "the word length must be between 1 and 8, got 9",
    );
    check(
        sinusoidal(3, 65).unwrap_err(),
        "lesson.size",
        "C must be between 1 and 64, got 65",
    );
    check(
        future_change(1, 4, 2, 4).unwrap_err(),
        "lesson.proofs.from_range",
        "the first changed position must be between 1 and 3 (T − 1) so that earlier positions exist",
    );
    let cell = attention_playground::explain::Cell {
        kind: attention_playground::explain::Kind::Out,
        row: 0,
        col: 0,
    };
    check(
        explain_batch((1, 4, 3, 2), false, 2, cell, 8).unwrap_err(),
        "lesson.notes.no_sequence",
        "sequence 2 does not exist: the batch has two, 0 and 1",
    );
    let far = attention_playground::explain::Cell { row: 9, ..cell };
    check(
        explain_batch((1, 4, 3, 2), false, 0, far, 8).unwrap_err(),
        "lesson.explain",
        "out is 4×2: there is no cell (9, 0)",
    );
}

#[test]
fn bigram_errors_say_what_they_said() {
    check(
        Bigram::from_corpus("a").unwrap_err(),
        "lesson.bigram.corpus_len",
        "the corpus needs 2 to 10000000 characters to count pairs, got 1",
    );
    let wide: String = (0..1100u32)
        .map(|i| char::from_u32(0x4e00 + i).unwrap())
        .collect();
    check(
        Bigram::from_corpus(&wide).unwrap_err(),
        "lesson.bigram.vocab",
        "the corpus has 1100 distinct characters; the bigram table would be 1100×1100: \
         use a text with at most 1024",
    );
    check(
        Bigram::from_table(b"APBG").unwrap_err(),
        "lesson.bigram.table",
        "the bigram table (data/bigram.bin) is damaged or from another version: build the site again",
    );
    let model = Bigram::from_corpus("abcab").unwrap();
    check(
        model.encode("abz").unwrap_err(),
        "lesson.bigram.not_in_vocab",
        "the character 'z' (U+007A) is not in the corpus vocabulary of 3 characters: \
         remove it or type another word",
    );
    check(
        model.compare(&[], 3).unwrap_err(),
        "lesson.bigram.words",
        "give between 1 and 16 words",
    );
    check(
        model.compare(&[String::new()], 3).unwrap_err(),
        "lesson.bigram.word_len",
        "each word needs 1 to 64 characters, “” has 0",
    );
    check(
        param_counts(0, 4).unwrap_err(),
        "lesson.size.vocab_size",
        "vocab size must be between 1 and 100000, got 0",
    );
    check(
        param_counts(4, 100_001).unwrap_err(),
        "lesson.size",
        "n_embd must be between 1 and 100000, got 100001",
    );
    check(
        training_examples("a").unwrap_err(),
        "lesson.bigram.chunk",
        "a chunk needs 2 to 65 characters (block_size + 1), got 1",
    );
}

#[test]
fn codes_are_unique_and_simple() {
    let ours: Vec<&(&str, &str)> = MESSAGES.iter().chain(SHAPE_MESSAGES).collect();
    let mut seen = BTreeSet::new();
    for (code, _) in &ours {
        assert!(
            code.starts_with("lesson.") || code.starts_with("shape."),
            "{code}"
        );
        assert!(seen.insert(*code), "{code} twice");
    }
    for (code, _) in attention_playground::gpt::error::MESSAGES
        .iter()
        .chain(NUMBER_MESSAGES)
    {
        assert!(seen.insert(code), "{code} is also a gpt or number code");
    }
    for table in [MESSAGES, SHAPE_MESSAGES, NUMBER_MESSAGES] {
        assert_eq!(simple_params(table), Ok(()));
    }
}

/// The number parser's messages, passed on by the lesson, are the parser's own text
/// (`NUMBER_MESSAGES`, whence the page's English) for every kind of bad number.
#[test]
fn number_codes_are_the_parsers() {
    use attention_playground::parse::NumberError;
    let all = [
        NumberError::Empty,
        NumberError::NotANumber("abc".into()),
        NumberError::NotFinite("1e400".into()),
        NumberError::DivisionByZero,
    ];
    assert_eq!(all.len(), NUMBER_MESSAGES.len());
    for e in all {
        let english = NUMBER_MESSAGES
            .iter()
            .find(|(c, _)| *c == e.code())
            .unwrap()
            .1;
        let filled = english.replace("{text}", e.text().unwrap_or(""));
        assert_eq!(filled, e.to_string());
        if let Some(text) = e.text() {
            let passed = parse_numbers(text).unwrap_err();
            assert_eq!(passed.to_string(), e.to_string(), "{text}");
            assert_eq!(passed.code(), e.code(), "{text}");
            assert_eq!(passed.params(), &[("text", Param::Text(text.into()))]);
        }
    }
    check(
        parse_numbers("1/0").unwrap_err(),
        "number.division_by_zero",
        "a fraction cannot have 0 below the line",
    );
}

/// Every code the sources name has English text, and every code of the tables is
/// used somewhere (a code no error can carry is a string nobody needs to translate).
#[test]
fn every_code_the_core_uses_is_in_the_table() {
    let known: BTreeSet<&str> = MESSAGES.iter().chain(SHAPE_MESSAGES).map(|e| e.0).collect();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut files = vec![format!("{root}/tensor.rs")];
    for dir in ["lesson", "attention", "explain", "wasm", "wasm/lesson"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                files.push(path.display().to_string());
            }
        }
    }
    let mut used = BTreeSet::new();
    for path in files {
        let mut src = std::fs::read_to_string(&path).unwrap();
        // The tables name every code once; a use is anywhere else.
        for table in ["pub const MESSAGES", "pub const SHAPE_MESSAGES"] {
            if let Some(start) = src.find(table) {
                let end = start + src[start..].find("\n];").unwrap();
                src.replace_range(start..end, "");
            }
        }
        let code_lines = src.lines().filter(|l| !l.trim_start().starts_with("//"));
        for line in code_lines {
            for prefix in ["\"lesson.", "\"shape."] {
                for (i, _) in line.match_indices(prefix) {
                    let code = &line[i + 1..i + 1 + line[i + 1..].find('"').unwrap()];
                    assert!(known.contains(code), "{path}: {code} has no English text");
                    used.insert(code.to_string());
                }
            }
        }
    }
    let unused: Vec<&&str> = known.iter().filter(|c| !used.contains(**c)).collect();
    assert!(unused.is_empty(), "codes nothing uses: {unused:?}");
}
