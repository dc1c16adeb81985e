//! The wrappers llama.cpp's Hermes 2 Pro parser accepted before its PEG rewrite (Aug 2025,
//! `common_chat_parse_hermes_2_pro`): a `{"name": .., "arguments": {..}}` object in
//! `<tool_call>`, `<function_call>`, `<tool>`, `<tools>`, `<response>`, `<json>`, `<xml>` or
//! `<JSON>` tags (each closed by its own closing tag), in a ```` ``` ````/```` ```json ````/
//! ```` ```xml ```` fence with or without such a tag, bare, or as `<function=NAME>{..}</function>`
//! or `<function name="NAME">{..}</function>`.
//!
//! A format of its own ([`TextFormat::HermesVariants`]) rather than a wider Hermes: these tags
//! are common words of HTML and XML, and a bare object counts anywhere, so reading them under
//! [`TextFormat::Hermes`] (which [`TextFormat::Auto`] includes) would take prose for calls;
//! the current llama.cpp reads Hermes 2 Pro's `<tool_call>` only. Chosen explicitly, for
//! models fine-tuned on the looser outputs, every wrapper is read; the bodies are read as a
//! Hermes tag's are (`hermes.rs`): one bad call costs one error, a closing tag in a string is
//! not the end, a call cut off is an error.

use super::arguments;
use super::cursor::{prefix, region, skip_ws, Ask, Cx, Item, Need, Prefix, Reader, Step};
use super::error::TextErrorKind;
use super::format::TextFormat;
use super::functionary;
use super::hermes;
use super::json::{self, Extent};
use memchr::memmem;

/// Only when chosen: its tags are ordinary words.
pub(crate) const READER: Reader =
    Reader::new(b'<', 170, at, Some(TextFormat::HermesVariants)).asked(Ask::Chosen);

/// The wrapping tags (besides Hermes's own `<tool_call>`), each with its closing tag.
pub(crate) const TAGS: [(&str, &str); 7] = [
    ("<function_call>", "</function_call>"),
    ("<tools>", "</tools>"),
    ("<tool>", "</tool>"),
    ("<response>", "</response>"),
    ("<json>", "</json>"),
    ("<xml>", "</xml>"),
    ("<JSON>", "</JSON>"),
];
const FUNCTION_NAMED: &str = "<function name=\"";
const FUNCTION_CLOSE: &str = "</function>";

