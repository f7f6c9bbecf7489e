//! `LessonError`: what a learner's input to a demonstration got wrong, as a stable
//! code and named params (`crate::error`), so that the page says it in the learner's
//! language (`err.<code>`: the English generated from `MESSAGES`, the Chinese in
//! www/js/i18n/errors-lesson.js). The lesson passes on the shape errors of
//! `tensor`/`attention` and the number parser's errors with their own codes, so its
//! domain lists those tables too.

use std::fmt;

use crate::error::{Coded, Domain, Messages};
use crate::parse::NumberError;
use crate::tensor::{ShapeError, SHAPE_MESSAGES};

/// Every lesson code and its English text; `{name}` is a param.
pub const MESSAGES: Messages = &[
    // mod.rs: sizes, matrices and lists a learner chose
    ("lesson.size", "{name} must be between 1 and {max}, got {n}"),
    ("lesson.size.numbers", "the number of numbers must be between 1 and {max}, got {n}"),
    ("lesson.size.options", "the number of options must be between 1 and {max}, got {n}"),
    ("lesson.size.dimensions", "the number of dimensions must be between 1 and {max}, got {n}"),
    ("lesson.size.each_d", "each d must be between 1 and {max}, got {n}"),
    ("lesson.size.scores", "the number of scores must be between 1 and {max}, got {n}"),
    ("lesson.size.factors", "the number of factors must be between 1 and {max}, got {n}"),
    ("lesson.size.rows", "rows must be between 1 and {max}, got {n}"),
    ("lesson.size.keys", "keys must be between 1 and {max}, got {n}"),
    ("lesson.size.word_length", "the word length must be between 1 and {max}, got {n}"),
    ("lesson.size.vocab_size", "vocab size must be between 1 and {max}, got {n}"),
    ("lesson.matrix.size", "{name} must have between 1 and {max} rows and columns, got {rows}×{cols}"),
    ("lesson.the_matrix.size", "the matrix must have between 1 and {max} rows and columns, got {rows}×{cols}"),
    ("lesson.not_finite", "{name}: entry {i} is not a finite number"),
    ("lesson.the_matrix.not_finite", "the matrix: entry {i} is not a finite number"),
    // one head (head_experiments.rs, backward.rs, mod.rs)
    ("lesson.head.overflow", "the numbers grew too large to compute (a score overflowed): use smaller weights or inputs"),
    ("lesson.head.score_overflow", "a score overflowed: use smaller weights or inputs"),
    ("lesson.head.pair_range", "x has {rows} rows: receiver and source must be 0..{last}"),
    ("lesson.head.receiver_range", "there are {n} receivers: pick 0..{last}"),
    ("lesson.head.bias_len", "b_q and b_k need {d} numbers each (the head size), got {q} and {k}"),
    ("lesson.backward.dout_shape", "dout must have the shape of out, {rows}×{cols}, got {dout_rows}×{dout_cols}"),
    // answers.rs
    ("lesson.answer.empty", "type your answer: a number, or several separated by commas"),
    ("lesson.answer.unknown_question", "unknown question “{id}”: one of {ids}"),
    // content.rs, position.rs: words typed into a toy table
    ("lesson.content.no_vector", "{char} has no vector here: use h, o, u and y"),
    ("lesson.content.word", "type a word of 1 to 16 letters from h, o, u, y"),
    ("lesson.position.not_in_table", "{char} is not in the toy table: use only the letters d, o, g and s"),
    // scaling.rs
    ("lesson.scaling.samples", "n must be between 2 and 200000 samples, got {n}"),
    ("lesson.scaling.too_much_work", "n · Σd = {work} products is too much work for one click (limit {limit}): lower n"),
    ("lesson.scaling.overflow", "scores × {factor} overflow: use smaller numbers"),
    // ladder.rs
    ("lesson.ladder.flags", "give one allowed/masked flag per score: {scores} scores but {flags} flags"),
    ("lesson.ladder.trap_square", "the trap needs a square matrix: a ({rows},) vector only broadcasts against ({rows}, {cols}) when {rows} = {cols} (otherwise NumPy and PyTorch raise an error)"),
    ("lesson.ladder.zero_row", "row {row} sums to 0: dividing by it is a division by zero"),
    // practice.rs
    ("lesson.practice.values", "give one value per score: {scores} scores, {values} values"),
    ("lesson.practice.overflow", "the scores overflow: use smaller numbers"),
    ("lesson.practice.c_range", "keep c between -1000000 and 1000000"),
    // exercise.rs: the three choices of the exercise
    ("lesson.exercise.score_line", "score line “{choice}”: choose scaled, unscaled or dk"),
    ("lesson.exercise.mask", "mask “{choice}”: choose upper, lower, none or diagonal"),
    ("lesson.exercise.axis", "softmax axis “{choice}”: choose last (-1) or receivers (-2)"),
    // notes.rs, proofs.rs (and explain/lesson.rs, which explains note 3's batch)
    ("lesson.notes.no_sequence", "sequence {seq} does not exist: the batch has two, 0 and 1"),
    // wasm/: what the page hands the boundary (checked again there, whatever the page checked)
    ("lesson.input.rows", "{name} must have between 1 and {max} rows, got {rows}×{cols}"),
    ("lesson.input.cols", "{name} must have between 1 and {max} columns, got {rows}×{cols}"),
    ("lesson.input.not_finite", "{name}: entry {i} (row {row}, column {col}) is not a finite number"),
    ("lesson.input.shape", "{name}: {reason}"),
    ("lesson.input.malformed", "{what}: {detail}"),
    ("lesson.input.unknown_matrix", "unknown matrix “{name}”: use x, W_q, W_k or W_v"),
    ("lesson.input.no_cell", "{name} is {rows}×{cols}: there is no cell ({row}, {col})"),
    ("lesson.input.trace_no_v", "explainTrace: this trace has no v, so its outputs cannot be explained"),
    ("lesson.input.trace_scale", "explainTrace: scale must be a positive number, got {value}"),
    ("lesson.input.wrong_axis", "explainWrongAxis: “{which}”: use right or wrong"),
    // The explanation's own English until explanations carry codes.
    ("lesson.explain", "{detail}"),
    ("lesson.proofs.from_range", "the first changed position must be between 1 and {max} (T − 1) so that earlier positions exist"),
    // bigram.rs
    ("lesson.bigram.corpus_len", "the corpus needs 2 to {max} characters to count pairs, got {n}"),
    ("lesson.bigram.vocab", "the corpus has {v} distinct characters; the bigram table would be {v}×{v}: use a text with at most {max}"),
    ("lesson.bigram.not_in_vocab", "the character {char} (U+{hex}) is not in the corpus vocabulary of {n} characters: remove it or type another word"),
    ("lesson.bigram.words", "give between 1 and {max} words"),
    ("lesson.bigram.word_len", "each word needs 1 to {max} characters, “{word}” has {n}"),
    ("lesson.bigram.chunk", "a chunk needs 2 to {max} characters (block_size + 1), got {n}"),
    ("lesson.bigram.table", "the bigram table (data/bigram.bin) is damaged or from another version: build the site again"),
];

