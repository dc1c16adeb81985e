//! JSON for calls: where a value ends, how to close one the text cut off between values, and
//! the one repair that changes no value (raw newlines and bad escapes inside strings). Nothing
//! that needs a guess is repaired here (see [`to_valid`]).

use super::cursor::Need;
use super::error::{Cut, TextErrorKind};
pub(crate) use crate::output::json_text::string_end;
use serde::de::IgnoredAny;
use std::borrow::Cow;

/// How deep the extent scanner follows brackets.
pub(crate) const MAX_DEPTH: usize = 128;

/// Where a JSON value that starts at a `{` or `[` ends.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Extent {
    /// It ends before this byte.
    Closed(usize),
    /// The text ends first.
    Open(Open),
    /// It nests deeper than [`MAX_DEPTH`].
    TooDeep,
}

/// A value the text ends inside: how to close it, when that needs no guessing.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Open {
    /// The text up to here is kept (a trailing comma is dropped).
    keep: usize,
    /// The brackets that close it.
    closers: Vec<u8>,
    /// Where it stops, when closing it would mean guessing a value.
    cut: Option<Cut>,
}

impl Open {
    /// Whether the text ends inside a string.
    pub(super) fn in_string(&self) -> bool {
        self.cut == Some(Cut::InString)
    }

