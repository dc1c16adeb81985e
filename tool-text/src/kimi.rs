//! Moonshot's Kimi tool calls, in its special tokens:
//!
//! | format | markup | peers |
//! |---|---|---|
//! | [`KimiK2`](TextFormat::KimiK2) | `<\|tool_calls_section_begin\|><\|tool_call_begin\|>functions.NAME:IDX<\|tool_call_argument_begin\|>{..}<\|tool_call_end\|>..<\|tool_calls_section_end\|>` | vLLM `kimi_k2`, SGLang `kimi_k2`, llama.cpp |
//! | [`KimiK3`](TextFormat::KimiK3) | `<\|open\|>tools<\|sep\|><\|open\|>call tool="NAME" index="1"<\|sep\|><\|open\|>argument key="k" type="string"<\|sep\|>v<\|close\|>argument<\|sep\|>..<\|close\|>call<\|sep\|>..<\|close\|>tools<\|sep\|>` | vLLM `kimi_k3`, SGLang `kimi_k3` |
//!
//! K2's call header is Kimi's own call id, `functions.NAME:IDX`: the name is what is between
//! `functions.` and `:IDX` (dots in it kept; either part may be missing). A header that is a
//! bare counter (`0`) names no tool; vLLM guesses the tool from the schemas then, this parser
//! reports the call. The arguments are JSON, read as in the other JSON formats. The calls get
//! this parser's ids (`call_0`, ..), not Kimi's.
//!
//! K3 writes XTML, byte for byte as its chat template encodes it (vLLM's parser also allows
//! spaces inside the markers, this one does not). An argument with `type="string"` (or no
//! type) is its raw text; any other type is JSON, typed with the tool's schema when it is not
//! valid JSON (vLLM keeps it as a string then). Attribute values are unescaped (`&quot;`,
//! `&amp;`). A value ends at `<|close|>argument<|sep|>`, or, left open, at the next XTML
//! marker (a K3 value cannot hold `<|`). The markers of K3's `response` channel and the
//! `<|close|>message<|sep|>` that ends a turn are cut from the prose, as vLLM unwraps them.

use super::cursor::{prefix, skip_ws, Cx, Item, Need, Openers, Prefix, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::special::{
    self, attribute, attributes, cut, error, json_arguments, json_value, last_byte, Argument,
    Block, Read, Tag,
};
use crate::ToolCall;
use serde_json::{Map, Value};

pub(crate) const SECTION_BEGIN: &str = "<|tool_calls_section_begin|>";
pub(crate) const SECTION_END: &str = "<|tool_calls_section_end|>";
pub(crate) const CALL_BEGIN: &str = "<|tool_call_begin|>";
pub(crate) const ARGUMENT_BEGIN: &str = "<|tool_call_argument_begin|>";
pub(crate) const CALL_END: &str = "<|tool_call_end|>";

pub(crate) const TOOLS_OPEN: &str = "<|open|>tools<|sep|>";
pub(crate) const TOOLS_CLOSE: &str = "<|close|>tools<|sep|>";
pub(crate) const CALL_OPEN: &str = "<|open|>call";
pub(crate) const CALL_CLOSE: &str = "<|close|>call<|sep|>";
pub(crate) const ARGUMENT_OPEN: &str = "<|open|>argument";
pub(crate) const ARGUMENT_CLOSE: &str = "<|close|>argument<|sep|>";
const OPEN: &str = "<|open|>";
const CLOSE: &str = "<|close|>";
const SEP: &str = "<|sep|>";

/// K3's markers around its reply, which are neither prose nor calls.
const CHANNEL_MARKERS: [&str; 3] = [
    "<|open|>response<|sep|>",
    "<|close|>response<|sep|>",
    "<|close|>message<|sep|>",
];

/// Whether `format` is one of Kimi's.
#[cfg(test)]
pub(crate) fn handles(format: TextFormat) -> bool {
    matches!(format, TextFormat::KimiK2 | TextFormat::KimiK3)
}

/// A Kimi block (or one of K3's channel markers) at `pos` (a `<|`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut openers = Openers::new(cx, text, pos);
    if openers.opens(TextFormat::KimiK2, SECTION_BEGIN) {
        let block = Block {
            format: TextFormat::KimiK2,
            close: SECTION_END,
            call: CALL_BEGIN,
            expected: "`<|tool_call_begin|>`",
        };
        let body = pos + SECTION_BEGIN.len();
        return special::block(cx, text, pos, body, &block, &read_k2);
    }
    if openers.opens(TextFormat::KimiK3, TOOLS_OPEN) {
        let block = Block {
            format: TextFormat::KimiK3,
            close: TOOLS_CLOSE,
            call: CALL_OPEN,
            expected: "`<|open|>call tool=..<|sep|>`",
        };
        let body = pos + TOOLS_OPEN.len();
        return special::block(cx, text, pos, body, &block, &read_k3);
    }
    for marker in CHANNEL_MARKERS {
        if openers.opens(TextFormat::KimiK3, marker) {
            return Step::Markup(marker.len());
        }
    }
    openers.none()
}

