//! Serializing any return value without failing the call: what serde_json refuses or would
//! silently lose gets a faithful stand-in, and a value that can't be written at all becomes an
//! `output_error` output that names its type and where it broke, never a panic.
//!
//! Every value goes through [`SafeSer`], a thin wrapper around serde_json's serializer:
//!
//! - `NaN`, `inf` and `-inf` become the strings `"NaN"`, `"Infinity"` and `"-Infinity"`.
//!   serde_json writes them as `null`, which reads as "no value": the string keeps what the
//!   value was, in the spelling JavaScript and Python use for these floats.
//! - Bytes (`serialize_bytes`: `bytes::Bytes`, `serde_bytes::ByteBuf`) become a standard
//!   base64 string: a third of the size of serde_json's array of numbers, and what JSON APIs
//!   use for bytes. A plain `Vec<u8>` is a sequence to serde, indistinguishable from small
//!   numbers, so it stays an array.
//!
//! The first attempt streams straight into the output text, as `serde_json::to_string` does.
//! Only if it fails (a map key serde_json won't write, a `Serialize` impl returning an error)
//! does a second, careful pass run: it buffers each map to choose its shape (an object when
//! every key is a string, number or bool, else an array of `[key, value]` pairs, which keeps
//! a struct or tuple key's structure) and tracks the JSON pointer of what it is writing, so a
//! failure says where it happened. A panic in a `Serialize` impl is caught in either pass.

use super::{JsonOutput, ToolOutput};
use crate::error::{ErrorCode, ToolError};
use serde::ser::{
    self, Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant,
    SerializeTuple, SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use serde_json::value::RawValue;
use std::any::Any;
use std::cell::RefCell;
use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Serializes any value into a JSON output, never failing the call.
///
/// Non-finite floats become `"NaN"`, `"Infinity"` or `"-Infinity"`; bytes become base64; a
/// map with keys JSON can't hold (tuples, structs, `Option`) becomes an array of
/// `[key, value]` pairs. A `Serialize` impl that returns an error or panics gives an
/// [`ErrorCode::OutputError`] output naming the value's type and the JSON pointer where it
/// failed.
///
/// ```
/// use std::collections::BTreeMap;
/// use tool_runtime::output::safe_serialize;
///
/// let out = safe_serialize(&[1.5, f64::NAN, f64::INFINITY]);
/// assert_eq!(out.to_model_text(), r#"[1.5,"NaN","Infinity"]"#);
///
/// let grid = BTreeMap::from([((0, 1), "a")]);
/// assert_eq!(safe_serialize(&grid).to_model_text(), r#"[[[0,1],"a"]]"#);
/// ```
pub fn safe_serialize<T: Serialize + ?Sized>(value: &T) -> ToolOutput {
    match to_json(value) {
        Ok(text) => ToolOutput::Json(JsonOutput::new(text)),
        Err(failure) => ToolOutput::from(failure.error(std::any::type_name::<T>())),
    }
}

/// The JSON text of a value: the fast pass, then the careful one if the fast one failed.
#[inline]
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, Failure> {
    // The passes, the panics they may raise and the failure they report are the same for
    // every type: only the write is generic, so a tool's result type is compiled into one
    // write, not into one for each of the three places below that catch a panic.
    passes(&|cx: &Cx| write(value, cx))
}

/// One serialization pass.
type Pass<'a> = dyn Fn(&Cx) -> Result<String, serde_json::Error> + 'a;

/// [`to_json`]'s passes over one write.
fn passes(write: &Pass<'_>) -> Result<String, Failure> {
    let fast = Cx::new(false);
    match catch_unwind(AssertUnwindSafe(|| write(&fast))) {
        Ok(Ok(text)) => return Ok(text),
        Ok(Err(_)) => {}
        Err(payload) => {
            // Run again only to find where: the careful pass tracks the pointer the fast one
            // doesn't. The first panic's message is the one reported, and a value that doesn't
            // panic twice is still refused (what it wrote may differ from the first run).
            let careful = Cx::new(true);
            let again = catch_unwind(AssertUnwindSafe(|| write(&careful)));
            let path = if again.is_err() {
                careful.pointer()
            } else {
                String::new()
            };
            return Err(Failure::panicked(payload.as_ref(), path));
        }
    }
    let careful = Cx::new(true);
    match catch_unwind(AssertUnwindSafe(|| write(&careful))) {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(error)) => Err(Failure {
            reason: error.to_string(),
            path: careful.failed_at(),
            panicked: false,
        }),
        Err(payload) => Err(Failure::panicked(payload.as_ref(), careful.pointer())),
    }
}