/// The number parser's codes (`NumberError::code`) and its English, which the page says
/// from `err.number.*` (generated; the Chinese in www/js/i18n/errors-number.js);
/// tests/lesson_errors.rs holds each equal to `NumberError`'s `Display`.
pub const NUMBER_MESSAGES: Messages = &[
    (
        "number.empty",
        "empty cell: type a number such as 0, -1.5 or 1/3",
    ),
    (
        "number.not_a_number",
        "“{text}” is not a number: type digits such as 2, -0.5, 1e-3 or 1/3",
    ),
    (
        "number.not_finite",
        "“{text}” is too large (or not finite): use a value between -1e300 and 1e300",
    ),
    (
        "number.division_by_zero",
        "a fraction cannot have 0 below the line",
    ),
];

/// The lesson's domain: its own codes and those it passes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson;

impl Domain for Lesson {
    const TABLES: &'static [Messages] = &[MESSAGES, SHAPE_MESSAGES, NUMBER_MESSAGES];
}

/// A param of a lesson error.
pub type Param = crate::error::Param<Lesson>;

/// Learner input that cannot be used. `e.code()` and `e.params()` let the page say
/// it in any language; `Display` (and `.0`, kept for callers that hand the English
/// on as it is) is the English text.
#[derive(Clone, PartialEq, Eq)]
pub struct LessonError(pub String, Coded<Lesson>);

/// `Coded`'s (a derived Debug would quote `.0` with `<str as Debug>`).
impl std::fmt::Debug for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.1, f)
    }
}

impl LessonError {
    /// An error `code` (one of `Lesson::TABLES`) with its params.
    pub fn new(code: &'static str, params: Vec<(&'static str, Param)>) -> LessonError {
        LessonError::from(Coded::new(code, params))
    }

    /// The stable name of the page's string `err.<code>`.
    pub fn code(&self) -> &'static str {
        self.1.code()
    }

    /// The named params, in the order given.
    pub fn params(&self) -> &[(&'static str, Param)] {
        self.1.params()
    }

    /// The code and params as the crate's one coded error type.
    pub fn coded(&self) -> &Coded<Lesson> {
        &self.1
    }
}

impl From<Coded<Lesson>> for LessonError {
    fn from(e: Coded<Lesson>) -> LessonError {
        LessonError(e.to_string(), e)
    }
}

impl From<ShapeError> for LessonError {
    fn from(e: ShapeError) -> LessonError {
        LessonError::from(e.into_domain::<Lesson>())
    }
}

impl From<NumberError> for LessonError {
    fn from(e: NumberError) -> LessonError {
        let params = e.text().map(|t| ("text", Param::from(t))).into_iter();
        LessonError::new(e.code(), params.collect())
    }
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LessonError {}

/// `LessonError::new("lesson.some.code", params)`, params as in `crate::error::coded!`.
macro_rules! lesson_error {
    ($($arg:tt)*) => {
        $crate::error::coded!($crate::lesson::LessonError, $($arg)*)
    };
}
pub(crate) use lesson_error;

/// `Err(lesson_error!(..))`: the value of a failing branch.
macro_rules! fail {
    ($($arg:tt)*) => { Err($crate::lesson::error::lesson_error!($($arg)*)) };
}
pub(crate) use fail;
