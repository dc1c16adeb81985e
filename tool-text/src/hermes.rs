//! Hermes `<tool_call>` tags: Hermes 2/3, Qwen2.5, QwQ, Granite 4, and the bodies other
//! formats write inside the same tag: Qwen3's XML, GLM's name and `<arg_key>` pairs (`glm.rs`).
//!
//! `<tool_call>\n{"name": "f", "arguments": {..}}\n</tool_call>`, repeated. A tag left open
//! ends where the next one opens or where the text ends; tags inside a JSON string or a
//! parameter value of the body (a file's content, say) don't count.

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::glm;
use super::json::{self, Extent};
use super::object::{read_array, read_object};
use super::qwen_xml;
use memchr::memmem;

/// Hermes's `<tool_call>` tag (GLM's, xLAM's and Hermes variants' too): asked first, as other formats' tags begin like it.
pub(crate) const READER: Reader = Reader::new(b'<', 10, at, Some(TextFormat::Hermes));

pub(crate) const OPEN: &str = "<tool_call>";
pub(crate) const CLOSE: &str = "</tool_call>";

/// A `<tool_call>` at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, OPEN, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let body = pos + OPEN.len();
    match body_end(cx, text, body) {
        Ok((body_end, end, closed)) => {
            // Qwen3's XML body and GLM's inside the Hermes tag are those formats.
            let first = skip_ws(text, body).min(body_end);
            let (items, format) = if text[first..body_end].starts_with(qwen_xml::FUNCTION) {
                let items = read_body(cx, text, body, body_end, closed);
                (items, Some(TextFormat::QwenXml))
            } else if glm::is_body(cx, text, body, body_end) {
                // Left open, it ends where the next tag opens; only the end of the text cuts it.
                let whole = closed || body_end < text.len();
                let item = glm::read_body(cx, text, body, body_end, whole);
                (vec![item], Some(TextFormat::Glm))
            } else {
                (read_body(cx, text, body, body_end, closed), None)
            };
            match region(pos, end, items) {
                Step::Region { len, items, .. } => Step::Region { len, items, format },
                step => step,
            }
        }
        Err(need) => Step::More(need),
    }
}

/// Where the body that starts at `body` ends, where its tag ends, and whether it was closed:
/// at the first `</tool_call>` (closed) or `<tool_call>` (left open) that is not inside a JSON
/// string or an XML parameter value of the body, or else the first one, or the end of the text.
fn body_end(cx: &Cx, text: &str, body: usize) -> Result<(usize, usize, bool), Need> {
    let bytes = text.as_bytes();
    let first_byte = skip_ws(text, body);
    let json = Some(first_byte).filter(|&at| matches!(bytes.get(at), Some(b'{' | b'[')));
    let xml = text[first_byte..].starts_with(qwen_xml::FUNCTION);
    let ends = |at: usize, close: bool| match close {
        true => (at, at + CLOSE.len(), true),
        false => (at, at, false),
    };
    let mut first = None;
    let mut from = body;
    let mut quoted_tags = 0;
    loop {
        let Some((at, close)) = next_tag(bytes, from) else {
            if !cx.eof {
                return Err(Need::Byte(b'>', b'>'));
            }
            return Ok(match first {
                Some((at, close)) => ends(at, close),
                None => (text.len(), text.len(), false),
            });
        };
        first.get_or_insert((at, close));
        let quoted = match json {
            Some(start) => match json::extent(&text[..at], start) {
                Extent::Open(open) => open.in_string(),
                _ => false,
            },
            None if xml => qwen_xml::in_parameter(&text[body..at]),
            None => glm::in_value(&text[body..at]),
        };
        if !quoted {
            return Ok(ends(at, close));
        }
        // Tags inside a value are looked past a few at a time, never to the end of the text
        // for every tag: text that opens calls and never closes them costs its length.
        quoted_tags += 1;
        if quoted_tags > MAX_QUOTED_TAGS {
            let (at, close) = first.unwrap_or((at, close));
            return Ok(ends(at, close));
        }
        from = at + if close { CLOSE.len() } else { OPEN.len() };
    }
}