/// A tag at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut partial = false;
    for (open, close) in TAGS {
        match prefix(text, pos, open, cx.eof) {
            Prefix::Yes => return wrapped(cx, text, pos, open, close),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    match prefix(text, pos, FUNCTION_NAMED, cx.eof) {
        Prefix::Yes => return named(cx, text, pos),
        Prefix::Partial => partial = true,
        Prefix::No => {}
    }
    // `<function=NAME>{..}</function>`: Functionary v3.1's reader.
    let as_functionary = Cx {
        format: TextFormat::Functionary,
        ..*cx
    };
    match functionary::at(&as_functionary, text, pos) {
        Step::Prose(_) if partial => cx.more(Need::Any),
        step => step,
    }
}

/// The calls between `open` at `pos` and `close`.
fn wrapped(cx: &Cx, text: &str, pos: usize, open: &str, close: &str) -> Step {
    let body = pos + open.len();
    let first = skip_ws(text, body);
    if first == text.len() && !cx.eof {
        return Step::More(Need::Any);
    }
    match text.as_bytes().get(first) {
        Some(b'{' | b'[') => {}
        // No JSON: an ordinary tag.
        _ => return Step::Prose(1),
    }
    // The JSON's own end, so that a closing tag inside one of its strings is not the end.
    let json_end = match json::extent_or_wait(cx.eof, text, first) {
        Ok(Extent::Closed(end)) => Some(end),
        Ok(_) => None,
        Err(need) => return Step::More(need),
    };
    let from = json_end.unwrap_or(body);
    match memmem::find(&text.as_bytes()[from..], close.as_bytes()) {
        Some(n) => {
            let close_at = from + n;
            let items = hermes::read_body(cx, text, body, close_at, true);
            region(pos, close_at + close.len(), items)
        }
        None if !cx.eof => Step::More(Need::Byte(b'>', b'>')),
        // Never closed: the calls end where their JSON does, or with the text.
        None => {
            let end = json_end.unwrap_or(text.len());
            region(
                pos,
                end,
                hermes::read_body(cx, text, body, end, json_end.is_some()),
            )
        }
    }
}

/// `<function name="NAME">{..}</function>` at `pos`.
fn named(cx: &Cx, text: &str, pos: usize) -> Step {
    let name_at = pos + FUNCTION_NAMED.len();
    let Some(n) = memchr::memchr(b'"', &text.as_bytes()[name_at..]) else {
        return cx.more(Need::Byte(b'"', b'"'));
    };
    let name = &text[name_at..name_at + n];
    let tag_end = name_at + n + 1;
    match prefix(text, tag_end, ">", cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No => return Step::Prose(1),
    }
    let body = skip_ws(text, tag_end + 1);
    match text.as_bytes().get(body) {
        None => return cx.more(Need::Any),
        Some(b'{') => {}
        // MiniCPM5's `<param>` body, or prose.
        Some(_) => return Step::Prose(1),
    }
    let (json_end, read) = match arguments::read(cx, text, body) {
        Ok(read) => read,
        Err(need) => return Step::More(need),
    };
    let end = match arguments::closed_by(cx, text, json_end, &[FUNCTION_CLOSE]) {
        Ok(end) => end,
        Err(need) => return Step::More(need),
    };
    let item = match read {
        Ok(_) if name.trim().is_empty() => Item::Error {
            span: pos..end,
            kind: TextErrorKind::MissingName,
        },
        Ok(arguments) => Item::Call {
            name: name.trim().to_owned(),
            arguments,
        },
        Err(kind) => Item::Error {
            span: pos..end,
            kind,
        },
    };
    region(pos, end, vec![item])
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn every_wrapper_of_llama_cpps_old_parser_is_read() {
        // llama.cpp `test-chat.cpp` (Aug 2025), Hermes 2 Pro's parse tests.
        let call = "{\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}}";
        let texts = [
            format!("<tool_call>\n{call}\n</tool_call>"),
            format!("Hello, world!\nWhat's up?<tool_call>\n{call}\n</tool_call>"),
            "<function=special_function>{\"arg1\": 1}</function>".to_owned(),
            "<function name=\"special_function\">\n{\"arg1\": 1}\n</function>".to_owned(),
            format!("<tool>\n  {call}\n</tool>"),
            format!("<tools>\n  {call}\n</tools>"),
            format!("<response>\n  {call}\n</response>"),
            format!("```xml\n<response>\n    {call}\n</response>\n```"),
            format!("```xml\n  {call}\n```"),
            format!("```\n  {call}\n```"),
            format!("```json\n  {call}\n```"),
            format!("```json\n\n                    <function_call> {call} \n                    </function_call> \n``` "),
            format!("<json>{call}</json>"),
            format!("Sure: {call}"),
        ];
        for text in &texts {
            let parsed = parse(text, TextFormat::HermesVariants, &());
            assert_eq!(parsed.calls.len(), 1, "{text}: {parsed:?}");
            assert_eq!(parsed.calls[0].name, "special_function", "{text}");
            assert_eq!(parsed.calls[0].arguments, r#"{"arg1": 1}"#, "{text}");
            assert!(parsed.errors.is_empty(), "{text}: {parsed:?}");
        }
    }

    #[test]
    fn one_bad_call_costs_one_error() {
        let text = "<tool>{\"name\": \"a\", \"arguments\": {}}</tool>\n<response>{\"name\": \"b\", \"arguments\": {\"x\": 1,, \"y\": 2}}</response>\n<json>{\"name\": \"c\", \"arguments\": {\"z\": 2}}</json>";
        let parsed = parse(text, TextFormat::HermesVariants, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(parsed.errors.len(), 1);
        assert!(parsed.errors[0].raw.starts_with("<response>"));
        assert_eq!(parsed.text, "");
    }

    #[test]
    fn auto_and_hermes_leave_the_loose_wrappers_alone() {
        for text in [
            "<response>{\"name\": \"f\", \"arguments\": {}}</response>",
            "<tool>{\"name\": \"f\", \"arguments\": {}}</tool>",
        ] {
            for format in [TextFormat::Hermes, TextFormat::Auto] {
                let parsed = parse(text, format, &());
                assert!(parsed.calls.is_empty(), "{format:?}: {text}");
            }
        }
        // A tag without JSON is an ordinary tag.
        let text = "<response>ok</response>";
        assert_eq!(parse(text, TextFormat::HermesVariants, &()).text, text);
    }
}
