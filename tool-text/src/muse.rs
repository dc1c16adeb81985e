//! Muse Spark and Muse Glimmer: harmony-like messages addressed to a recipient, each
//! `<|start|>assistant to=RECIPIENT<|message|>BODY` ended by `<|eom|>` or `<|eot|>` (or the next
//! message), where a message to a tool holds an ATEM block:
//!
//! ```text
//! <|start|>assistant to=get_weather<|message|><atem:function_calls>
//! <atem:invoke name="get_weather">
//! <atem:parameter name="city">Paris</atem:parameter>
//! </atem:invoke>
//! </atem:function_calls><|eom|>
//! ```
//!
//! Peers: vLLM `muse`/`muse_glimmer` (`muse_tool_parser.py`, which segments the reply into
//! messages and reads invokes only in messages to a tool), llama.cpp's dedicated Muse Glimmer
//! parser (its tests; the parser's body is not in the vendored source). The reply's first
//! header comes without `<|start|>assistant` (the prompt ends with it): ` to=user<|message|>`
//! at the start of the message, which the scan offers this format at offset 0.
//!
//! What is kept as text: a message to `self` is reasoning, kept verbatim as a `<think>` block
//! is (no call is read in it); the headers of messages to `user`, `commentary`, `developer` or
//! none (Glimmer's answer) are cut and their bodies kept (vLLM drops `developer` messages and
//! Muse Spark takes a bare header for reasoning; here no text is dropped); `<|eom|>`/`<|eot|>`
//! are cut. A message to any other recipient is a call: its ATEM invokes (the tool names are
//! the invokes', values typed by the schema as `invoke_xml.rs` types them, where vLLM decodes
//! JSON when it can), or a JSON object (the arguments of a call to the recipient). A bare
//! `<atem:function_calls>` block, without the framing, is read too (`invoke_xml.rs`), as
//! vLLM's fallback does.

use super::arguments;
use super::cursor::{prefix, region, skip_ws, Cx, Fence, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::invoke_xml;

/// Muse's messages: after harmony's, whose headers name a channel.
pub(crate) const READER: Reader = Reader::new(b'<', 110, at, Some(TextFormat::Muse));

const START: &str = "<|start|>assistant";
const MESSAGE: &str = "<|message|>";
const TO: &str = "to=";
/// What ends a message: the end of a turn, the end of a message within one, or the next.
const ENDS: [&str; 2] = ["<|eom|>", "<|eot|>"];
const NEXT: &str = "<|start|>";
/// Recipients whose messages are text.
const TEXT: [&str; 3] = ["user", "commentary", "developer"];
/// The recipient whose messages are reasoning.
const SELF: &str = "self";
/// A recipient longer than this is not one.
const RECIPIENT_MAX: usize = 256;

/// A Muse token at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let explicit = cx.format == TextFormat::Muse;
    let mut partial = false;
    for end in ENDS {
        match prefix(text, pos, end, cx.eof) {
            Prefix::Yes if explicit => return region(pos, pos + end.len(), Vec::new()),
            Prefix::Partial => partial = true,
            _ => {}
        }
    }
    match prefix(text, pos, START, cx.eof) {
        Prefix::Yes => message(cx, text, pos, pos + START.len()),
        Prefix::Partial => cx.more(Need::Any),
        Prefix::No if partial => cx.more(Need::Any),
        Prefix::No => Step::Prose(1),
    }
}

/// The start of the message, where the first header comes without `<|start|>assistant`.
pub(crate) fn first_at(cx: &Cx, text: &str, pos: usize) -> Step {
    let header = skip_ws(text, pos);
    if header == text.len() {
        return cx.more(Need::Any);
    }
    match prefix(text, header, TO, cx.eof) {
        Prefix::Yes => message(cx, text, pos, header),
        Prefix::Partial => Step::More(Need::Any),
        Prefix::No if header == pos => at(cx, text, pos),
        Prefix::No => Step::Prose(header - pos),
    }
}

