//! Where the numbers live: a `Matrix`, or a window into a flat f32/f64 buffer
//! (a GPT head's slice of the (B, T, 3C) qkv activations or of a (3C, C) weight).

use super::error::shape_error;
use super::ExplainError;
use crate::tensor::Matrix;

/// Read access to a (rows, cols) block of numbers, as f64.
pub trait Grid {
    /// (rows, cols).
    fn shape(&self) -> (usize, usize);
    /// Element (r, c); callers keep r < rows and c < cols.
    fn at(&self, r: usize, c: usize) -> f64;
}

impl Grid for Matrix {
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.get(r, c)
    }
}

/// A (rows, cols) window of a flat buffer: element (r, c) is
/// `data[offset + r * row_stride + c]`.
#[derive(Clone, Copy, Debug)]
pub struct Strided<'a, T> {
    data: &'a [T],
    offset: usize,
    rows: usize,
    cols: usize,
    row_stride: usize,
}

impl<'a, T: Copy + Into<f64>> Strided<'a, T> {
    /// Errors unless every element of the window lies inside `data`.
    pub fn new(
        data: &'a [T],
        offset: usize,
        rows: usize,
        cols: usize,
        row_stride: usize,
    ) -> Result<Self, ExplainError> {
        let end = match rows {
            0 => Some(offset),
            _ => (rows - 1)
                .checked_mul(row_stride)
                .and_then(|e| e.checked_add(offset))
                .and_then(|e| e.checked_add(cols)),
        };
        if (rows > 1 && cols > row_stride) || end.is_none_or(|e| e > data.len()) {
            return Err(shape_error!(
                "explain.shape.window",
                rows = rows,
                cols = cols,
                offset = offset,
                stride = row_stride,
                len = data.len()
            ));
        }
        Ok(Strided {
            data,
            offset,
            rows,
            cols,
            row_stride,
        })
    }
}

impl<T: Copy + Into<f64>> Grid for Strided<'_, T> {
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.data[self.offset + r * self.row_stride + c].into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_windows_read_the_right_elements_and_refuse_overruns() {
        // (T=2, 3C=6) buffer, C = 2: the k block is columns 2..4.
        let qkv: Vec<f32> = (0..12).map(|i| i as f32).collect();
        let k = Strided::new(&qkv, 2, 2, 2, 6).unwrap();
        assert_eq!(k.shape(), (2, 2));
        assert_eq!((k.at(0, 0), k.at(1, 1)), (2.0, 9.0));
        assert!(Strided::new(&qkv, 10, 2, 2, 6).is_err());
        assert!(Strided::new(&qkv, 0, 2, 7, 6).is_err());
        assert!(Strided::new(&qkv, 0, 1, 12, 12).is_ok());
    }
}