    /// The value closed with its brackets, or where it was cut when that would be a guess.
    pub(super) fn close(&self, text: &str, start: usize) -> Result<String, Cut> {
        if let Some(cut) = self.cut {
            return Err(cut);
        }
        let mut closed = String::with_capacity(self.keep - start + self.closers.len());
        closed.push_str(&text[start..self.keep]);
        closed.extend(self.closers.iter().rev().map(|&b| b as char));
        Ok(closed)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// Just opened.
    First,
    /// A key, after a comma in an object.
    Key,
    /// A colon, after a key.
    Colon,
    /// A value, after a colon or after a comma in an array.
    Value,
    /// A comma or the close, after a value.
    Next,
}

#[derive(Debug)]
struct Frame {
    object: bool,
    want: Want,
    comma: usize,
}

impl Frame {
    /// A string or token ended: it was a key or a value.
    fn took_token(&mut self) {
        self.want = if self.object && matches!(self.want, Want::First | Want::Key) {
            Want::Colon
        } else {
            Want::Next
        };
    }
}

/// [`extent`] of a value a call needs whole: before the end of the text, a value still open
/// waits for its close (`Need::Close`), and one too deep to find its end waits for the end
/// of the message (`Need::Eof`), which is where it runs to; so a stream reads it as the
/// whole text does, however it is split.
pub(crate) fn extent_or_wait(eof: bool, text: &str, start: usize) -> Result<Extent, Need> {
    match extent(text, start) {
        Extent::Open(_) if !eof => Err(Need::Close(start)),
        Extent::TooDeep if !eof => Err(Need::Eof),
        extent => Ok(extent),
    }
}

/// How many `close` markers inside the value's strings [`extent_before`] looks past; each look
/// reads the value again from its start, so this bounds what a call can cost.
const MARKERS_IN_STRINGS: usize = 16;

/// The JSON value at `start` read no further than the first `close` marker that is not inside
/// one of its strings (a call's end marker, so that a brace left out costs that call, never
/// the calls after it): where the text considered ends, and the value's extent there. `None`
/// when no such marker is in the text. Past [`MARKERS_IN_STRINGS`] markers inside strings,
/// the first marker is taken as the end.
pub(crate) fn extent_before(text: &str, start: usize, close: &str) -> Option<(usize, Extent)> {
    let find = |from: usize| {
        memchr::memmem::find(&text.as_bytes()[from..], close.as_bytes()).map(|n| from + n)
    };
    let first = find(start)?;
    let mut marker = first;
    for _ in 0..MARKERS_IN_STRINGS {
        match extent(&text[..marker], start) {
            Extent::Open(open) if open.in_string() => match find(marker + close.len()) {
                Some(next) => marker = next,
                None => return None,
            },
            extent => return Some((marker, extent)),
        }
    }
    Some((first, extent(&text[..first], start)))
}

/// Where the JSON value starting at `text[start]` (a `{` or `[`) ends. Brackets are counted,
/// not matched, and single-quoted strings are known, so broken JSON still gets an extent.
pub(crate) fn extent(text: &str, start: usize) -> Extent {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        let c = bytes[i];
        let Some(top) = stack.last_mut() else {
            // Only at `start`.
            if !matches!(c, b'{' | b'[') {
                return Extent::Closed(start);
            }
            stack.push(Frame {
                object: c == b'{',
                want: Want::First,
                comma: 0,
            });
            i += 1;
            continue;
        };
        match c {
            b'{' | b'[' => {
                top.want = Want::Next;
                if stack.len() >= MAX_DEPTH {
                    return Extent::TooDeep;
                }
                stack.push(Frame {
                    object: c == b'{',
                    want: Want::First,
                    comma: 0,
                });
                i += 1;
            }
            b'}' | b']' => {
                // A closer closes the nearest bracket of its kind (and any left open inside
                // it); one with no bracket of its kind open is a stray, and skipped.
                let object = c == b'}';
                if let Some(frame) = stack.iter().rposition(|f| f.object == object) {
                    stack.truncate(frame);
                }
                i += 1;
                if stack.is_empty() {
                    return Extent::Closed(i);
                }
            }
            b':' => {
                top.want = Want::Value;
                // What follows is not after a comma (see the trailing-comma cut below).
                top.comma = 0;
                i += 1;
            }
            b',' => {
                top.want = if top.object { Want::Key } else { Want::Value };
                top.comma = i;
                i += 1;
            }
            b'"' => match string_end(bytes, i) {
                Some(end) => {
                    top.took_token();
                    i = end;
                }
                None => return open(&stack, bytes.len(), Some(Cut::InString)),
            },
            b'\'' if matches!(top.want, Want::First | Want::Key | Want::Value) => {
                match string_end(bytes, i) {
                    Some(end) => {
                        top.took_token();
                        i = end;
                    }
                    None => return open(&stack, bytes.len(), Some(Cut::InString)),
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let token = i;
                while i < bytes.len() && !ends_token(bytes[i]) {
                    i += 1;
                }
                if i == bytes.len() && !matches!(&bytes[token..], b"true" | b"false" | b"null") {
                    return open(&stack, bytes.len(), Some(Cut::InToken));
                }
                top.took_token();
            }
        }
    }
    let cut = match stack.last() {
        None => {
            return Extent::Open(Open {
                keep: start,
                closers: Vec::new(),
                cut: Some(Cut::InToken),
            })
        }
        Some(top) => match top.want {
            Want::First | Want::Next => None,
            Want::Key => None,
            Want::Colon => Some(Cut::BeforeValue),
            Want::Value if top.object => Some(Cut::BeforeValue),
            Want::Value => None,
        },
    };
    let mut open = match open(&stack, bytes.len(), cut) {
        Extent::Open(open) => open,
        other => return other,
    };
    if let Some(top) = stack.last() {
        // Drop a trailing comma, when there is one: an array waits for a value after a stray
        // `:` too (`[1 :`), with no comma to cut at. Cutting at `comma` 0 there gave a `keep`
        // before `start`, and `Open::close` underflowed into a capacity-overflow panic
        // (found by fuzzing).
        let after_comma = top.comma > start;
        if after_comma
            && (matches!(top.want, Want::Key) || (!top.object && top.want == Want::Value))
        {
            open.keep = top.comma;
        }
    }
    Extent::Open(open)
}

fn open(stack: &[Frame], keep: usize, cut: Option<Cut>) -> Extent {
    Extent::Open(Open {
        keep,
        closers: stack
            .iter()
            .map(|f| if f.object { b'}' } else { b']' })
            .collect(),
        cut,
    })
}

fn ends_token(b: u8) -> bool {
    matches!(b, b',' | b':' | b'{' | b'}' | b'[' | b']' | b'"') || b.is_ascii_whitespace()
}

/// Whether `text` is JSON as it is.
pub(crate) fn is_valid(text: &str) -> bool {
    serde_json::from_str::<IgnoredAny>(text).is_ok()
}

/// `text` as valid JSON: itself when it already is, or with what models leave raw inside
/// strings escaped ([`fix_strings`]: a newline in code, `\d` in a regex), which changes no
/// value. Anything else is an error, never a guess: JSON with a value, a comma or a quote
/// missing can be read more than one way, and a call read the wrong way runs with arguments
/// the model never wrote. Lenient repair is the pipeline's `RepairPolicy::Lenient`, opt-in
/// and recorded.
pub(crate) fn to_valid(text: &str) -> Result<Cow<'_, str>, TextErrorKind> {
    if is_valid(text) {
        return Ok(Cow::Borrowed(text));
    }
    match fix_strings(text) {
        Some(fixed) if is_valid(&fixed) => Ok(Cow::Owned(fixed)),
        _ => Err(TextErrorKind::InvalidJson),
    }
}