/// Why a value couldn't be serialized, and where.
#[derive(Debug)]
pub(crate) struct Failure {
    reason: String,
    /// The JSON pointer of the value that failed; empty for the whole value or when unknown.
    path: String,
    panicked: bool,
}

impl Failure {
    fn panicked(payload: &(dyn Any + Send), path: String) -> Failure {
        let reason = if let Some(text) = payload.downcast_ref::<&str>() {
            (*text).to_owned()
        } else if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else {
            "a panic with no message".to_owned()
        };
        Failure {
            reason,
            path,
            panicked: true,
        }
    }

    /// The error output's error, naming the type that failed.
    pub(crate) fn error(&self, type_name: &str) -> ToolError {
        let at = if self.path.is_empty() {
            String::new()
        } else {
            format!(" at {}", self.path)
        };
        let how = if self.panicked {
            "its Serialize impl panicked"
        } else {
            "its Serialize impl failed"
        };
        ToolError::with_code(
            ErrorCode::OutputError,
            format!(
                "The tool's result (type `{type_name}`) could not be serialized{at}: {how}: {}",
                self.reason
            ),
        )
    }
}

fn write<T: Serialize + ?Sized>(value: &T, cx: &Cx) -> Result<String, serde_json::Error> {
    // `to_string` knows its own output is UTF-8: no second pass to check it.
    serde_json::to_string(&Safe { value, cx })
}

/// What one serialization knows: whether it is the careful pass, and in that pass where it is.
struct Cx {
    careful: bool,
    path: RefCell<Vec<Segment>>,
    failed_at: RefCell<Option<String>>,
}

enum Segment {
    Field(&'static str),
    Index(usize),
    Key(String),
}

impl Cx {
    #[inline]
    fn new(careful: bool) -> Cx {
        Cx {
            careful,
            path: RefCell::new(Vec::new()),
            failed_at: RefCell::new(None),
        }
    }

    /// In the careful pass, steps into a variant's fields (serde_json writes them under
    /// `{"Variant": ...}`) until [`leave`](Self::leave).
    fn enter(&self, variant: &'static str) {
        if self.careful {
            self.path.borrow_mut().push(Segment::Field(variant));
        }
    }

    /// Steps back out of what [`enter`](Self::enter) stepped into.
    fn leave(&self) {
        if self.careful {
            self.path.borrow_mut().pop();
        }
    }

    /// Runs `f` one step deeper; in the careful pass, remembers where the first failure was.
    #[inline]
    fn visit<R, E>(
        &self,
        segment: impl FnOnce() -> Segment,
        f: impl FnOnce() -> Result<R, E>,
    ) -> Result<R, E> {
        if !self.careful {
            return f();
        }
        self.path.borrow_mut().push(segment());
        let result = f();
        if result.is_err() && self.failed_at.borrow().is_none() {
            *self.failed_at.borrow_mut() = Some(self.pointer());
        }
        self.path.borrow_mut().pop();
        result
    }

    /// The current position as a JSON pointer (RFC 6901).
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for segment in self.path.borrow().iter() {
            pointer.push('/');
            let text = match segment {
                Segment::Field(name) => (*name).to_owned(),
                Segment::Index(i) => i.to_string(),
                Segment::Key(key) => key.clone(),
            };
            pointer.push_str(&text.replace('~', "~0").replace('/', "~1"));
        }
        pointer
    }

    fn failed_at(&self) -> String {
        self.failed_at.borrow().clone().unwrap_or_default()
    }
}

/// A value to serialize through [`SafeSer`].
struct Safe<'a, T: ?Sized> {
    value: &'a T,
    cx: &'a Cx,
}

impl<T: Serialize + ?Sized> Serialize for Safe<'_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(SafeSer {
            inner: serializer,
            cx: self.cx,
        })
    }
}

/// A serializer that forwards to `inner`, changing only what JSON can't hold as it is.
struct SafeSer<'a, S> {
    inner: S,
    cx: &'a Cx,
}

/// The stand-in for a float JSON has no number for.
fn non_finite(value: f64) -> &'static str {
    if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            #[inline]
            fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
                self.inner.$method($($arg),*)
            }
        )*
    };
}