/// How many tags inside a body's strings or parameter values are looked past before the body
/// is taken to end at the first tag after all (a value quoting more tags than this is read
/// as cut there). Keeps the search for a body's end linear in the text.
const MAX_QUOTED_TAGS: usize = 16;

/// The nearest `<tool_call>` or `</tool_call>` at or after `from`: where, and whether it
/// closes. One search for both, so finding it costs the distance to it.
fn next_tag(bytes: &[u8], from: usize) -> Option<(usize, bool)> {
    const NAME: &[u8] = b"tool_call>";
    let mut search = from;
    loop {
        let at = search + memmem::find(bytes.get(search..)?, NAME)?;
        if at >= from + 2 && &bytes[at - 2..at] == b"</" {
            return Some((at - 2, true));
        }
        if at > from && bytes[at - 1] == b'<' {
            return Some((at - 1, false));
        }
        search = at + NAME.len();
    }
}

/// The calls inside a tag's body, `text[start..end]`: JSON objects (or arrays of them) or
/// Qwen3 `<function=..>` markup.
pub(crate) fn read_body(cx: &Cx, text: &str, start: usize, end: usize, closed: bool) -> Vec<Item> {
    let first = skip_ws(&text[..end], start);
    if first >= end {
        let kind = if closed {
            TextErrorKind::Empty
        } else {
            TextErrorKind::Truncated(Cut::InMarkup)
        };
        return vec![Item::Error {
            span: start..end,
            kind,
        }];
    }
    if text[first..end].starts_with(qwen_xml::FUNCTION) {
        return qwen_xml::read_functions(cx, text, first, end, closed);
    }
    // The body is all there is: read it as if the text ended with it. It is bounded by its
    // closing tag or the next call's opening one; one the end of the message cuts is not.
    let body = &text[..end];
    let cx = Cx {
        eof: true,
        bounded: closed || end < text.len(),
        ..*cx
    };
    let bytes = body.as_bytes();
    let mut items = Vec::new();
    let mut i = first;
    while i < end {
        let read = match bytes[i] {
            b'{' => read_object(&cx, body, i).map(|(e, found)| {
                let item = match found {
                    Ok(found) => found.into(),
                    Err(kind) => Item::Error { span: i..e, kind },
                };
                (e, vec![item])
            }),
            b'[' => read_array(&cx, body, i),
            // Separators between objects, and closers models add one too many of.
            b',' | b';' | b'}' | b']' => Ok((i + 1, Vec::new())),
            c if c.is_ascii_whitespace() => Ok((i + 1, Vec::new())),
            // Anything else after the calls is left out with the tag.
            _ if !items.is_empty() => break,
            _ => Ok((
                end,
                vec![Item::Error {
                    span: i..end,
                    kind: TextErrorKind::Syntax {
                        expected: "a JSON object or `<function=`",
                    },
                }],
            )),
        };
        // At the end of the text nothing waits.
        let Ok((next, found)) = read else { break };
        items.extend(found);
        i = next.max(i + 1);
    }
    if items.is_empty() {
        items.push(Item::Error {
            span: start..end,
            kind: TextErrorKind::Syntax {
                expected: "a JSON object or `<function=`",
            },
        });
    }
    items
}

#[cfg(test)]
mod tests {
    use crate::{parse, Cut, TextErrorKind, TextFormat};

    #[test]
    fn calls_in_tags_are_read_and_cut_from_the_text() {
        let text = "I'll check both.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"arguments\": {\"tz\": \"CET\"}, \"name\": \"get_time\"}\n</tool_call>\nDone.";
        let parsed = parse(text, TextFormat::Hermes, &());
        assert_eq!(parsed.text, "I'll check both.\nDone.");
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["get_weather", "get_time"]);
        assert_eq!(parsed.calls[1].arguments, r#"{"tz": "CET"}"#);
        assert_eq!(
            (parsed.calls[0].id.as_str(), parsed.calls[1].id.as_str()),
            ("call_0", "call_1")
        );
    }