/// One K2 `<|tool_call_begin|>` call at `at`.
fn read_k2(cx: &Cx, text: &str, at: usize) -> Result<Read, Need> {
    let head = at + CALL_BEGIN.len();
    let sep = match special::head(
        cx,
        text,
        at,
        head,
        ARGUMENT_BEGIN,
        CALL_END,
        "`<|tool_call_argument_begin|>`",
    )? {
        Ok(sep) => sep,
        Err(read) => return Ok(read),
    };
    let name = name_in(&text[head..sep]);
    let (end, arguments) = json_arguments(cx, text, sep + ARGUMENT_BEGIN.len(), CALL_END)?;
    let item = match (name, arguments) {
        (Some(name), Ok(arguments)) => Item::Call {
            name: name.to_owned(),
            arguments,
        },
        (None, _) => error(at..end, TextErrorKind::MissingName),
        (_, Err(kind)) => error(at..end, kind),
    };
    Ok(Read::new(end, item))
}

/// The tool a K2 call id names: `functions.NAME:IDX`, `NAME:IDX` or `NAME`; `None` for a bare
/// counter.
fn name_in(header: &str) -> Option<&str> {
    let header = header.trim();
    let header = header.strip_prefix("functions.").unwrap_or(header);
    let name = match header.rsplit_once(':') {
        Some((name, index)) if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) => {
            name
        }
        _ => header,
    };
    let name = name.trim();
    (!name.is_empty() && !name.bytes().all(|b| b.is_ascii_digit())).then_some(name)
}

/// The K2 id to write a call with, the `index`th of its message: its own when it is one
/// (`functions.NAME:IDX`), or `functions.NAME:index`.
pub(crate) fn call_id(call: &ToolCall, index: usize) -> String {
    let own = call.id.starts_with("functions.")
        && call
            .id
            .rsplit_once(':')
            .is_some_and(|(_, n)| n.bytes().all(|b| b.is_ascii_digit()))
        && name_in(&call.id) == Some(call.name.as_str());
    if own {
        call.id.clone()
    } else {
        format!("functions.{}:{index}", call.name)
    }
}

/// One K3 `<|open|>call tool=".." index=".."<|sep|>` at `at`, up to its `<|close|>call<|sep|>`.
fn read_k3(cx: &Cx, text: &str, at: usize) -> Result<Read, Need> {
    let (attrs, body) = match tag(cx, text, at + CALL_OPEN.len())? {
        Ok(found) => found,
        Err((end, kind)) => return Ok(Read::new(end, error(at..end, kind))),
    };
    let Some(name) = attribute(&attrs, "tool")
        .map(unescape)
        .filter(|name| !name.trim().is_empty())
    else {
        return skip_call(cx, text, at, body, TextErrorKind::MissingName);
    };
    let name = name.trim();
    let schema = cx.tools.input_schema(name);
    let mut arguments = Map::new();
    let mut last = body;
    loop {
        let next = skip_ws(text, last);
        if next == text.len() {
            if !cx.eof {
                return Err(Need::Any);
            }
            // Cut off by the end of the message, even between arguments: more may have
            // followed, so it is an error, never the call made of those before the cut.
            return Ok(cut(at, text.len()));
        }
        match prefix(text, next, CALL_CLOSE, cx.eof) {
            Prefix::Yes => {
                last = next + CALL_CLOSE.len();
                break;
            }
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {}
        }
        match prefix(text, next, ARGUMENT_OPEN, cx.eof) {
            Prefix::Yes => match read_argument(cx, text, next, schema)? {
                (end, Ok((key, value))) => {
                    arguments.insert(key, value);
                    last = end;
                    continue;
                }
                (end, Err(kind)) if end == text.len() => {
                    return Ok(Read::new(end, error(at..end, kind)))
                }
                (end, Err(kind)) => return skip_call(cx, text, at, end, kind),
            },
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {}
        }
        // The next call, or the end of the tools: this one was left open.
        let mut open = false;
        for marker in [CALL_OPEN, TOOLS_CLOSE] {
            match prefix(text, next, marker, cx.eof) {
                Prefix::Yes => open = true,
                Prefix::Partial => return Err(Need::Any),
                Prefix::No => {}
            }
        }
        if open {
            break;
        }
        let kind = TextErrorKind::Syntax {
            expected: "`<|open|>argument key=..<|sep|>`",
        };
        return skip_call(cx, text, at, next, kind);
    }
    Ok(Read::new(
        last,
        Item::Call {
            name: name.to_owned(),
            arguments: Value::Object(arguments).to_string(),
        },
    ))
}