impl<'a, S: Serializer> Serializer for SafeSer<'a, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<'a, S::SerializeSeq>;
    type SerializeTuple = Compound<'a, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<'a, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<'a, S::SerializeTupleVariant>;
    type SerializeMap = Map<'a, S>;
    type SerializeStruct = Compound<'a, S::SerializeStruct>;
    type SerializeStructVariant = Compound<'a, S::SerializeStructVariant>;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            self.inner.serialize_f32(v)
        } else {
            self.inner.serialize_str(non_finite(v.into()))
        }
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            self.inner.serialize_f64(v)
        } else {
            self.inner.serialize_str(non_finite(v))
        }
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        self.inner.serialize_str(&base64(v))
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.serialize_some(&Safe { value, cx: self.cx })
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner
            .serialize_newtype_struct(name, &Safe { value, cx: self.cx })
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let cx = self.cx;
        let inner = self.inner;
        cx.visit(
            || Segment::Field(variant),
            || inner.serialize_newtype_variant(name, index, variant, &Safe { value, cx }),
        )
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Ok(Compound::new(self.inner.serialize_seq(len)?, self.cx))
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        Ok(Compound::new(self.inner.serialize_tuple(len)?, self.cx))
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Ok(Compound::new(
            self.inner.serialize_tuple_struct(name, len)?,
            self.cx,
        ))
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let inner = self
            .inner
            .serialize_tuple_variant(name, index, variant, len)?;
        self.cx.enter(variant);
        Ok(Compound::new(inner, self.cx))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Map<'a, S>, S::Error> {
        if self.cx.careful {
            Ok(Map::Buffer {
                serializer: self.inner,
                entries: Vec::with_capacity(len.unwrap_or(0).min(1024)),
                key: None,
                cx: self.cx,
            })
        } else {
            Ok(Map::Stream(Compound::new(
                self.inner.serialize_map(len)?,
                self.cx,
            )))
        }
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Ok(Compound::new(
            self.inner.serialize_struct(name, len)?,
            self.cx,
        ))
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let inner = self
            .inner
            .serialize_struct_variant(name, index, variant, len)?;
        self.cx.enter(variant);
        Ok(Compound::new(inner, self.cx))
    }

    #[inline]
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.collect_str(value)
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// A sequence, tuple or struct being written: each element goes through [`SafeSer`] too.
struct Compound<'a, C> {
    inner: C,
    cx: &'a Cx,
    index: usize,
}

impl<'a, C> Compound<'a, C> {
    #[inline]
    fn new(inner: C, cx: &'a Cx) -> Self {
        Compound {
            inner,
            cx,
            index: 0,
        }
    }

    #[inline]
    fn next_index(&mut self) -> usize {
        self.index += 1;
        self.index - 1
    }
}

/// `$variant` for a variant's fields, whose `end` leaves the segment its start entered.
macro_rules! positional {
    ($trait:ident, $method:ident $(, $variant:ident)?) => {
        impl<C: $trait> $trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                let (cx, i) = (self.cx, self.next_index());
                let inner = &mut self.inner;
                cx.visit(|| Segment::Index(i), || inner.$method(&Safe { value, cx }))
            }

            #[inline]
            fn end(self) -> Result<C::Ok, C::Error> {
                $(let $variant = self.cx;)?
                let end = self.inner.end();
                $($variant.leave();)?
                end
            }
        }
    };
}

positional!(SerializeSeq, serialize_element);
positional!(SerializeTuple, serialize_element);
positional!(SerializeTupleStruct, serialize_field);
positional!(SerializeTupleVariant, serialize_field, variant);

macro_rules! named_fields {
    ($trait:ident $(, $variant:ident)?) => {
        impl<C: $trait> $trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            #[inline]
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), C::Error> {
                let cx = self.cx;
                let inner = &mut self.inner;
                cx.visit(
                    || Segment::Field(key),
                    || inner.serialize_field(key, &Safe { value, cx }),
                )
            }

            #[inline]
            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.inner.skip_field(key)
            }

            #[inline]
            fn end(self) -> Result<C::Ok, C::Error> {
                $(let $variant = self.cx;)?
                let end = self.inner.end();
                $($variant.leave();)?
                end
            }
        }
    };
}

named_fields!(SerializeStruct);
named_fields!(SerializeStructVariant, variant);

/// A map being written: streamed in the fast pass; in the careful pass buffered as JSON
/// text, entry by entry, until its keys say which shape it takes.
enum Map<'a, S: Serializer> {
    Stream(Compound<'a, S::SerializeMap>),
    Buffer {
        serializer: S,
        entries: Vec<(String, String)>,
        key: Option<String>,
        cx: &'a Cx,
    },
}

