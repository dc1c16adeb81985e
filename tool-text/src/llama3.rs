//! Llama 3.x / 4 JSON calls: `{"name": "f", "parameters": {..}}` objects, several separated by
//! `;` (or line breaks), after `<|python_tag|>` or bare. `<|python_tag|>` may also introduce a
//! built-in tool call in Python syntax, `brave_search.call(query="...")`.
//!
//! A bare object has no marker of its own, so it counts only when its first key is `name` (or
//! `function`, or it starts `"type": "function"` as llama.cpp's parser allows), it has an
//! arguments key, it is not a tool's definition, and, when the tool list is known, it names a
//! known tool.

use super::cursor::{prefix, region, skip_ws, Ask, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::object::{read_object, starts_like_a_call};
use super::pylit::{Py, PyError};
use serde_json::Value;

/// `<|python_tag|>`.
pub(crate) const TAG: Reader = Reader::new(b'<', 30, tag_at, Some(TextFormat::Llama3));

/// A bare call object anywhere, when chosen (llama.cpp's old Hermes 2 Pro parser read them too).
pub(crate) const BARE: Reader = Reader::new(b'{', 20, bare_at, None).asked(Ask::Chosen);

/// A bare call object at the start of the message, under Auto.
pub(crate) const BARE_AT_START: Reader =
    Reader::new(b'{', 20, bare_at, Some(TextFormat::Llama3)).asked(Ask::AutoAtStart);

const PYTHON_TAG: &str = "<|python_tag|>";

/// `<|python_tag|>` at `pos`.
pub(crate) fn tag_at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, PYTHON_TAG, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let start = skip_ws(text, pos + PYTHON_TAG.len());
    match text.as_bytes().get(start) {
        None if !cx.eof => Step::More(Need::Any),
        None => region(
            pos,
            text.len(),
            vec![error(pos..text.len(), TextErrorKind::Empty)],
        ),
        Some(b'{') => match chain(cx, text, start, true) {
            Ok(Ok((end, items))) => region(pos, end, items),
            Ok(Err(_)) => Step::Prose(1),
            Err(need) => cx.more(need),
        },
        Some(_) => builtin(cx, text, pos, start),
    }
}

/// A bare `{` at `pos`.
pub(crate) fn bare_at(cx: &Cx, text: &str, pos: usize) -> Step {
    match starts_like_a_call(text, pos, cx.eof) {
        Err(need) => return cx.more(need),
        Ok(true) => {}
        Ok(false) => return Step::Prose(1),
    }
    match chain(cx, text, pos, false) {
        Ok(Ok((end, items))) => region(pos, end, items),
        Ok(Err(prose)) => Step::Prose(prose),
        Err(need) => cx.more(need),
    }
}

/// Objects from `start`, separated by `;` or whitespace: where they end and what they hold.
/// `strong` when a marker came first; otherwise each object must look like a call (a bare
/// first object that doesn't is prose: `Err(len)`, the prose's length). A first object read
/// whole and found no call (a tool's definition, an object without arguments) is prose as a
/// whole: the objects inside it are its values, not calls (OpenAI's definition shape holds a
/// `{"name", "parameters"}` object that looks like a Llama 3 call).
fn chain(
    cx: &Cx,
    text: &str,
    start: usize,
    strong: bool,
) -> Result<Result<(usize, Vec<Item>), usize>, Need> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut i = start;
    let mut end = start;
    loop {
        if !strong || !items.is_empty() {
            match starts_like_a_call(text, i, cx.eof)? {
                true => {}
                false if items.is_empty() => return Ok(Err(1)),
                false => break,
            }
        }
        let (object_end, read) = read_object(cx, text, i)?;
        let item = match read {
            // A tool's definition printed bare is not a call.
            Ok(found) if !strong && found.definition => {
                if items.is_empty() {
                    return Ok(Err(object_end - start));
                }
                break;
            }
            Ok(found) if strong || (found.has_arguments && cx.accepts(&found.name)) => found.into(),
            Ok(_) if items.is_empty() => return Ok(Err(object_end - start)),
            Ok(_) => break,
            Err(kind) => Item::Error {
                span: i..object_end,
                kind,
            },
        };
        items.push(item);
        end = object_end;
        // What comes next: `;` and another object, another object, or the end of the calls.
        let mut next = skip_ws(text, object_end);
        if bytes.get(next) == Some(&b';') {
            end = next + 1;
            next = skip_ws(text, next + 1);
        }
        match bytes.get(next) {
            None if !cx.eof => return Err(Need::Any),
            Some(b'{') => i = next,
            _ => break,
        }
    }
    Ok(Ok((end, items)))
}