/// The K3 call at `at` as one error `kind`, up to its `<|close|>call<|sep|>` or the end of the
/// tools, whichever comes first from `from`, or up to the end of the text.
fn skip_call(
    cx: &Cx,
    text: &str,
    at: usize,
    from: usize,
    kind: TextErrorKind,
) -> Result<Read, Need> {
    let end = match special::skip_to(text, from, CALL_CLOSE, TOOLS_CLOSE) {
        Some(end) => end,
        None if !cx.eof => return Err(last_byte(CALL_CLOSE)),
        None => text.len(),
    };
    Ok(Read::new(end, error(at..end, kind)))
}

/// One `<|open|>argument key=".." type=".."<|sep|>value<|close|>argument<|sep|>` at `at`:
/// where it ends, and its key and value or what is wrong with it.
fn read_argument(cx: &Cx, text: &str, at: usize, schema: Option<&Value>) -> Result<Argument, Need> {
    let (attrs, value_start) = match tag(cx, text, at + ARGUMENT_OPEN.len())? {
        Ok(found) => found,
        Err((end, kind)) => return Ok((end, Err(kind))),
    };
    let bytes = text.as_bytes();
    let mut search = value_start;
    let (value_end, end) = loop {
        let Some(lt) = memchr::memchr(b'<', &bytes[search..]).map(|n| search + n) else {
            if !cx.eof {
                return Err(Need::Byte(b'<', b'<'));
            }
            return Ok((text.len(), Err(TextErrorKind::Truncated(Cut::InString))));
        };
        match prefix(text, lt, ARGUMENT_CLOSE, cx.eof) {
            Prefix::Yes => break (lt, lt + ARGUMENT_CLOSE.len()),
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {}
        }
        let mut ends = false;
        for marker in [OPEN, CLOSE] {
            match prefix(text, lt, marker, cx.eof) {
                Prefix::Yes => ends = true,
                Prefix::Partial => return Err(Need::Any),
                Prefix::No => {}
            }
        }
        if ends {
            break (lt, lt);
        }
        search = lt + 1;
    };
    let Some(key) = attribute(&attrs, "key")
        .map(unescape)
        .filter(|key| !key.is_empty())
    else {
        return Ok((
            end,
            Err(TextErrorKind::Syntax {
                expected: "an argument key",
            }),
        ));
    };
    let raw = &text[value_start..value_end];
    let value = match attribute(&attrs, "type").map(unescape).as_deref() {
        None | Some("string") => Value::String(raw.to_owned()),
        Some(_) => json_value(raw, schema, &key),
    };
    Ok((end, Ok((key, value))))
}

/// An XTML tag's attributes, from `start` to its `<|sep|>`, and where it ends; or, when it is
/// broken, where the error ends and why.
fn tag<'t>(cx: &Cx, text: &'t str, start: usize) -> Result<Tag<'t>, Need> {
    let bytes = text.as_bytes();
    let Some(lt) = memchr::memchr(b'<', &bytes[start..]).map(|n| start + n) else {
        if !cx.eof {
            return Err(Need::Byte(b'<', b'<'));
        }
        return Ok(Err((text.len(), TextErrorKind::Truncated(Cut::InMarkup))));
    };
    match prefix(text, lt, SEP, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Err(Need::Any),
        Prefix::No => {
            return Ok(Err((
                lt,
                TextErrorKind::Syntax {
                    expected: "`<|sep|>` after the tag's attributes",
                },
            )))
        }
    }
    match attributes(&text[start..lt]) {
        // Attributes need a space before them.
        Some(attrs) if attrs.is_empty() || bytes[start].is_ascii_whitespace() => {
            Ok(Ok((attrs, lt + SEP.len())))
        }
        _ => Ok(Err((
            lt + SEP.len(),
            TextErrorKind::Syntax {
                expected: "`key=\"..\"` attributes",
            },
        ))),
    }
}