impl<S: Serializer> SerializeMap for Map<'_, S> {
    type Ok = S::Ok;
    type Error = S::Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        match self {
            Map::Stream(map) => map.inner.serialize_key(&Safe {
                value: key,
                cx: map.cx,
            }),
            Map::Buffer { key: slot, cx, .. } => {
                *slot = Some(write(key, cx).map_err(ser::Error::custom)?);
                Ok(())
            }
        }
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        match self {
            Map::Stream(map) => map.inner.serialize_value(&Safe { value, cx: map.cx }),
            Map::Buffer {
                entries, key, cx, ..
            } => {
                let key = key.take().unwrap_or_else(|| "null".to_owned());
                let segment = || Segment::Key(key_string(&key).unwrap_or_else(|| key.clone()));
                let text = cx
                    .visit(segment, || write(value, cx))
                    .map_err(ser::Error::custom)?;
                entries.push((key, text));
                Ok(())
            }
        }
    }

    #[inline]
    fn end(self) -> Result<S::Ok, S::Error> {
        match self {
            Map::Stream(map) => map.inner.end(),
            Map::Buffer {
                serializer,
                entries,
                ..
            } => {
                let keys: Option<Vec<String>> =
                    entries.iter().map(|(key, _)| key_string(key)).collect();
                match keys {
                    Some(keys) => {
                        let mut map = serializer.serialize_map(Some(entries.len()))?;
                        for (key, (_, value)) in keys.iter().zip(&entries) {
                            map.serialize_entry(key, &raw::<S::Error>(value)?)?;
                        }
                        map.end()
                    }
                    None => {
                        let mut pairs = serializer.serialize_seq(Some(entries.len()))?;
                        for (key, value) in &entries {
                            pairs.serialize_element(&(raw::<S::Error>(key)?, raw(value)?))?;
                        }
                        pairs.end()
                    }
                }
            }
        }
    }
}

/// A key's JSON text as an object key: a string as it is; a number or bool as its text, as
/// serde_json writes such keys; anything else can't be one.
fn key_string(json: &str) -> Option<String> {
    match json.as_bytes().first()? {
        b'"' => serde_json::from_str(json).ok(),
        b'-' | b'0'..=b'9' | b't' | b'f' if json != "null" => Some(json.to_owned()),
        _ => None,
    }
}

fn raw<E: ser::Error>(json: &str) -> Result<Box<RawValue>, E> {
    RawValue::from_string(json.to_owned()).map_err(E::custom)
}

