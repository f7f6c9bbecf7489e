//! Shared helpers for the native tests: fixtures, a seeded RNG, comparisons.
#![allow(dead_code)]

use attention_playground::tensor::Matrix;
use serde_json::Value;

/// Loads `tests/fixtures/NAME` (NumPy-made; each file describes itself).
pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A JSON 2-D array as a Matrix; `null` (NumPy's −∞ dumped) becomes −∞.
pub fn matrix(v: &Value) -> Matrix {
    let rows: Vec<Vec<f64>> = v
        .as_array()
        .expect("2-D array")
        .iter()
        .map(|r| {
            r.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_f64().unwrap_or(f64::NEG_INFINITY))
                .collect()
        })
        .collect();
    Matrix::from_rows(&rows).expect("rectangular")
}

/// Asserts max |a − b| ≤ tol (−∞ must meet −∞), printing the first differing cells.
pub fn assert_close(what: &str, got: &Matrix, want: &Matrix, tol: f64) {
    assert_eq!(
        (got.rows, got.cols),
        (want.rows, want.cols),
        "{what}: shape differs"
    );
    let mut bad = Vec::new();
    for r in 0..got.rows {
        for c in 0..got.cols {
            let (g, w) = (got.get(r, c), want.get(r, c));
            let ok = if w.is_infinite() {
                g == w
            } else {
                (g - w).abs() <= tol
            };
            if !ok {
                bad.push(format!(
                    "({r},{c}): got {g:e} want {w:e} diff {:e}",
                    (g - w).abs()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{what}: {} cells differ beyond {tol:e}; first: {}",
        bad.len(),
        bad.iter().take(4).cloned().collect::<Vec<_>>().join("; ")
    );
}

/// A small deterministic generator (SplitMix64) so tests need no crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn matrix(&mut self, rows: usize, cols: usize, scale: f64) -> Matrix {
        Matrix::from_fn(rows, cols, |_, _| self.uniform() * scale)
    }
}