/// An attribute value as K3's template escapes it (`&` then `"`), unescaped.
fn unescape(value: &str) -> String {
    value.replace("&quot;", "\"").replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::name_in;
    use crate::{parse, TextErrorKind, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    use crate::test_support::{found, pairs};

    fn calls(text: &str, format: TextFormat) -> (Vec<(String, Value)>, String, usize) {
        found(text, format, &())
    }

    #[test]
    fn k2_calls_are_read_by_their_ids() {
        // vLLM's test outputs: a space after the id, JSON over several lines, ids without
        // `functions.`.
        let text = "Multiple tasks. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>{\"city\": \"New York\"}<|tool_call_end|>\n<|tool_call_begin|>get_news:1<|tool_call_argument_begin|>{\n  \"topic\": \"tech\"\n}<|tool_call_end|><|tool_call_begin|>functions.test:2<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>\nDone.";
        for format in [TextFormat::KimiK2, TextFormat::Auto] {
            assert_eq!(
                calls(text, format),
                (
                    pairs(&[
                        ("get_weather", json!({"city": "New York"})),
                        ("get_news", json!({"topic": "tech"})),
                        ("test", json!({})),
                    ]),
                    "Multiple tasks. Done.".to_owned(),
                    0
                ),
                "{format:?}"
            );
        }
        assert_eq!(
            parse(text, TextFormat::Auto, &()).format,
            Some(TextFormat::KimiK2)
        );
    }

    #[test]
    fn k2_names_are_between_functions_and_the_index() {
        assert_eq!(name_in("functions.get_weather:0"), Some("get_weather"));
        assert_eq!(name_in(" get_weather:12 "), Some("get_weather"));
        assert_eq!(name_in("functions.mcp.search:3"), Some("mcp.search"));
        assert_eq!(name_in("functions.lookup"), Some("lookup"));
        assert_eq!(name_in("0"), None);
        assert_eq!(name_in("functions.:0"), None);
    }

    #[test]
    fn broken_k2_calls_are_errors() {
        // A bare counter names no tool, and JSON that isn't is not guessed at; the good call
        // between them stays.
        let text = "<|tool_calls_section_begin|><|tool_call_begin|>0<|tool_call_argument_begin|>{\"city\": \"Tokyo\"}<|tool_call_end|><|tool_call_begin|>functions.good:1<|tool_call_argument_begin|>{\"a\": 1}<|tool_call_end|><|tool_call_begin|>functions.bad:2<|tool_call_argument_begin|>{'a': 1}<|tool_call_end|><|tool_calls_section_end|>";
        let parsed = parse(text, TextFormat::KimiK2, &());
        assert_eq!(parsed.calls.len(), 1);
        assert_eq!(parsed.calls[0].name, "good");
        let kinds: Vec<TextErrorKind> = parsed.errors.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [TextErrorKind::MissingName, TextErrorKind::InvalidJson]
        );
        assert_eq!(parsed.text, "");
        // Cut off inside a string.
        let text = "Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": \"b";
        let parsed = parse(text, TextFormat::KimiK2, &());
        assert!(parsed.calls.is_empty());
        assert_eq!(parsed.text, "Sure.");
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
    }

    #[test]
    fn a_brace_left_out_costs_its_call_only() {
        // The object ends at its call's end marker: repaired when that needs no guess, an
        // error when it was cut inside a value (a number too, as in every JSON format); the
        // next call is read either way, and a marker inside a string is part of the string.
        for (first, expected) in [
            ("{\"a\": \"x\"", Some(json!({"a": "x"}))),
            ("{\"a\": 1", None),
            ("{\"a\": {\"b\": [1, 2]", Some(json!({"a": {"b": [1, 2]}}))),
            (
                "{\"a\": \"x<|tool_call_end|>y\"}",
                Some(json!({"a": "x<|tool_call_end|>y"})),
            ),
            ("{\"a\": tr", None),
        ] {
            let text = format!("<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{first}<|tool_call_end|><|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{{\"x\": 2}}<|tool_call_end|><|tool_calls_section_end|>");
            let (found, prose, errors) = calls(&text, TextFormat::KimiK2);
            let mut want = Vec::new();
            if let Some(arguments) = &expected {
                want.push(("f".to_owned(), arguments.clone()));
            }
            want.push(("g".to_owned(), json!({"x": 2})));
            assert_eq!(found, want, "{first}");
            assert_eq!(
                (prose.as_str(), errors),
                ("", usize::from(expected.is_none()))
            );
        }
    }

    fn k3_call(name: &str, index: usize, arguments: &str) -> String {
        format!(
            "<|open|>call tool=\"{name}\" index=\"{index}\"<|sep|>{arguments}<|close|>call<|sep|>"
        )
    }

    fn k3_argument(key: &str, kind: &str, value: &str) -> String {
        format!(
            "<|open|>argument key=\"{key}\" type=\"{kind}\"<|sep|>{value}<|close|>argument<|sep|>"
        )
    }

    #[test]
    fn k3_calls_are_typed_by_their_tags_and_the_channels_unwrapped() {
        let text = format!(
            "<|open|>response<|sep|>Checking.<|close|>response<|sep|><|open|>tools<|sep|>{}{}<|close|>tools<|sep|><|close|>message<|sep|>",
            k3_call(
                "get_weather",
                1,
                &(k3_argument("city", "string", "Paris") + &k3_argument("days", "number", "3"))
            ),
            k3_call(
                "run_command",
                2,
                &(k3_argument("command", "string", "grep -E 'a|b{2,}' x.py <in")
                    + &k3_argument("opts", "object", "{\"a\": 1}")
                    + &k3_argument("zip", "string", "007"))
            ),
        );
        for format in [TextFormat::KimiK3, TextFormat::Auto] {
            assert_eq!(
                calls(&text, format),
                (
                    pairs(&[
                        ("get_weather", json!({"city": "Paris", "days": 3})),
                        (
                            "run_command",
                            json!({"command": "grep -E 'a|b{2,}' x.py <in", "opts": {"a": 1}, "zip": "007"})
                        ),
                    ]),
                    "Checking.".to_owned(),
                    0
                ),
                "{format:?}"
            );
        }
        // Other formats leave K3's markup alone.
        assert_eq!(calls(&text, TextFormat::KimiK2), (vec![], text.clone(), 0));
    }

    #[test]
    fn k3_attributes_are_unescaped_and_bad_json_typed_by_the_schema() {
        let tools = HashMap::from([(
            "say \"hi\" & go".to_owned(),
            json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
        )]);
        let text = format!(
            "<|open|>tools<|sep|>{}<|close|>tools<|sep|>",
            k3_call(
                "say &quot;hi&quot; &amp; go",
                1,
                &(k3_argument("a&amp;b", "string", "x") + &k3_argument("n", "number", "007"))
            )
        );
        let parsed = parse(&text, TextFormat::KimiK3, &tools);
        assert_eq!(parsed.calls[0].name, "say \"hi\" & go");
        let arguments: Value = serde_json::from_str(&parsed.calls[0].arguments).unwrap();
        assert_eq!(arguments, json!({"a&b": "x", "n": 7}));
    }

    #[test]
    fn broken_k3_calls_cost_one_error_each() {
        let text = format!(
            "<|open|>tools<|sep|>{}<|open|>call index=\"2\"<|sep|>{}<|close|>call<|sep|>{}<|close|>tools<|sep|>",
            k3_call("a", 1, &k3_argument("x", "string", "1")),
            k3_argument("x", "string", "2"),
            k3_call("b", 3, "{\"x\": 3}"),
        );
        let parsed = parse(&text, TextFormat::KimiK3, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a"], "{parsed:?}");
        let kinds: Vec<TextErrorKind> = parsed.errors.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                TextErrorKind::MissingName,
                TextErrorKind::Syntax {
                    expected: "`<|open|>argument key=..<|sep|>`"
                }
            ]
        );
        assert_eq!(parsed.text, "");
        // Cut off inside a value; cut off between arguments (more may have followed): both
        // are errors.
        let cut = format!(
            "<|open|>tools<|sep|><|open|>call tool=\"f\" index=\"1\"<|sep|>{}<|open|>argument key=\"y\" type=\"string\"<|sep|>ab",
            k3_argument("x", "string", "1")
        );
        let parsed = parse(&cut, TextFormat::KimiK3, &());
        assert!(parsed.calls.is_empty());
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(crate::Cut::InString)
        );
        let cut = format!(
            "<|open|>tools<|sep|><|open|>call tool=\"f\" index=\"1\"<|sep|>{}",
            k3_argument("x", "string", "1")
        );
        let parsed = parse(&cut, TextFormat::KimiK3, &());
        assert!(parsed.calls.is_empty(), "{parsed:?}");
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(crate::Cut::InMarkup)
        );
    }
}
