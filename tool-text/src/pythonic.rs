//! Pythonic calls (Llama 3.2, Llama 4, ToolACE): a Python list of calls with keyword
//! arguments, `[get_weather(city="Paris"), get_time(tz="CET")]`, optionally wrapped in Llama
//! 4's `<|python_start|>..<|python_end|>`.
//!
//! A bare list has no marker of its own, so it counts only when it opens like a call list
//! (`[name(` then `)` or `key=`) and, when the tool list is known, names a known tool first.

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::json::string_end;
use super::pylit::{Py, PyError};
use serde_json::Value;

/// `<|python_start|>`.
pub(crate) const TAG: Reader = Reader::new(b'<', 40, tag_at, Some(TextFormat::Pythonic));

/// A bare list of calls.
pub(crate) const LIST: Reader = Reader::new(b'[', 30, at, Some(TextFormat::Pythonic));

const START: &str = "<|python_start|>";
const END: &str = "<|python_end|>";

/// A bare `[` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match opens_call_list(text, pos, cx.eof) {
        Err(need) => return cx.more(need),
        Ok(None) => return Step::Prose(1),
        Ok(Some(name)) if !cx.accepts(name) => return Step::Prose(1),
        Ok(Some(_)) => {}
    }
    match read_list(cx, text, pos) {
        Ok((end, items)) => region(pos, end, items),
        Err(need) => cx.more(need),
    }
}

/// `<|python_start|>` at `pos`.
pub(crate) fn tag_at(cx: &Cx, text: &str, pos: usize) -> Step {
    between(cx, text, pos, START, END)
}