/// A message whose header opens at `pos`, its recipient (if any) after `from`.
fn message(cx: &Cx, text: &str, pos: usize, from: usize) -> Step {
    let bytes = text.as_bytes();
    let mut i = skip_ws(text, from);
    let mut recipient = None;
    match prefix(text, i, TO, cx.eof) {
        Prefix::Yes => {
            let start = i + TO.len();
            let len = bytes[start..]
                .iter()
                .take(RECIPIENT_MAX + 1)
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
                .count();
            if start + len == bytes.len() && len <= RECIPIENT_MAX {
                return cx.more(Need::Any);
            }
            if len == 0 || len > RECIPIENT_MAX {
                return Step::Prose(1);
            }
            recipient = Some(&text[start..start + len]);
            i = skip_ws(text, start + len);
        }
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No if i == bytes.len() => return cx.more(Need::Any),
        Prefix::No => {}
    }
    let body = match prefix(text, i, MESSAGE, cx.eof) {
        Prefix::Yes => i + MESSAGE.len(),
        Prefix::Partial => return Step::More(Need::Any),
        Prefix::No if i == bytes.len() => return cx.more(Need::Any),
        Prefix::No => return Step::Prose(1),
    };
    match recipient {
        Some(SELF) => Step::Fence {
            len: body - pos,
            fence: Fence::Reasoning(ENDS[0]),
        },
        None => region(pos, body, Vec::new()),
        Some(r) if TEXT.contains(&r) => region(pos, body, Vec::new()),
        Some(tool) => call(cx, text, pos, body, tool),
    }
}

/// A message to `tool`, whose body starts at `body`.
fn call(cx: &Cx, text: &str, pos: usize, body: usize, tool: &str) -> Step {
    // The nearest end, each looked for only before the nearest found so far (searched to the
    // end of the text for every message, a text of unclosed messages cost its square).
    let mut markers = ENDS.to_vec();
    markers.push(NEXT);
    let found =
        super::arguments::find_first(text, body, &markers).map(|(at, end)| (at, &text[at..end]));
    let (body_end, end) = match found {
        Some((at, NEXT)) => (at, at),
        Some((at, end)) => (at, at + end.len()),
        None if !cx.eof => return Step::More(Need::Byte(b'>', b'>')),
        None => (text.len(), text.len()),
    };
    let whole = found.is_some();
    let inner = &text[..body_end];
    let cx = Cx {
        format: TextFormat::Muse,
        eof: true,
        ..*cx
    };
    let first = skip_ws(inner, body);
    let items = match inner.as_bytes().get(first) {
        Some(b'<') => match invoke_xml::at(&cx, inner, first) {
            Step::Region { items, len, .. } if skip_ws(inner, first + len) == body_end => items,
            Step::Region { items, .. } => {
                let mut items = items;
                items.push(Item::Error {
                    span: first..body_end,
                    kind: TextErrorKind::Syntax {
                        expected: "nothing after the function calls",
                    },
                });
                items
            }
            _ => vec![error(pos..end, syntax())],
        },
        Some(b'{') => match arguments::read(&cx, inner, first) {
            Ok((_, Ok(arguments))) => vec![Item::Call {
                name: tool.to_owned(),
                arguments,
            }],
            Ok((_, Err(kind))) => vec![error(pos..end, kind)],
            Err(_) => vec![error(pos..end, syntax())],
        },
        None if !whole => vec![error(pos..end, TextErrorKind::Truncated(Cut::InMarkup))],
        None => vec![error(pos..end, TextErrorKind::Empty)],
        Some(_) => vec![error(pos..end, syntax())],
    };
    match region(pos, end, items) {
        Step::Region { len, items, .. } => Step::Region {
            len,
            items,
            format: Some(TextFormat::Muse),
        },
        step => step,
    }
}

fn syntax() -> TextErrorKind {
    TextErrorKind::Syntax {
        expected: "an <atem:function_calls> block or a JSON object",
    }
}

fn error(span: std::ops::Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn messages_are_read_by_recipient() {
        // llama.cpp's Muse Glimmer tests.
        let text = " to=user<|message|>Hello, world!\nWhat's up?<|eom|><|start|>assistant to=special_function<|message|><atem:function_calls>\n<atem:invoke name=\"special_function\">\n<atem:parameter name=\"arg1\">1</atem:parameter>\n</atem:invoke>\n</atem:function_calls>";
        let parsed = parse(text, TextFormat::Muse, &());
        assert_eq!(parsed.calls.len(), 1, "{parsed:?}");
        assert_eq!(parsed.calls[0].arguments, r#"{"arg1":1}"#);
        assert_eq!(parsed.text, "Hello, world!\nWhat's up?");
        assert_eq!(parsed.format, Some(TextFormat::Muse));
    }

    #[test]
    fn reasoning_is_prose_and_no_call_is_read_in_it() {
        let text = "<|start|>assistant to=self<|message|>Maybe <atem:function_calls><atem:invoke name=\"f\"></atem:invoke></atem:function_calls>?<|eom|><|start|>assistant to=f<|message|>{\"a\": 1}<|eom|><|start|>assistant to=user<|message|>Done.<|eot|>";
        for format in [TextFormat::Muse, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["f"], "{format:?}: {parsed:?}");
            assert!(
                parsed
                    .text
                    .starts_with("<|start|>assistant to=self<|message|>Maybe <atem:"),
                "{format:?}"
            );
        }
    }
}