/// A built-in tool call after `<|python_tag|>`: `name.call(key=value)` or `name(key=value)`.
fn builtin(cx: &Cx, text: &str, pos: usize, start: usize) -> Step {
    let mut py = Py::new(text, start);
    match py.call() {
        Ok((name, arguments)) => {
            let name = name.strip_suffix(".call").unwrap_or(&name).to_owned();
            let arguments = Value::Object(arguments).to_string();
            region(pos, py.pos, vec![Item::Call { name, arguments }])
        }
        Err(PyError::End) if !cx.eof => Step::More(Need::Byte(b')', b')')),
        Err(PyError::End) => {
            let kind = TextErrorKind::Truncated(Cut::InMarkup);
            region(pos, text.len(), vec![error(pos..text.len(), kind)])
        }
        Err(_) => {
            // Not a call: the rest of the line goes in the error.
            let line_end = memchr::memchr(b'\n', &text.as_bytes()[start..]).map(|n| start + n);
            match line_end {
                None if !cx.eof => Step::More(Need::Byte(b'\n', b'\n')),
                end => {
                    let end = end.unwrap_or(text.len());
                    let kind = TextErrorKind::Syntax {
                        expected: "a JSON object or a Python call",
                    };
                    region(pos, end, vec![error(pos..end, kind)])
                }
            }
        }
    }
}

fn error(span: std::ops::Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};
    use serde_json::json;
    use std::collections::HashMap;

    #[test]
    fn a_bare_object_is_a_call() {
        let text = "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}";
        let parsed = parse(text, TextFormat::Auto, &());
        assert_eq!(parsed.calls[0].name, "get_weather");
        assert_eq!(parsed.calls[0].arguments, r#"{"city": "Paris"}"#);
        assert_eq!(parsed.text, "");
    }

    #[test]
    fn calls_separated_by_semicolons_after_the_python_tag() {
        let text = "<|python_tag|>{\"name\": \"a\", \"parameters\": {\"x\": 1}}; {\"name\": \"b\", \"parameters\": {}}";
        let parsed = parse(text, TextFormat::Llama3, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(parsed.text, "");
    }

    #[test]
    fn builtin_tools_use_python_syntax() {
        let parsed = parse(
            "<|python_tag|>brave_search.call(query=\"weather in Paris\")",
            TextFormat::Auto,
            &(),
        );
        assert_eq!(parsed.calls[0].name, "brave_search");
        assert_eq!(
            parsed.calls[0].arguments,
            json!({"query": "weather in Paris"}).to_string()
        );
    }

    #[test]
    fn json_that_is_not_a_call_stays_prose() {
        let tools = HashMap::from([("get_weather".to_owned(), json!({}))]);
        for text in [
            "{\"name\": \"Bob\", \"age\": 3}",
            "{\"name\": \"other\", \"parameters\": {}}",
            "Here: {\"name\": \"get_weather\", \"parameters\": {}}",
            "{\"city\": \"Paris\"}",
        ] {
            let parsed = parse(text, TextFormat::Auto, &tools);
            assert_eq!(
                (parsed.text.as_str(), parsed.calls.len()),
                (text, 0),
                "{text}"
            );
        }
        // In Llama 3 format, bare objects count anywhere.
        let parsed = parse(
            "Here: {\"name\": \"get_weather\", \"parameters\": {}}",
            TextFormat::Llama3,
            &tools,
        );
        assert_eq!((parsed.text.as_str(), parsed.calls.len()), ("Here: ", 1));
    }
}