/// A list of calls between `open` (at `pos`) and `close` (LFM2's special tokens too).
pub(crate) fn between(cx: &Cx, text: &str, pos: usize, open: &str, close: &str) -> Step {
    match prefix(text, pos, open, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let list = skip_ws(text, pos + open.len());
    let (end, items) = match text.as_bytes().get(list) {
        None if !cx.eof => return Step::More(Need::Any),
        None => (text.len(), vec![truncated(pos..text.len())]),
        Some(b'[') => match read_list(cx, text, list) {
            Ok(read) => read,
            Err(need) => return Step::More(need),
        },
        Some(_) => {
            let end = list;
            let error = Item::Error {
                span: pos..end,
                kind: TextErrorKind::Syntax {
                    expected: "a list of calls",
                },
            };
            return region(pos, end, vec![error]);
        }
    };
    let after = skip_ws(text, end);
    let end = match prefix(text, after, close, cx.eof) {
        Prefix::Yes => after + close.len(),
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No => end,
    };
    region(pos, end, items)
}

/// Whether the `[` at `pos` opens a list of calls: `[`, a name, `(`, then `)` or `key=`. Gives
/// the first call's name.
fn opens_call_list(text: &str, pos: usize, eof: bool) -> Result<Option<&str>, Need> {
    let mut py = Py::new(text, pos + 1);
    py.ws();
    let name = py.ident(true);
    py.ws();
    let open = py.peek();
    if open == Some(b'(') {
        py.pos += 1;
        py.ws();
        if py.peek() == Some(b')') {
            return Ok(Some(name).filter(|n| !n.is_empty()));
        }
        let key = py.ident(false);
        py.ws();
        match py.peek() {
            Some(b'=') if !key.is_empty() => return Ok(Some(name).filter(|n| !n.is_empty())),
            None if !eof => return Err(Need::Any),
            _ => return Ok(None),
        }
    }
    if open.is_none() && !eof {
        return Err(Need::Any);
    }
    Ok(None)
}

/// The list of calls at `pos` (a `[`): its end and its calls, one error for the first element
/// that isn't one.
fn read_list(cx: &Cx, text: &str, pos: usize) -> Result<(usize, Vec<Item>), Need> {
    let mut py = Py::new(text, pos + 1);
    let mut items = Vec::new();
    loop {
        py.ws();
        if py.eat(b']') {
            return Ok((py.pos, items));
        }
        let start = py.pos;
        let failed = match py.call() {
            Ok((name, arguments)) => {
                items.push(Item::Call {
                    name,
                    arguments: Value::Object(arguments).to_string(),
                });
                py.ws();
                match py.peek() {
                    Some(b',') => {
                        py.pos += 1;
                        continue;
                    }
                    Some(b']') => continue,
                    None => PyError::End,
                    Some(_) => PyError::Syntax("`,` or `]` after a call"),
                }
            }
            Err(error) => error,
        };
        return match failed {
            PyError::End if !cx.eof => Err(Need::Byte(b']', b']')),
            PyError::End => {
                items.push(truncated(start..text.len()));
                Ok((text.len(), items))
            }
            // One bad call costs only itself: the list goes on after the element's comma.
            PyError::Syntax(expected) => match element_end(text, start) {
                Some((comma, false)) => {
                    items.push(Item::Error {
                        span: start..comma,
                        kind: TextErrorKind::Syntax { expected },
                    });
                    py.pos = comma + 1;
                    continue;
                }
                // The text may end inside the element (a string left open): what follows
                // decides where it ends (found by the fuzzer: a stream cut there ended the list
                // early).
                None if !cx.eof => Err(Need::Any),
                _ => match list_end(text, pos) {
                    None if !cx.eof => Err(Need::Byte(b']', b']')),
                    end => {
                        let end = end.unwrap_or(text.len());
                        let kind = TextErrorKind::Syntax { expected };
                        items.push(Item::Error {
                            span: start.min(end)..end,
                            kind,
                        });
                        Ok((end, items))
                    }
                },
            },
            PyError::TooDeep => {
                let end = match list_end(text, pos) {
                    None if !cx.eof => return Err(Need::Byte(b']', b']')),
                    end => end.unwrap_or(text.len()),
                };
                items.push(Item::Error {
                    span: start.min(end)..end,
                    kind: TextErrorKind::TooDeep,
                });
                Ok((end, items))
            }
        };
    }
}

fn truncated(span: std::ops::Range<usize>) -> Item {
    Item::Error {
        span,
        kind: TextErrorKind::Truncated(Cut::InMarkup),
    }
}

/// Where the list element starting at `start` ends: the `,` after it (`false`) or the list's
/// `]` (`true`), found at bracket depth 0 outside strings. `None` when the text ends first or
/// the brackets don't balance, and then nothing after the element can be trusted.
fn element_end(text: &str, start: usize) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'(' | b'{' => depth += 1,
            b']' if depth == 0 => return Some((i, true)),
            b',' if depth == 0 => return Some((i, false)),
            b']' | b')' | b'}' => depth = depth.checked_sub(1)?,
            b'"' | b'\'' => {
                i = string_end(bytes, i)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The byte after the `]` that closes the `[` at `pos`, skipping brackets in strings.
fn list_end(text: &str, pos: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = pos;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                i = string_end(bytes, i)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    fn arguments(call: &crate::ToolCall) -> Value {
        serde_json::from_str(&call.arguments).unwrap()
    }

    #[test]
    fn a_list_of_calls_is_read() {
        let text = r#"[get_weather(city="San Francisco", metric='celsius'), get_time(tz="PST", when=[1, 2.5, True, None], opts={'a': "b"})]"#;
        let parsed = parse(text, TextFormat::Pythonic, &());
        assert_eq!(parsed.text, "");
        assert_eq!(parsed.calls.len(), 2);
        assert_eq!(
            arguments(&parsed.calls[0]),
            json!({"city": "San Francisco", "metric": "celsius"})
        );
        assert_eq!(
            arguments(&parsed.calls[1]),
            json!({"tz": "PST", "when": [1, 2.5, true, null], "opts": {"a": "b"}})
        );
    }

    #[test]
    fn prose_brackets_stay_prose() {
        for text in [
            "See [1] and [the docs](http://x.y/z(1)).",
            "[f(x)]",
            "a [b] c [",
            "[x for x in y]",
        ] {
            let parsed = parse(text, TextFormat::Auto, &());
            assert_eq!(parsed.text, text);
            assert!(
                parsed.calls.is_empty() && parsed.errors.is_empty(),
                "{text}: {parsed:?}"
            );
        }
    }

    #[test]
    fn unknown_names_are_not_calls_when_tools_are_known() {
        let tools = HashMap::from([("get_time".to_owned(), json!({}))]);
        let parsed = parse("[other(x=1)]", TextFormat::Auto, &tools);
        assert!(parsed.calls.is_empty());
        let parsed = parse("[get_time()]", TextFormat::Auto, &tools);
        assert_eq!(parsed.calls[0].arguments, "{}");
    }

    #[test]
    fn a_bad_element_is_an_error_and_the_good_ones_stay() {
        let parsed = parse(
            "[a(x=1), b(y=undefined_var), c()]",
            TextFormat::Pythonic,
            &(),
        );
        // The bad element costs only itself: `c()` after it is read.
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].raw, "b(y=undefined_var)");
        let parsed = parse("[a(x=1), b(y='cut", TextFormat::Pythonic, &());
        assert_eq!(parsed.calls.len(), 1);
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
    }

    #[test]
    fn a_stream_cut_inside_a_bad_element_waits_for_its_end() {
        // Found by the fuzzer: after a bad element, the stream cut inside an open string
        // (`'` | `',`) ended the list at a `]` in a comment, where the whole text reads on.
        let text = "[e(y='']\"\",#]\n'',";
        let whole = parse(text, TextFormat::Pythonic, &());
        let mut stream = crate::TextStream::new(TextFormat::Pythonic, &());
        let mut events = stream.push(&text[..15]);
        events.extend(stream.push(&text[15..]));
        events.extend(stream.finish());
        let streamed: crate::TextParse = events.into_iter().collect();
        assert_eq!(streamed, whole);
        assert_eq!(whole.errors.len(), 3);
    }

    #[test]
    fn llama4_tags_wrap_the_list() {
        let parsed = parse(
            "<|python_start|>[f(a=1)]<|python_end|>",
            TextFormat::Auto,
            &(),
        );
        assert_eq!(parsed.calls[0].name, "f");
        assert_eq!(parsed.text, "");
    }
}