    #[test]
    fn an_open_tag_ends_at_the_next_one_or_the_end() {
        // The first tag, left open, ends where the next opens (its object missing its brace
        // there is closed: the next tag bounds it); the second, its object cut by the end of
        // the text, is an error: more may have followed (issue 32 item 10).
        let text = "<tool_call>{\"name\": \"a\", \"arguments\": {\"y\": 2}\n<tool_call>{\"name\": \"b\", \"arguments\": {\"x\": 1}";
        let parsed = parse(text, TextFormat::Hermes, &());
        assert_eq!(parsed.calls.len(), 1, "{parsed:?}");
        assert_eq!(parsed.calls[0].arguments, r#"{"y": 2}"#);
        assert_eq!(parsed.errors.len(), 1, "{parsed:?}");
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(Cut::InMarkup)
        );
        assert_eq!(parsed.text, "");
        // Whole, with its closing tag left out at the end of the text, it is read.
        let text = "<tool_call>{\"name\": \"b\", \"arguments\": {\"x\": 1}}";
        let parsed = parse(text, TextFormat::Hermes, &());
        assert_eq!(parsed.calls[0].arguments, r#"{"x": 1}"#);
    }

    #[test]
    fn a_call_cut_inside_a_string_is_an_error_not_a_guess() {
        let text = "Sure.\n<tool_call>{\"name\": \"write\", \"arguments\": {\"path\": \"notes.t";
        let parsed = parse(text, TextFormat::Hermes, &());
        assert!(parsed.calls.is_empty());
        assert_eq!(parsed.text, "Sure.\n");
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].span, 6..text.len());
        assert_eq!(parsed.errors[0].raw, &text[6..]);
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
    }

    #[test]
    fn one_bad_call_leaves_the_others() {
        let text = "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call><tool_call>{not json at all</tool_call><tool_call>{\"name\": \"b\", \"arguments\": \"{\\\"k\\\": 2}\"}</tool_call>";
        let parsed = parse(text, TextFormat::Hermes, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(parsed.calls[1].arguments, r#"{"k": 2}"#);
        assert_eq!(parsed.errors.len(), 1, "{parsed:?}");
        assert!(parsed.errors[0].raw.starts_with("<tool_call>{not json"));
    }

    #[test]
    fn broken_json_is_an_error_not_a_guess() {
        // Python's dict syntax and a trailing comma: not JSON, and not repaired here (that is
        // the pipeline's opt-in `RepairPolicy::Lenient`).
        let text =
            "<tool_call>\n{'name': 'f', 'arguments': {'a': True, 'b': [1, 2,],}}\n</tool_call>";
        let parsed = parse(text, TextFormat::Hermes, &());
        assert!(parsed.calls.is_empty(), "{parsed:?}");
        assert_eq!(parsed.errors[0].kind, TextErrorKind::InvalidJson);
        assert_eq!(parsed.errors[0].raw, text);
        // The closing brace models most often forget, at the closing tag: nothing is guessed
        // in closing it.
        let parsed = parse(
            "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}</tool_call>",
            TextFormat::Hermes,
            &(),
        );
        assert_eq!(parsed.calls[0].arguments, r#"{"a": 1}"#);
    }

    #[test]
    fn empty_tags_are_reported() {
        let parsed = parse("<tool_call>\n</tool_call>", TextFormat::Hermes, &());
        assert_eq!(parsed.errors[0].kind, TextErrorKind::Empty);
        let parsed = parse("x <tool_call>", TextFormat::Hermes, &());
        assert_eq!(parsed.text, "x ");
        assert_eq!(parsed.errors.len(), 1);
    }
}
