//! Qwen3 XML calls: `<function=f><parameter=x>value</parameter></function>`, inside a
//! `<tool_call>` tag or on their own. Values are raw text, typed with the tool's input schema.
//!
//! As in vLLM's `qwen3_coder` parser, a parameter ends at `</parameter>`, at the next
//! `<parameter=`, or at `</function>`, and one line break is trimmed from each end of a value.

use super::coerce::coerce;
use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Step};
use super::error::{Cut, TextErrorKind};
use super::hermes;
use memchr::memmem;
use serde_json::{Map, Value};

pub(crate) const FUNCTION: &str = "<function=";
const FUNCTION_END: &str = "</function>";
const PARAMETER: &str = "<parameter=";
const PARAMETER_END: &str = "</parameter>";

/// A `<function=` with no `<tool_call>` around it.
pub(crate) fn bare_at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, FUNCTION, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let (end, closed) = match find(text, pos..text.len(), FUNCTION_END) {
        Some(close) => (close + FUNCTION_END.len(), true),
        None if !cx.eof => return Step::More(Need::Byte(b'>', b'>')),
        None => (text.len(), false),
    };
    let items = read_functions(cx, text, pos, end, closed);
    // Qwen3-Coder sometimes leaves out the opening `<tool_call>` but still writes the closing
    // one: it belongs to the call, not to the prose.
    let after = skip_ws(text, end);
    match prefix(text, after, hermes::CLOSE, cx.eof) {
        Prefix::Yes => region(pos, after + hermes::CLOSE.len(), items),
        Prefix::Partial => Step::More(Need::Byte(b'>', b'>')),
        Prefix::No if after == text.len() && !cx.eof => Step::More(Need::Any),
        Prefix::No => region(pos, end, items),
    }
}

/// Every function in `text[start..end]`; `closed` says the text around them was closed, so
/// the last one was not cut off.
pub(crate) fn read_functions(
    cx: &Cx,
    text: &str,
    start: usize,
    end: usize,
    closed: bool,
) -> Vec<Item> {
    let mut items = Vec::new();
    let mut next = find(text, start..end, FUNCTION);
    while let Some(at) = next {
        next = find(text, at + FUNCTION.len()..end, FUNCTION);
        let limit = next.unwrap_or(end);
        let close = find(text, at..limit, FUNCTION_END);
        let span_end = close.map_or(limit, |c| c + FUNCTION_END.len());
        let finished = closed || close.is_some() || next.is_some();
        let body_end = close.unwrap_or(limit);
        items.push(
            match read_function(cx, text, at + FUNCTION.len(), body_end, finished) {
                Ok((name, arguments)) => Item::Call { name, arguments },
                Err(kind) => Item::Error {
                    span: at..span_end,
                    kind,
                },
            },
        );
    }
    items
}

/// One function: its name from `start` to `>`, then its parameters up to `end`.
fn read_function(
    cx: &Cx,
    text: &str,
    start: usize,
    end: usize,
    finished: bool,
) -> Result<(String, String), TextErrorKind> {
    let cut = |finished: bool, expected| {
        if finished {
            TextErrorKind::Syntax { expected }
        } else {
            TextErrorKind::Truncated(Cut::InMarkup)
        }
    };
    let name_end = memchr::memchr(b'>', &text.as_bytes()[start..end])
        .map(|n| start + n)
        .ok_or_else(|| cut(finished, "`>` after the function name"))?;
    let name = text[start..name_end].trim();
    if name.is_empty() {
        return Err(TextErrorKind::MissingName);
    }
    let schema = cx.tools.input_schema(name);
    let mut arguments = Map::new();
    let mut next = find(text, name_end..end, PARAMETER);
    while let Some(at) = next {
        let key_start = at + PARAMETER.len();
        next = find(text, key_start..end, PARAMETER);
        let limit = next.unwrap_or(end);
        let key_end = memchr::memchr(b'>', &text.as_bytes()[key_start..limit])
            .map(|n| key_start + n)
            .ok_or_else(|| cut(finished || next.is_some(), "`>` after the parameter name"))?;
        let key = text[key_start..key_end].trim();
        let close = find(text, key_end..limit, PARAMETER_END);
        if close.is_none() && next.is_none() && !finished {
            return Err(TextErrorKind::Truncated(Cut::InString));
        }
        let value = trim_line_break(&text[key_end + 1..close.unwrap_or(limit)]);
        arguments.insert(key.to_owned(), coerce(value, schema, key));
    }
    if !finished {
        // Cut off by the end of the message, even after a closed parameter: more may have
        // followed, and a call missing some of its arguments is not the call the model made.
        return Err(TextErrorKind::Truncated(Cut::InMarkup));
    }
    Ok((name.to_owned(), Value::Object(arguments).to_string()))
}

