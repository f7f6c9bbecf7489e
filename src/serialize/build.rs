//! The one walk that builds JS (or, in tests, JSON) values from a tape (tape.rs; see the
//! module's head, src/serialize/mod.rs).

use super::tape::Tok;

/// What `build` makes values with.
pub(crate) trait Build {
    type V;
    fn num(&mut self, x: f64) -> Self::V;
    fn bool(&mut self, b: bool) -> Self::V;
    fn null(&mut self) -> Self::V;
    fn str(&mut self, s: &str) -> Self::V;
    /// A run of numbers (a matrix's data) as one typed array of f64.
    fn f64s(&mut self, xs: &[f64]) -> Self::V;
    /// A run of f32 numbers (a GPT map) as one typed array of f32.
    fn f32s(&mut self, xs: &[f32]) -> Self::V;
    fn array(&mut self) -> Self::V;
    fn push(&mut self, array: &mut Self::V, item: Self::V);
    fn object(&mut self) -> Self::V;
    fn set(&mut self, object: &mut Self::V, key: &str, value: Self::V);
    /// A field the program names (a struct's, a variant's): the same key on every call.
    fn set_name(&mut self, object: &mut Self::V, key: &'static str, value: Self::V) {
        self.set(object, key, value);
    }
}

/// The value `tape` writes.
pub(crate) fn build<B: Build>(tape: &[Tok], b: &mut B) -> B::V {
    let mut at = 0;
    value(tape, &mut at, b)
}

fn value<B: Build>(tape: &[Tok], at: &mut usize, b: &mut B) -> B::V {
    let Some(tok) = tape.get(*at) else {
        return b.null();
    };
    *at += 1;
    match tok {
        Tok::Num(x) => b.num(*x),
        Tok::Bool(v) => b.bool(*v),
        Tok::Null | Tok::End => b.null(),
        Tok::Str(s) => b.str(s),
        Tok::Name(s) => b.str(s),
        Tok::F64s(xs) => b.f64s(xs),
        Tok::F32s(xs) => b.f32s(xs),
        Tok::Arr => {
            let mut a = b.array();
            while !closes(tape, at) {
                let item = value(tape, at, b);
                b.push(&mut a, item);
            }
            a
        }
        Tok::Obj => {
            let mut o = b.object();
            while !closes(tape, at) {
                let key = &tape[*at];
                *at += 1;
                let v = value(tape, at, b);
                match key {
                    Tok::Name(s) => b.set_name(&mut o, s, v),
                    Tok::Str(s) => b.set(&mut o, s, v),
                    _ => b.set(&mut o, "", v),
                }
            }
            o
        }
    }
}

/// Whether the array or object ends at `at` (stepping past its `End`).
fn closes(tape: &[Tok], at: &mut usize) -> bool {
    match tape.get(*at) {
        Some(Tok::End) | None => {
            *at += 1;
            true
        }
        Some(_) => false,
    }
}
