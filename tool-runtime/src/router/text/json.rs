//! Lenient JSON for calls: where a value ends, how to close one the text cut off, and repair of
//! the mistakes models make (raw newlines and bad escapes in strings, single quotes, trailing
//! commas, Python literals), the last with `llm_json` behind guards.

use super::error::{Cut, TextErrorKind};
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
    pub fn in_string(&self) -> bool {
        self.cut == Some(Cut::InString)
    }

    /// The value closed with its brackets, or where it was cut when that would be a guess.
    pub fn close(&self, text: &str, start: usize) -> Result<String, Cut> {
        if let Some(cut) = self.cut {
            return Err(cut);
        }
        let mut closed = String::with_capacity(self.keep - start + self.closers.len());
        closed.push_str(&text[start..self.keep]);
        closed.extend(self.closers.iter().rev().map(|&b| b as char));
        Ok(closed)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
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

/// The byte after the string that opens at `bytes[at]` (with the quote found there), or
/// `None` when the text ends inside it.
pub(crate) fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let quote = bytes[at];
    let mut i = at + 1;
    loop {
        let hit = i + memchr::memchr2(quote, b'\\', bytes.get(i..)?)?;
        if bytes[hit] == b'\\' {
            i = hit + 2;
        } else {
            return Some(hit + 1);
        }
    }
}

/// Whether `text` is JSON as it is.
pub(crate) fn is_valid(text: &str) -> bool {
    serde_json::from_str::<IgnoredAny>(text).is_ok()
}

/// `text` as valid JSON: itself when it already is, else repaired.
pub(crate) fn to_valid(text: &str) -> Result<Cow<'_, str>, TextErrorKind> {
    if is_valid(text) {
        return Ok(Cow::Borrowed(text));
    }
    let fixed = fix_strings(text);
    if let Some(fixed) = &fixed {
        if is_valid(fixed) {
            return Ok(Cow::Owned(fixed.clone()));
        }
    }
    // Repair what is left; the string fixes usually help, but they read single-quoted strings
    // as code, so the text as written gets a try too.
    fixed
        .as_deref()
        .and_then(repair)
        .or_else(|| repair(text))
        .map(Cow::Owned)
        .ok_or(TextErrorKind::InvalidJson)
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

/// Limits that keep `llm_json` safe: it recurses once per bracket (so deep nesting would
/// overflow the stack, which no `catch_unwind` can stop), and looks ahead over whitespace runs
/// inside unquoted strings (quadratic on long runs).
const MAX_REPAIR_LEN: usize = 256 * 1024;
const MAX_REPAIR_BRACKETS: usize = 256;
const MAX_REPAIR_SPACE_RUN: usize = 256;

/// `llm_json`'s repair of `text` (an object or array), as compact valid JSON; `None` when the
/// text is too big or too deep to repair safely, or repair fails.
pub(crate) fn repair(text: &str) -> Option<String> {
    let text = text.trim();
    if text.len() > MAX_REPAIR_LEN
        // It would repair only the code block inside.
        || text.contains("```json")
        || text.bytes().filter(|b| matches!(b, b'{' | b'[')).count() > MAX_REPAIR_BRACKETS
        || longest_space_run(text.as_bytes()) > MAX_REPAIR_SPACE_RUN
    {
        return None;
    }
    let options = llm_json::RepairOptions {
        skip_json_loads: false,
        return_objects: false,
        ensure_ascii: false,
        stream_stable: false,
    };
    // It skips to the first `{` even inside an array, so arrays go in wrapped.
    let wrapped = text.starts_with('[');
    let input: Cow<str> = if wrapped {
        Cow::Owned(format!("{{\"v\":{text}}}"))
    } else {
        Cow::Borrowed(text)
    };
    // No panicking path was found in llm_json 1.0.3, but it is a dependency we don't control.
    let repaired = std::panic::catch_unwind(|| llm_json::repair_json(&input, &options))
        .ok()?
        .ok()?;
    if !wrapped {
        return Some(repaired);
    }
    let value: serde_json::Value = serde_json::from_str(&repaired).ok()?;
    Some(value.get("v")?.to_string())
}

fn longest_space_run(bytes: &[u8]) -> usize {
    let (mut longest, mut run) = (0, 0);
    for &b in bytes {
        if b.is_ascii_whitespace() {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
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
    fn repair_handles_model_mistakes() {
        let fixed = to_valid("{'city': 'Paris', \"days\": 3,}").unwrap();
        let value: serde_json::Value = serde_json::from_str(&fixed).unwrap();
        assert_eq!(value, serde_json::json!({"city": "Paris", "days": 3}));
        let fixed = repair("[{'a': True}, {'b': None}]").unwrap();
        assert_eq!(fixed, r#"[{"a":true},{"b":null}]"#);
    }

    #[test]
    fn repair_refuses_what_could_hurt_it() {
        assert_eq!(repair(&"[".repeat(10_000)), None);
        assert_eq!(repair(&format!("{{a: b{}c}}", " ".repeat(10_000))), None);
    }
}
