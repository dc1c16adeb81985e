//! PLaMo 3's tool requests: the name and the JSON arguments each between markers of their own.
//!
//! ```text
//! <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>NAME<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"k": "v"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
//! ```
//!
//! Written by PLaMo 3; read by vLLM's `plamo3` parser (`parser/plamo3.py`, tested in
//! `tests/parser/engine/test_plamo3.py`). Its reasoning block,
//! `<|plamo:begin_think:plamo|>`..`<|plamo:end_think:plamo|>`, is prose (`scan.rs`).
//!
//! The arguments are JSON, taken as written (no schema typing). As in vLLM's tests, arguments
//! whose JSON is complete make a call even when the closing markers never come; a call cut off
//! before its JSON ends is an error here, where vLLM reports what it has (a cut name, raw
//! partial JSON).

use super::cursor::{prefix, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::json::{self, Extent};
use super::kv::{self, Group, Read, NEXT_TAG};
use serde_json::{Map, Value};

/// PLaMo 3's markers.
pub(crate) const READER: Reader = Reader::new(b'<', 90, at, Some(TextFormat::Plamo3));

const GROUP: Group = Group {
    format: TextFormat::Plamo3,
    open: "<|plamo:begin_tool_requests:plamo|>",
    close: "<|plamo:end_tool_requests:plamo|>",
    filler: &[END_ARGUMENTS, END_REQUEST],
};
const REQUEST: &str = "<|plamo:begin_tool_request:plamo|>";
const END_REQUEST: &str = "<|plamo:end_tool_request:plamo|>";
const NAME: &str = "<|plamo:begin_tool_name:plamo|>";
const END_NAME: &str = "<|plamo:end_tool_name:plamo|>";
const ARGUMENTS: &str = "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>";
const END_ARGUMENTS: &str = "<|plamo:end_tool_arguments:plamo|>";

/// PLaMo 3's group of requests opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, GROUP.open, cx.eof) {
        Prefix::Yes => kv::read_group(cx, text, pos, &GROUP, &read_request).in_format(GROUP.format),
        Prefix::Partial => cx.more(Need::Any),
        Prefix::No => Step::Prose(1),
    }
}

/// The request opening at `at`, if one does.
fn read_request(cx: &Cx, text: &str, at: usize) -> Read {
    match prefix(text, at, REQUEST, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Read::Wait(Need::Any),
        Prefix::No => return Read::NotACall,
    }
    let fail = |end: usize, kind| Read::Done(end, kv::error(at..end, kind));
    let cut = |what: Cut| match cx.eof {
        true => fail(text.len(), TextErrorKind::Truncated(what)),
        false => Read::Wait(NEXT_TAG),
    };
    let name_at = skip_ws(text, at + REQUEST.len());
    match prefix(text, name_at, NAME, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return cut(Cut::InMarkup),
        Prefix::No if name_at == text.len() => return cut(Cut::InMarkup),
        Prefix::No => {
            let expected = "the tool name's marker";
            return fail(name_at, TextErrorKind::Syntax { expected });
        }
    }
    let name_start = name_at + NAME.len();
    let Some(name_end) = kv::find(text, name_start..text.len(), END_NAME) else {
        return cut(Cut::InMarkup);
    };
    let name = text[name_start..name_end].trim();
    let after_name = name_end + END_NAME.len();
    if name.is_empty() {
        return fail(after_name, TextErrorKind::MissingName);
    }
    let args_at = skip_ws(text, after_name);
    match prefix(text, args_at, ARGUMENTS, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return cut(Cut::BeforeValue),
        Prefix::No if args_at == text.len() => return cut(Cut::BeforeValue),
        // A request without arguments.
        Prefix::No if text[args_at..].starts_with(END_REQUEST) => {
            return Read::Done(args_at, call(name, "{}".to_owned()));
        }
        Prefix::No => {
            let expected = "the arguments' marker";
            return fail(args_at, TextErrorKind::Syntax { expected });
        }
    }
    let json_at = skip_ws(text, args_at + ARGUMENTS.len());
    if json_at == text.len() {
        return cut(Cut::BeforeValue);
    }
    if text.as_bytes()[json_at] != b'{' {
        return fail(json_at, TextErrorKind::ArgumentsNotObject);
    }
    match json::extent_or_wait(cx.eof, text, json_at) {
        Err(need) => Read::Wait(need),
        Ok(Extent::Closed(end)) => match arguments(&text[json_at..end]) {
            Ok(arguments) => Read::Done(end, call(name, arguments)),
            Err(kind) => fail(end, kind),
        },
        Ok(Extent::Open(_)) => fail(text.len(), TextErrorKind::Truncated(Cut::BeforeValue)),
        Ok(Extent::TooDeep) => fail(text.len(), TextErrorKind::TooDeep),
    }
}

fn call(name: &str, arguments: String) -> Item {
    Item::Call {
        name: name.to_owned(),
        arguments,
    }
}

/// The arguments, which must be a JSON object.
fn arguments(raw: &str) -> Result<String, TextErrorKind> {
    let valid = json::to_valid(raw)?;
    serde_json::from_str::<Map<String, Value>>(&valid)
        .map_err(|_| TextErrorKind::ArgumentsNotObject)?;
    Ok(valid.into_owned())
}

#[cfg(test)]
mod tests {
    use crate::{parse, Cut, TextErrorKind, TextFormat};
    use serde_json::{json, Value};

    const BEGIN: &str = "<|plamo:begin_tool_requests:plamo|>";
    const END: &str = "<|plamo:end_tool_requests:plamo|>";

    fn request(name: &str, arguments: &str) -> String {
        format!("<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>{name}<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{arguments}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>")
    }

    fn calls(text: &str) -> Vec<(String, Value)> {
        crate::test_support::found_ok(text, TextFormat::Plamo3, &())
    }

    #[test]
    fn requests_are_read_with_their_json_arguments() {
        // vLLM's tests/parser/engine/test_plamo3.py.
        let text = format!(
            "<|plamo:begin_think:plamo|>Reasoning. <|plamo:end_think:plamo|>Before tools. {BEGIN}{}{}{END}",
            request("weather", "{\"city\":\"東京\"}"),
            request("clock", "{\"timezone\":\"Asia/Tokyo\"}")
        );
        for format in [TextFormat::Plamo3, TextFormat::Auto] {
            let parsed = parse(&text, format, &());
            assert_eq!(
                parsed.text,
                "<|plamo:begin_think:plamo|>Reasoning. <|plamo:end_think:plamo|>Before tools. "
            );
            assert_eq!(parsed.format, Some(TextFormat::Plamo3));
        }
        assert_eq!(
            calls(&text),
            [
                ("weather".to_owned(), json!({"city": "東京"})),
                ("clock".to_owned(), json!({"timezone": "Asia/Tokyo"}))
            ]
        );
    }

    #[test]
    fn complete_arguments_survive_missing_closers_and_cut_ones_are_errors() {
        let head = format!("{BEGIN}<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>");
        let text = format!("{head}{{\"city\":\"東京\"}}");
        assert_eq!(
            calls(&text),
            [("weather".to_owned(), json!({"city": "東京"}))]
        );
        let parsed = parse(
            &format!("{head}{{\"text\":\"literal <|plamo:end_"),
            TextFormat::Plamo3,
            &(),
        );
        assert!(parsed.calls.is_empty());
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
        let parsed = parse(
            &format!("{BEGIN}<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>clo"),
            TextFormat::Plamo3,
            &(),
        );
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(Cut::InMarkup)
        );
    }
}