/// Escapes what models leave raw in strings: control characters (a newline in code, say) and
/// backslashes before characters JSON doesn't escape (`\d` in a regex). `None` when there was
/// nothing to fix.
pub(crate) fn fix_strings(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if !in_string {
            match memchr::memchr(b'"', &bytes[i..]) {
                Some(n) => {
                    i += n + 1;
                    in_string = true;
                }
                None => break,
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = false;
                i += 1;
            }
            b'\\' => match bytes.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u')
                    if bytes.len() >= i + 6
                        && bytes[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit) =>
                {
                    i += 6
                }
                _ => {
                    out.extend_from_slice(&bytes[copied..i]);
                    out.extend_from_slice(b"\\\\");
                    i += 1;
                    copied = i;
                }
            },
            0x00..=0x1f => {
                out.extend_from_slice(&bytes[copied..i]);
                match b {
                    b'\n' => out.extend_from_slice(b"\\n"),
                    b'\r' => out.extend_from_slice(b"\\r"),
                    b'\t' => out.extend_from_slice(b"\\t"),
                    _ => out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
                }
                i += 1;
                copied = i;
            }
            _ => i += 1,
        }
    }
    if copied == 0 {
        return None;
    }
    out.extend_from_slice(&bytes[copied..]);
    // Only ASCII was inserted, at ASCII positions.
    String::from_utf8(out).ok()
}

/// [`extent`]'s walk made resumable, for a stream: it says only whether the value that opens at
/// `start` has closed (or nests too deep), and each call goes on from where the last stopped,
/// inside a string or a token included. A value arriving in small pieces is then walked once,
/// not again with every piece that holds a closer.
#[derive(Debug)]
pub(crate) struct Closing {
    stack: Vec<Frame>,
    at: usize,
    /// Inside a string opened with this quote.
    string: Option<u8>,
    /// Inside a token (a number, a literal).
    token: bool,
}

impl Closing {
    /// A walk of the value that opens at `start`.
    pub(super) fn new(start: usize) -> Closing {
        Closing {
            stack: Vec::new(),
            at: start,
            string: None,
            token: false,
        }
    }

