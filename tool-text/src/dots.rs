//! dots.llm: `<dots_function_call>` blocks (vLLM `dots`), whose body is either MiniMax-like
//! XML, `<invoke name="f"><parameter name="k">v</parameter></invoke>` (one or more), or a JSON
//! object `{"name": "f", "arguments": {..}}`, as vLLM's parser reads it ("JSON fallback").
//!
//! The two bodies are two table entries: the XML one in `invoke_xml.rs`'s `MARKUPS`, the JSON
//! one in `wrapped.rs`'s `WRAPS`. This matcher looks at the body's first byte and hands the
//! block to the reader of its kind. XML values are trimmed and typed with the tool's input
//! schema, as vLLM's are (it also follows a `$ref` to `$defs`, which `coerce.rs` doesn't: such
//! a value is typed by what it looks like). vLLM drops a call to a tool not in the request;
//! here it is reported as written, for validation to judge.

use super::cursor::{prefix, skip_ws, Cx, Need, Prefix, Reader, Step};
use super::format::TextFormat;
use super::{invoke_xml, wrapped};

/// dots.llm's tag, holding JSON (`wrapped.rs`) or XML (`invoke_xml.rs`).
pub(crate) const READER: Reader = Reader::new(b'<', 60, at, Some(TextFormat::Dots));

pub(crate) const OPEN: &str = "<dots_function_call>";

/// A `<dots_function_call>` block at `pos`.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match prefix(text, pos, OPEN, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    let body = skip_ws(text, pos + OPEN.len());
    let cx = Cx {
        format: TextFormat::Dots,
        ..*cx
    };
    match text.as_bytes().get(body) {
        None if !cx.eof => Step::More(Need::Any),
        Some(b'<') => invoke_xml::at(&cx, text, pos),
        // JSON, or an error for what is neither.
        _ => wrapped::at(&cx, text, pos),
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    #[test]
    fn xml_and_json_blocks_are_read() {
        // vLLM `test_non_stream_supports_multiple_invokes_and_json_fallback`.
        let text = "Looking.\n<dots_function_call>\n<invoke name=\"search\">\n<parameter name=\"query\"> chairs </parameter>\n<parameter name=\"limit\">3</parameter>\n</invoke>\n<invoke name=\"open\"><parameter name=\"id\">7</parameter></invoke>\n</dots_function_call>\n<dots_function_call>{\"name\":\"search\",\"arguments\":{\"query\":\"tables\"}}</dots_function_call>\nDone.";
        let tools = HashMap::from([
            (
                "search".to_owned(),
                json!({"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}}),
            ),
            (
                "open".to_owned(),
                json!({"type": "object", "properties": {"id": {"type": "string"}}}),
            ),
        ]);
        for format in [TextFormat::Dots, TextFormat::Auto] {
            let parsed = parse(text, format, &tools);
            let calls: Vec<(&str, Value)> = parsed
                .calls
                .iter()
                .map(|c| (c.name.as_str(), serde_json::from_str(&c.arguments).unwrap()))
                .collect();
            assert_eq!(
                calls,
                [
                    ("search", json!({"query": "chairs", "limit": 3})),
                    ("open", json!({"id": "7"})),
                    ("search", json!({"query": "tables"})),
                ],
                "{format:?}"
            );
            assert_eq!(parsed.text, "Looking.\nDone.", "{format:?}");
            assert!(parsed.errors.is_empty(), "{format:?}");
            assert_eq!(parsed.format, Some(TextFormat::Dots));
        }
    }

    #[test]
    fn a_block_with_neither_body_is_one_error() {
        let text = "<dots_function_call>search chairs</dots_function_call> after";
        let parsed = parse(text, TextFormat::Dots, &());
        assert!(parsed.calls.is_empty());
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.text, " after");
    }
}
