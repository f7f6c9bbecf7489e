//! §4 Position: attention is a weighted sum, and a sum ignores order. Without
//! position embeddings and without a mask, permuting the input permutes the
//! output (`dogs` and `gods` show their last position the same set
//! {d, o, g, s}); adding a learned position row per index breaks the tie.
//!
//! T = time (≤ BLOCK_SIZE), C = 2 channels in the toy, d = 2 head size.
//! The toy token table is the lesson's d = [1, 0], g = [2, 1] plus our choice
//! o = [0, 1], s = [1, 2]; the position table is pos_t = [0.1·(t + 1), 0],
//! which gives the lesson's pos0 = [0.1, 0] and pos2 = [0.3, 0].

use serde::Serialize;

use super::{
    check_count, check_size, clean_trace, fail, max_abs_diff, LessonError, TraceView, MAX_SIDE,
};
use crate::attention::{head_forward, HeadWeights};
use crate::tensor::Matrix;

/// Rows in the learned position table (GPT-2's `wpe` has block_size rows).
pub const BLOCK_SIZE: usize = 8;

/// The toy token embedding, C = 2: d, o, g, s.
pub fn token_vector(c: char) -> Option<[f64; 2]> {
    match c {
        'd' => Some([1.0, 0.0]),
        'g' => Some([2.0, 1.0]),
        'o' => Some([0.0, 1.0]),
        's' => Some([1.0, 2.0]),
        _ => None,
    }
}

/// pos_t = [0.1·(t + 1), 0] for t < BLOCK_SIZE.
pub fn position_vector(t: usize) -> [f64; 2] {
    [0.1 * (t + 1) as f64, 0.0]
}

/// The toy head (nn.Linear layout (d, C)): W_q = [[1,0],[1,1]], W_k = [[1,1],[0,1]], W_v = I,
/// so each output is a weighted average of the embedded inputs themselves.
pub fn toy_head() -> HeadWeights {
    HeadWeights {
        w_q: Matrix::from_rows(&[[1.0, 0.0], [1.0, 1.0]]).unwrap(),
        w_k: Matrix::from_rows(&[[1.0, 1.0], [0.0, 1.0]]).unwrap(),
        w_v: Matrix::identity(2),
    }
}

/// word (T,) -> x (T, 2): x[t] = tok[word[t]] (+ pos_t when `positions`).
pub fn embed(word: &str, positions: bool) -> Result<Matrix, LessonError> {
    let chars: Vec<char> = word.chars().collect();
    check_count("lesson.size.word_length", chars.len(), BLOCK_SIZE)?;
    let mut x = Matrix::zeros(chars.len(), 2);
    for (t, &c) in chars.iter().enumerate() {
        let Some(tok) = token_vector(c) else {
            return fail!(
                "lesson.position.not_in_table",
                char = crate::error::quoted(c)
            );
        };
        let pos = if positions {
            position_vector(t)
        } else {
            [0.0, 0.0]
        };
        x.row_mut(t)
            .copy_from_slice(&[tok[0] + pos[0], tok[1] + pos[1]]);
    }
    Ok(x)
}

/// One word through the toy head.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderRun {
    pub word: String,
    /// (T, 2) embedded input.
    pub x: Matrix,
    pub trace: TraceView,
}

/// Two words (usually anagrams) through the same head.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderComparison {
    pub a: OrderRun,
    pub b: OrderRun,
    /// `perm` with b[i] = a[perm[i]] when b is an anagram of a, else null.
    pub permutation: Option<Vec<usize>>,
    /// max_i |out_b[i] − out_a[perm[i]]|: ≈ 0 without mask and positions.
    pub equivariance_max_err: Option<f64>,
    /// max |out_a[T−1] − out_b[T−1]|: the last positions see the same set.
    pub last_row_max_diff: f64,
}

/// Runs both words; `positions` adds pos_t, `causal` masks s > t.
pub fn compare_orders(
    a: &str,
    b: &str,
    positions: bool,
    causal: bool,
) -> Result<OrderComparison, LessonError> {
    let w = toy_head();
    let run = |word: &str| -> Result<OrderRun, LessonError> {
        let x = embed(word, positions)?;
        let trace = head_forward(&x, &w, causal, true).expect("toy shapes fit");
        Ok(OrderRun {
            word: word.to_string(),
            trace: clean_trace(trace)?,
            x,
        })
    };
    let (ra, rb) = (run(a)?, run(b)?);
    let permutation = anagram_permutation(a, b);
    let equivariance_max_err = permutation.as_ref().map(|p| {
        let out_a = &ra.trace.out;
        let permuted = Matrix::from_fn(out_a.rows, out_a.cols, |i, c| out_a.get(p[i], c));
        permuted.max_abs_diff(&rb.trace.out)
    });
    let (oa, ob) = (&ra.trace.out, &rb.trace.out);
    let last_row_max_diff = max_abs_diff(oa.row(oa.rows - 1), ob.row(ob.rows - 1));
    Ok(OrderComparison {
        a: ra,
        b: rb,
        permutation,
        equivariance_max_err,
        last_row_max_diff,
    })
}

/// perm with b[i] = a[perm[i]] (repeated letters matched in order), or None.
pub fn anagram_permutation(a: &str, b: &str) -> Option<Vec<usize>> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() != b.len() {
        return None;
    }
    let mut used = vec![false; a.len()];
    b.iter()
        .map(|c| {
            let j = (0..a.len()).find(|&j| !used[j] && a[j] == *c)?;
            used[j] = true;
            Some(j)
        })
        .collect()
}

/// (T, C) the original Transformer's fixed table: PE[t][2i] = sin(t / 10000^(2i/C)),
/// PE[t][2i+1] = cos(t / 10000^(2i/C)). T, C in 1..=64.
pub fn sinusoidal(t_len: usize, c: usize) -> Result<Matrix, LessonError> {
    check_size("T", t_len, MAX_SIDE)?;
    check_size("C", c, MAX_SIDE)?;
    Ok(Matrix::from_fn(t_len, c, |t, j| {
        let i2 = (j - j % 2) as f64;
        let angle = t as f64 / 10000f64.powf(i2 / c as f64);
        if j % 2 == 0 {
            angle.sin()
        } else {
            angle.cos()
        }
    }))
}

/// `idx[:, -block_size:]`: generation keeps positions start..len, start = len − block_size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Crop {
    pub start: usize,
    pub kept: usize,
    pub dropped: usize,
}

/// len tokens, a table of block_size rows -> the window generation feeds the model.
pub fn crop_context(len: usize, block_size: usize) -> Crop {
    let kept = len.min(block_size);
    Crop {
        start: len - kept,
        kept,
        dropped: len - kept,
    }
}