/// Standard base64 with padding (RFC 4648 §4).
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;
    use std::collections::{BTreeMap, HashMap};

    fn json_of<T: Serialize + ?Sized>(value: &T) -> serde_json::Value {
        match safe_serialize(value) {
            ToolOutput::Json(json) => json.to_value(),
            other => panic!("expected JSON, got {other:?}"),
        }
    }

    fn error_of<T: Serialize + ?Sized>(value: &T) -> ToolError {
        safe_serialize(value).as_error().cloned().expect("an error")
    }

    #[test]
    fn plain_values_match_serde_json() {
        #[derive(Serialize)]
        struct Row<'a> {
            name: &'a str,
            tags: Vec<&'a str>,
            score: Option<f32>,
            nested: BTreeMap<u8, bool>,
            big: u128,
        }
        let row = Row {
            name: "a \"quoted\" name",
            tags: vec!["x", "y"],
            score: Some(0.5),
            nested: BTreeMap::from([(1, true), (2, false)]),
            big: u128::MAX,
        };
        let text = to_json(&row).unwrap();
        assert_eq!(text, serde_json::to_string(&row).unwrap());
    }

    #[test]
    fn non_finite_floats_become_named_strings() {
        assert_eq!(
            json_of(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.5]),
            json!(["NaN", "Infinity", "-Infinity", 1.5])
        );
        assert_eq!(
            json_of(&(f32::NAN, f32::INFINITY)),
            json!(["NaN", "Infinity"])
        );
        #[derive(Serialize)]
        struct Stats {
            mean: f64,
            min: Option<f64>,
        }
        let stats = Stats {
            mean: f64::NAN,
            min: Some(f64::NEG_INFINITY),
        };
        assert_eq!(json_of(&stats), json!({"mean": "NaN", "min": "-Infinity"}));
        // As map keys too (serde_json refuses those outright).
        let keys = BTreeMap::from([(1, f64::NAN)]);
        assert_eq!(json_of(&keys), json!({"1": "NaN"}));
    }

    #[test]
    fn maps_with_structured_keys_become_pairs() {
        let grid: BTreeMap<(i32, i32), &str> = BTreeMap::from([((0, 0), "origin"), ((1, 2), "x")]);
        assert_eq!(json_of(&grid), json!([[[0, 0], "origin"], [[1, 2], "x"]]));
        #[derive(Serialize, PartialEq, Eq, Hash)]
        struct Point {
            x: i32,
        }
        let by_struct = HashMap::from([(Point { x: 3 }, vec![1])]);
        assert_eq!(json_of(&by_struct), json!([[{"x": 3}, [1]]]));
        let by_vec = HashMap::from([(vec![1u8], 1)]);
        assert_eq!(json_of(&by_vec), json!([[[1], 1]]));
        let by_option = BTreeMap::from([(None, 1), (Some("a"), 2)]);
        assert_eq!(json_of(&by_option), json!([[null, 1], ["a", 2]]));
    }

    #[test]
    fn keys_json_accepts_stay_an_object_in_the_careful_pass() {
        // A failure elsewhere sends the whole value through the careful pass; maps whose keys
        // serde_json accepts must come out as they would have.
        #[derive(Serialize)]
        struct Mixed {
            ints: BTreeMap<i64, &'static str>,
            floats: BTreeMap<u8, f64>,
            bools: BTreeMap<bool, u8>,
            chars: BTreeMap<char, u8>,
            broken: BTreeMap<(u8, u8), u8>,
        }
        let value = Mixed {
            ints: BTreeMap::from([(-1, "a"), (2, "b")]),
            floats: BTreeMap::from([(1, 0.25)]),
            bools: BTreeMap::from([(true, 1)]),
            chars: BTreeMap::from([('c', 1)]),
            broken: BTreeMap::from([((1, 2), 3)]),
        };
        assert_eq!(
            json_of(&value),
            json!({
                "ints": {"-1": "a", "2": "b"},
                "floats": {"1": 0.25},
                "bools": {"true": 1},
                "chars": {"c": 1},
                "broken": [[[1, 2], 3]],
            })
        );
    }

    #[test]
    fn bytes_become_base64_and_vec_u8_stays_an_array() {
        struct Raw(&'static [u8]);
        impl Serialize for Raw {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        assert_eq!(json_of(&Raw(b"hello")), json!("aGVsbG8="));
        assert_eq!(json_of(&Raw(b"")), json!(""));
        assert_eq!(json_of(&Raw(b"ab")), json!("YWI="));
        assert_eq!(json_of(&Raw(&[0xff, 0xfe, 0x00])), json!("//4A"));
        assert_eq!(json_of(&vec![104u8, 105]), json!([104, 105]));
    }

    struct Failing;
    impl Serialize for Failing {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(ser::Error::custom("the connection is closed"))
        }
    }

    struct Panicking;
    impl Serialize for Panicking {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            panic!("lazy value was never loaded")
        }
    }

    #[derive(Serialize)]
    struct Report<T> {
        rows: Vec<BTreeMap<&'static str, T>>,
    }

    #[test]
    fn a_failing_impl_is_an_error_naming_the_type_and_the_place() {
        let report = Report {
            rows: vec![BTreeMap::new(), BTreeMap::from([("when", Failing)])],
        };
        let error = error_of(&report);
        assert_eq!(error.code, ErrorCode::OutputError);
        assert!(error.message.contains("Report<"), "{}", error.message);
        assert!(
            error.message.contains("at /rows/1/when"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("the connection is closed"),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_panicking_impl_is_an_error_not_a_panic() {
        let report = Report {
            rows: vec![BTreeMap::from([("lazy", Panicking)])],
        };
        let error = error_of(&report);
        assert_eq!(error.code, ErrorCode::OutputError);
        assert!(error.message.contains("panicked"), "{}", error.message);
        assert!(
            error.message.contains("lazy value was never loaded"),
            "{}",
            error.message
        );
        assert!(error.message.contains("Report<"), "{}", error.message);
    }

    #[test]
    fn pointers_escape_slashes_and_tildes() {
        let map = BTreeMap::from([("a/b~c", Failing)]);
        assert!(error_of(&map).message.contains("at /a~1b~0c:"));
    }

    #[test]
    fn raw_values_and_tool_outputs_nest() {
        let nested = vec![ToolOutput::json(&json!({"a": [1]})), ToolOutput::text("t")];
        // Through the careful pass as well: the unserializable key forces it.
        let with_bad_key = (BTreeMap::from([((1, 1), 1)]), &nested);
        assert_eq!(
            json_of(&with_bad_key),
            json!([
                [[[1, 1], 1]],
                [{"kind": "json", "json": {"a": [1]}}, {"kind": "text", "text": "t"}]
            ])
        );
    }
}