/// Whether `body` ends inside a parameter's value (one opened and not yet closed).
pub(crate) fn in_parameter(body: &str) -> bool {
    let hay = body.as_bytes();
    memmem::rfind(hay, PARAMETER.as_bytes()).is_some_and(|open| {
        let value = &hay[open..];
        memmem::find(value, PARAMETER_END.as_bytes()).is_none()
            && memmem::find(value, FUNCTION_END.as_bytes()).is_none()
    })
}

/// The value without one line break at each end (the ones the format puts around it).
fn trim_line_break(value: &str) -> &str {
    let value = value
        .strip_prefix("\r\n")
        .or_else(|| value.strip_prefix('\n'))
        .unwrap_or(value);
    value
        .strip_suffix("\r\n")
        .or_else(|| value.strip_suffix('\n'))
        .unwrap_or(value)
}

/// The first `needle` in `text[range]`.
fn find(text: &str, range: std::ops::Range<usize>, needle: &str) -> Option<usize> {
    let hay = text.as_bytes().get(range.clone())?;
    memmem::find(hay, needle.as_bytes()).map(|n| range.start + n)
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    fn tools() -> HashMap<String, Value> {
        HashMap::from([(
            "get_weather".to_owned(),
            json!({"type": "object", "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "metric": {"type": "boolean"},
                "hours": {"type": "array"},
            }}),
        )])
    }

    fn arguments(call: &crate::ToolCall) -> Value {
        serde_json::from_str(&call.arguments).unwrap()
    }

    #[test]
    fn parameters_are_typed_by_the_schema() {
        let text = "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\n1600 Pennsylvania Ave\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\ntrue\n</parameter>\n<parameter=hours>\n[9, 12]\n</parameter>\n</function>\n</tool_call>";
        let parsed = parse(text, TextFormat::QwenXml, &tools());
        assert_eq!(parsed.text, "Checking.\n");
        assert_eq!(parsed.calls[0].name, "get_weather");
        assert_eq!(
            arguments(&parsed.calls[0]),
            json!({"city": "1600 Pennsylvania Ave", "days": 3, "metric": true, "hours": [9, 12]})
        );
    }

    #[test]
    fn code_with_backslashes_and_quotes_stays_as_written() {
        let code = "fn main() {\n    println!(\"a\\tb\\n\");\n}\n";
        let text = format!("<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/main.rs\n</parameter>\n<parameter=content>\n{code}\n</parameter>\n</function>\n</tool_call>");
        let parsed = parse(&text, TextFormat::Auto, &());
        assert_eq!(arguments(&parsed.calls[0])["content"], json!(code));
    }

    #[test]
    fn unknown_tools_get_values_guessed() {
        let text = "<function=f><parameter=n>42</parameter><parameter=s>hi</parameter></function>";
        let parsed = parse(text, TextFormat::QwenXml, &());
        assert_eq!(arguments(&parsed.calls[0]), json!({"n": 42, "s": "hi"}));
    }

    #[test]
    fn missing_closing_tags_are_forgiven_where_nothing_is_cut() {
        // vLLM's rule: a parameter also ends at the next one or at `</function>`.
        let text = "<tool_call><function=get_weather><parameter=city>Oslo<parameter=days>2</function></tool_call>";
        let parsed = parse(text, TextFormat::QwenXml, &tools());
        assert_eq!(
            arguments(&parsed.calls[0]),
            json!({"city": "Oslo", "days": 2})
        );
        // Cut off by the end of the text after a closed parameter: more may have followed,
        // so it is an error (issue 32 item 10), never a call with what came before the cut.
        let text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n";
        let parsed = parse(text, TextFormat::QwenXml, &tools());
        assert!(parsed.calls.is_empty(), "{parsed:?}");
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(crate::Cut::InMarkup)
        );
    }

    #[test]
    fn a_value_cut_off_is_an_error() {
        let text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOs";
        let parsed = parse(text, TextFormat::QwenXml, &tools());
        assert!(parsed.calls.is_empty());
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(crate::Cut::InString)
        );
        assert_eq!(parsed.errors[0].raw, text);
    }

    #[test]
    fn several_functions_in_one_tag_are_several_calls() {
        let text = "<tool_call>\n<function=a>\n</function>\n<function=b>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>";
        let parsed = parse(text, TextFormat::Auto, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(parsed.calls[0].arguments, "{}");
    }
}
