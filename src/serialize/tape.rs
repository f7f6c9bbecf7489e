//! The tape: a value as tokens, written by serde (see the module's head,
//! src/serialize/mod.rs); build.rs walks them into JS (or, in tests, JSON) values.

use serde::ser::{self, Serialize};
use std::fmt;

use super::{F32S, F64S};

/// One token of a value: a scalar, or the start or end of an array or object. An
/// object's tokens alternate key (`Str` or `Name`) and value.
pub(crate) enum Tok {
    Num(f64),
    Bool(bool),
    Null,
    Str(String),
    /// A field, variant or key name the program itself holds.
    Name(&'static str),
    Arr,
    Obj,
    End,
    /// A run of numbers written through `F64s`: one typed array of f64.
    F64s(Vec<f64>),
    /// A run written through `F32s`: one typed array of f32.
    F32s(Vec<f32>),
}

/// Why a value could not be written (no value of the core's gets one: an integer
/// beyond 2^53, a map key that is not a string, bytes).
pub(crate) struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

// By hand: a derived Debug would quote the message with `<str as Debug>::fmt`.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

fn fail(what: &str) -> Error {
    Error(what.to_string())
}

/// `value` as tokens.
pub(crate) fn tape<T: Serialize + ?Sized>(value: &T) -> Result<Vec<Tok>, Error> {
    let mut t = Tape {
        toks: Vec::new(),
        run: None,
    };
    value.serialize(&mut t)?;
    Ok(t.toks)
}

pub(crate) struct Tape {
    toks: Vec<Tok>,
    /// The numbers of the run (`F64s`, `F32s`) being written: they take no tokens.
    run: Option<Vec<f64>>,
}

impl Tape {
    fn put(&mut self, t: Tok) -> Result<(), Error> {
        self.toks.push(t);
        Ok(())
    }

    /// A number: a token, or the next number of the run being written.
    fn num(&mut self, x: f64) -> Result<(), Error> {
        match &mut self.run {
            Some(run) => run.push(x),
            None => self.toks.push(Tok::Num(x)),
        }
        Ok(())
    }

    /// Opens `{ variant: …` for a variant with data.
    fn variant(&mut self, variant: &'static str) {
        self.toks.push(Tok::Obj);
        self.toks.push(Tok::Name(variant));
    }

    /// Opens an array or object (`open`), inside `{ variant: …` for a variant.
    fn open(&mut self, variant: Option<&'static str>, open: Tok) -> Compound<'_> {
        if let Some(v) = variant {
            self.variant(v);
        }
        self.toks.push(open);
        let ends = 1 + u8::from(variant.is_some());
        Compound { t: self, ends }
    }

    /// Opens an array; a run's own sequence takes no token.
    #[inline(never)]
    fn seq(&mut self) -> Compound<'_> {
        if self.run.is_some() {
            return Compound { t: self, ends: 0 };
        }
        self.open(None, Tok::Arr)
    }

    fn int(&mut self, v: f64) -> Result<(), Error> {
        const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
        if v.abs() > MAX_SAFE {
            return Err(fail("an integer beyond 2^53 cannot be a JavaScript number"));
        }
        self.num(v)
    }

    /// Ends the run of numbers just `written` (`F32s` when `f32`) as one token.
    fn end_run(&mut self, f32: bool, written: Result<(), Error>) -> Result<(), Error> {
        let run = self.run.take().unwrap_or_default();
        written?;
        self.toks.push(if f32 {
            Tok::F32s(run.iter().map(|&x| x as f32).collect()) // each came from an f32: exact
        } else {
            Tok::F64s(run)
        });
        Ok(())
    }

    /// A map key must have written one string token from `from` on.
    fn check_key(&self, from: usize) -> Result<(), Error> {
        match &self.toks[from..] {
            [Tok::Str(_) | Tok::Name(_)] => Ok(()),
            _ => Err(fail("Map key is not a string and cannot be an object key")),
        }
    }
}

/// An array or object being written; `ends` tokens close it (2 in a variant).
pub(crate) struct Compound<'a> {
    t: &'a mut Tape,
    ends: u8,
}

impl Compound<'_> {
    fn end(self) -> Result<(), Error> {
        for _ in 0..self.ends {
            self.t.toks.push(Tok::End);
        }
        Ok(())
    }
}

/// The numbers every value of which a JavaScript number holds exactly.
macro_rules! numbers {
    ($($method:ident($t:ty)),*) => {$(
        fn $method(self, v: $t) -> Result<(), Error> {
            self.num(v.into())
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Tape {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.put(Tok::Bool(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.int(v as f64)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.int(v as f64)
    }
    numbers!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_f32(f32),
        serialize_f64(f64)
    );
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.put(Tok::Str(v.into()))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.put(Tok::Str(v.to_owned()))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(fail("bytes are not handed to the page"))
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.put(Tok::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.put(Tok::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.put(Tok::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.put(Tok::Name(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        // F64s and F32s (only they use these names): a flat sequence of numbers, written
        // as one run (one token).
        let run = (name == F64S || name == F32S) && self.run.is_none();
        if run {
            self.run = Some(Vec::new());
        }
        let written = value.serialize(&mut *self);
        if run {
            return self.end_run(name == F32S, written);
        }
        written
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant(variant);
        value.serialize(&mut *self)?;
        self.put(Tok::End)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.seq())
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(None)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        Ok(self.open(Some(variant), Tok::Arr))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open(None, Tok::Obj))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        Ok(self.open(Some(variant), Tok::Obj))
    }
}

/// The compounds whose items are values.
macro_rules! items {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                v.serialize(&mut *self.t)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}
items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The compounds whose items are named fields.
macro_rules! fields {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Error> {
                self.t.toks.push(Tok::Name(key));
                v.serialize(&mut *self.t)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}
fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let from = self.t.toks.len();
        key.serialize(&mut *self.t)?;
        self.t.check_key(from)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(&mut *self.t)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}