    /// Walks `text` (the same buffer, grown) from where the last call stopped: whether the
    /// value has closed, or nests past [`MAX_DEPTH`] (either way the caller reads it whole).
    pub(super) fn advance(&mut self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let mut i = self.at;
        while i < bytes.len() {
            if let Some(quote) = self.string {
                match memchr::memchr2(quote, b'\\', &bytes[i..]) {
                    None => {
                        self.at = bytes.len();
                        return false;
                    }
                    Some(n) if bytes[i + n] == b'\\' => {
                        if i + n + 1 >= bytes.len() {
                            // The escaped byte hasn't come: resume at the backslash.
                            self.at = i + n;
                            return false;
                        }
                        i += n + 2;
                    }
                    Some(n) => {
                        self.string = None;
                        if let Some(top) = self.stack.last_mut() {
                            top.took_token();
                        }
                        i += n + 1;
                    }
                }
                continue;
            }
            let c = bytes[i];
            if self.token {
                if ends_token(c) {
                    self.token = false;
                    if let Some(top) = self.stack.last_mut() {
                        top.took_token();
                    }
                } else {
                    i += 1;
                }
                continue;
            }
            let Some(top) = self.stack.last_mut() else {
                if !matches!(c, b'{' | b'[') {
                    return true;
                }
                self.stack.push(Frame {
                    object: c == b'{',
                    want: Want::First,
                    comma: 0,
                });
                i += 1;
                continue;
            };
            match c {
                b'{' | b'[' => {
                    top.want = Want::Next;
                    if self.stack.len() >= MAX_DEPTH {
                        return true;
                    }
                    self.stack.push(Frame {
                        object: c == b'{',
                        want: Want::First,
                        comma: 0,
                    });
                }
                b'}' | b']' => {
                    let object = c == b'}';
                    if let Some(frame) = self.stack.iter().rposition(|f| f.object == object) {
                        self.stack.truncate(frame);
                    }
                    if self.stack.is_empty() {
                        return true;
                    }
                }
                b':' => top.want = Want::Value,
                b',' => top.want = if top.object { Want::Key } else { Want::Value },
                b'"' => self.string = Some(b'"'),
                b'\'' if matches!(top.want, Want::First | Want::Key | Want::Value) => {
                    self.string = Some(b'\'');
                }
                c if c.is_ascii_whitespace() => {}
                _ => self.token = true,
            }
            i += 1;
        }
        self.at = bytes.len();
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closed(text: &str) -> Result<String, Cut> {
        match extent(text, 0) {
            Extent::Open(open) => open.close(text, 0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn extent_skips_brackets_in_strings() {
        let text = r#"{"a": "}]\"{", 'b': '}'} tail"#;
        assert_eq!(extent(text, 0), Extent::Closed(text.len() - 5));
        assert_eq!(extent("[1, [2], {}]", 0), Extent::Closed(12));
        // Mismatched closers close what they can.
        assert_eq!(extent(r#"{"a": [1, 2} x"#, 0), Extent::Closed(12));
        assert_eq!(extent(r#"{"a": 1]} x"#, 0), Extent::Closed(9));
    }

    #[test]
    fn a_value_cut_between_values_is_closed() {
        assert_eq!(
            closed(r#"{"a": 1, "b": {"c": [true"#).unwrap(),
            r#"{"a": 1, "b": {"c": [true]}}"#
        );
        assert_eq!(closed(r#"{"a": "x","#).unwrap(), r#"{"a": "x"}"#);
        assert_eq!(closed(r#"[{"a": 1}, "#).unwrap(), r#"[{"a": 1}]"#);
        assert_eq!(closed("{").unwrap(), "{}");
    }

    #[test]
    fn a_value_cut_inside_is_not_guessed() {
        assert_eq!(closed(r#"{"a": "Par"#), Err(Cut::InString));
        assert_eq!(closed(r#"{"a": 12"#), Err(Cut::InToken));
        assert_eq!(closed(r#"{"a": tru"#), Err(Cut::InToken));
        assert_eq!(closed(r#"{"a": "#), Err(Cut::BeforeValue));
        assert_eq!(closed(r#"{"a""#), Err(Cut::BeforeValue));
    }

    #[test]
    fn deep_nesting_stops_the_scan() {
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(extent(&deep, 0), Extent::TooDeep);
    }

    #[test]
    fn raw_newlines_and_bad_escapes_are_fixed() {
        let fixed = fix_strings("{\"code\": \"a\n\\d+\tb\"}").unwrap();
        assert_eq!(fixed, r#"{"code": "a\n\\d+\tb"}"#);
        assert!(is_valid(&fixed));
        assert_eq!(fix_strings(r#"{"a": "\u00e9\n"}"#), None);
    }

    #[test]
    fn what_needs_a_guess_is_not_repaired() {
        // A missing value, a missing comma, an unterminated string before more text, single
        // quotes, a trailing comma: each could be read more than one way.
        for text in [
            r#"{"a": 1, "b": }"#,
            r#"{"a": 1 "b": 2}"#,
            r#"{"a": "x, "b": 2}"#,
            "{'city': 'Paris'}",
            r#"{"a": 1,}"#,
        ] {
            assert_eq!(to_valid(text), Err(TextErrorKind::InvalidJson), "{text}");
        }
        assert_eq!(to_valid("{\"a\": \"x\ny\"}").unwrap(), r#"{"a": "x\ny"}"#);
    }
}
